/// The row id of a source. A distinct type so a card id can never be passed where a source id
/// is meant.
public struct SourceID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (a: SourceID, b: SourceID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// The row id of a saved card; stable for the card's life (updates happen in place).
public struct CardID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (a: CardID, b: CardID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}
