import FeedModel

/// A value to bind to a statement parameter: the four SQLite storage classes the store uses.
enum SQLValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Text as the card model holds it: bound from its bytes, with no String made.
    case utf8(UTF8Text)
}

// Conversions so call sites read `.init(card.title)` rather than a switch per optional.
extension SQLValue {
    init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    init(_ value: UTF8Text?) { self = value.map { .utf8($0) } ?? .null }
    init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
    init(_ value: Bool) { self = .integer(value ? 1 : 0) }
    /// Times are stored as INTEGER seconds since 1970 UTC.
    init(_ value: Timestamp?) { self = value.map { .integer($0.secondsSince1970) } ?? .null }
    init(_ value: SourceID) { self = .integer(value.rawValue) }
}
