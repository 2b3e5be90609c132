// Foundation only for `LocalizedError` (see StorageError.swift).
import Foundation

/// (Not `SortOrder`: Foundation has one, and every client importing Foundation would have to
/// spell `Storage.SortOrder`.)
///
/// The registry of named orders a listing can be read in. Each has a name (what a person types),
/// a label (what a person reads in help and errors) and an index behind it, so that listing in
/// that order is an index scan, never a sort of every card.
///
/// Tie breaks, exact and stable (ids only grow, so "id DESC" means "saved later first"):
/// - `newest`: dated cards first (a card is dated when it has published or updated; an undated
///   card's sort date is only its first sighting), then sort date descending, then id descending.
/// - `oldest`: dated cards first too, then sort date ascending, then id ascending.
/// - `source`: source display name (user's name, else feed title, else URL) ascending, compared
///   lower-cased (ASCII only), then source id ascending for equal names; within a source the
///   `newest` order.
/// - `title`: titled cards first, title trimmed and lower-cased (ASCII only) ascending, then the
///   `newest` order.
/// - `relevance`: for search results, best bm25 match first, then the `newest` order. The matches
///   alone are sorted (bm25 is computed per match, no index can hold it), and at most the newest
///   `FeedStore.relevanceWindow` (5,000) of them are ranked. Without a search text there is
///   nothing to rank and `cards(_:order:)` lists in `newest` order.
/// Index scans: every order lists all cards, unread cards, a tag's cards or cards since a date
/// by walking its index. A single source's cards in `oldest` or `title` order are sorted (SQLite
/// prefers the per-source index there), which sorts that source's cards only. Search results in
/// an order walk its index testing each card against the FTS index (a very common word) or
/// against the matches' ids read first (most words), or look the matches up by id and sort
/// only them (a rare word): `OrderedSearchPlan` weighs the three.
public struct CardOrder: Hashable, Sendable, CustomStringConvertible {
    /// The name a person types: `feeds read --sort NAME`.
    public let name: String
    /// What the order means, for people: help text and the unknown-name error.
    public let label: String
    /// A presenter's label, a word or two: a switcher's button ("Newest", "By title"), with
    /// `label` as its longer explanation.
    public let shortLabel: String

    private init(_ name: String, _ shortLabel: String, _ label: String) {
        self.name = name
        self.shortLabel = shortLabel
        self.label = label
    }

    public static let newest = CardOrder("newest", "Newest", "newest first; cards without a date last")
    public static let oldest = CardOrder("oldest", "Oldest", "oldest first; cards without a date last")
    public static let source = CardOrder("source", "By source", "by source name, newest first within each source")
    public static let title = CardOrder("title", "By title", "by title A to Z; untitled cards last")
    public static let relevance = CardOrder("relevance", "Best match", "best search match first (search only)")

    /// Every order, the default first.
    public static let all: [CardOrder] = [.newest, .oldest, .source, .title, .relevance]

    /// The order listings use when none is asked for.
    public static let `default` = CardOrder.newest

    /// The order with this name (case-insensitive); an unknown name throws
    /// `CardOrderError.unknown`, whose message lists the valid names with their labels.
    public static func named(_ name: String) throws -> CardOrder {
        let wanted = name.lowercased()
        guard let order = all.first(where: { $0.name == wanted }) else {
            throw CardOrderError.unknown(name: name)
        }
        return order
    }

    public var description: String { name }

    /// The ORDER BY clause for a listing of `cards c JOIN sources s`. Each matches an index of
    /// migration 2 term for term (since migration 19 parts by state, merged: since migration 20
    /// the index `cards_read_by_date` and the unread cards' two tables, `DatePart`; `oldest`
    /// reads them backwards, one `undated` value at a time, see `FeedStore.dateArms`); change
    /// one, change the other (SortOrderTests and BigListingPlanTests check the plans).
    var orderBy: String {
        keyTerms.map { $0.descending ? $0.expression + " DESC" : $0.expression }.joined(separator: ", ")
    }

    /// The order's key, term by term: what `orderBy` sorts by, and what a window of the listing
    /// compares a card with (`FeedStore.listingPosition`: the cards before one are those whose
    /// key is smaller, term by term).
    var keyTerms: [(expression: String, descending: Bool)] {
        switch name {
        case "oldest": return [("c.undated", false), ("c.sort_date", false), ("c.id", false)]
        case "source": return [("lower(coalesce(s.name, s.feed_title, s.url))", false), ("s.id", false)] + Self.newestTerms
        case "title": return [("c.title_key IS NULL", false), ("c.title_key", false)] + Self.newestTerms
        default: return Self.newestTerms
        }
    }

    private static let newestTerms = [("c.undated", false), ("c.sort_date", true), ("c.id", true)]

    /// The terms of `keyTerms` whose value is 0 or 1, never NULL (a condition's truth), that a
    /// window's ranges compare by equality (`FeedStore.keyRanges`): `undated`, the first column
    /// of the indexes of the cards by date, which `oldest` reads backwards one value at a time. (Not `title_key
    /// IS NULL`: an equality on that expression made SQLite sort the range.)
    static let twoValued: Set<String> = ["c.undated"]

    static let newestOrderBy = "c.undated, c.sort_date DESC, c.id DESC"

    /// Whether a listing in this order walks the cards by date (`DatePart`): `newest`,
    /// `oldest`, and `relevance` without a search text (which lists in `newest` order).
    func walksCardsByDate(searching: Bool) -> Bool {
        self == .newest || self == .oldest || (self == .relevance && !searching)
    }
}

/// A sort order name that is not in `CardOrder.all`: a usage error.
public enum CardOrderError: Error, Equatable, Sendable, LocalizedError, CustomStringConvertible {
    case unknown(name: String)

    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case let .unknown(name):
            let valid = CardOrder.all.map { "  \($0.name): \($0.label)" }.joined(separator: "\n")
            return "unknown sort order \"\(name)\"; valid orders are:\n\(valid)"
        }
    }
}
