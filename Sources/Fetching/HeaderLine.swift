import FeedModel

/// One line of a response head as curl hands it over (its CR LF included), read on its bytes:
/// every byte looked for (blanks, ":", the status line's spaces) is ASCII, and in UTF-8 an ASCII
/// byte is always that character, so the line reads as scalar by scalar would. Reading it as a
/// String of Characters (trimmed, split, searched) was 8 % of the instructions of an all-304
/// pass of 5,000 feeds, on the thread that runs every transfer.
enum HeaderLine: Equatable {
    /// `HTTP/…`: a new response begins (a redirect hop, an interim 1xx, or the final one), with
    /// its status (0 when it has none that reads as 0...999).
    case status(Int)
    /// A folded continuation of the field before (a line starting with a blank), trimmed.
    case continuation(String)
    /// `name: value`, both trimmed.
    case field(name: String, value: String)
    /// A blank line (the end of a head), or one with no colon.
    case ignored

    static func read(_ bytes: UnsafeRawBufferPointer) -> HeaderLine {
        let line = trimmed(bytes, 0, bytes.count)
        if line.count >= 5, bytes[line.lowerBound..<line.lowerBound + 5].elementsEqual("HTTP/".utf8) {
            // The second of the words between spaces: "HTTP/1.1 304 Not Modified".
            var i = line.lowerBound
            while i < line.upperBound, bytes[i] != 0x20 { i += 1 }
            while i < line.upperBound, bytes[i] == 0x20 { i += 1 }
            var end = i
            while end < line.upperBound, bytes[end] != 0x20 { end += 1 }
            return .status(OutsideNumber.int(text(bytes, i..<end), in: 0...999) ?? 0)
        }
        guard !line.isEmpty else { return .ignored }
        if let first = bytes.first, first == 0x20 || first == 0x09 { return .continuation(text(bytes, line)) }
        guard let colon = line.first(where: { bytes[$0] == UInt8(ascii: ":") }) else { return .ignored }
        return .field(name: text(bytes, trimmed(bytes, line.lowerBound, colon)),
                      value: text(bytes, trimmed(bytes, colon + 1, line.upperBound)))
    }

    /// `start..<end` without the blanks (space, tab, CR, LF) at either end.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Range<Int> {
        func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }
        var (start, end) = (start, end)
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// The bytes as text, invalid UTF-8 replaced (a slice never ends inside a valid character:
    /// it is cut at ASCII bytes).
    private static func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
