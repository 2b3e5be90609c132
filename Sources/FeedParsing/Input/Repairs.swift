/// What the prepass repaired in a document's markup, and the line of the first repair (for the
/// warning a person reads: where to look in the source).
struct Repairs {
    private(set) var count = 0
    private(set) var firstLine: Int?

    mutating func note(line: Int) {
        count += 1
        if firstLine == nil { firstLine = line }
    }

    /// The line feeds in `b` (bytes the prepass skips without reading them one by one).
    static func lineFeeds(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for c in b where c == 0x0A { count += 1 }
        return count
    }
}
