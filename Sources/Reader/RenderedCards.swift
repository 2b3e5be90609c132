/// Text for a list of cards that knows where each card's part ends, so a writer told how many
/// bytes its reader took (a pipe closed by `head`, a pager quit early) can say which cards
/// were delivered whole: only those become read.
public struct RenderedCards: Sendable {
    public private(set) var text = ""
    /// Bytes of `text` (UTF-8) so far.
    public private(set) var byteCount = 0
    /// Newlines in `text`.
    public private(set) var lineCount = 0
    /// For each card, in output order: its index in the cards rendered and the byte offset
    /// just after its last byte.
    public private(set) var ends: [(card: Int, end: Int)] = []

    public init() {}

    /// Appends text that belongs to no card (a heading, a separator).
    public mutating func append(_ s: String) {
        text += s
        byteCount += s.utf8.count
        lineCount += s.utf8.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    /// Appends the whole of card `index`'s text.
    public mutating func append(_ s: String, card index: Int) {
        append(s)
        ends.append((index, byteCount))
    }

    /// Indices of the cards whose every byte is within the first `delivered` bytes.
    public func cardsDelivered(_ delivered: Int) -> [Int] {
        ends.filter { $0.end <= delivered }.map(\.card)
    }
}
