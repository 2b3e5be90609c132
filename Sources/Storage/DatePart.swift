/// The cards by date are parted by state (migrations 19 and 20), each card in exactly one part,
/// so a new card enters one order by date, not two: the read cards (the index
/// `cards_read_by_date`); the unread ones (the table `unread_by_date`); and the unread ones
/// saved or changed since the last fold (`unread_by_date_new`, small: what an update adds goes
/// there and its end folds it into the other, `FeedStore.settleDateOrder`). A walk reads a
/// table as `c` where it reads the entries' columns alone (`keys`), else the view that shows it
/// as cards (`unread_cards c`), so a walk's conditions on `c` are the same in every part. A
/// walk over the cards of every state by date reads the three: a compound SELECT of a part
/// each, merged by SQLite on the key without a sort when ordered (`FeedStore.mergedListing`),
/// or its sums and counts added (the stamps). A walk of unread cards alone reads the two
/// unread parts.
struct DatePart: Equatable {
    /// The part's cards as `c`, for a FROM clause.
    let cards: String
    /// The part's entries as `c`, for a walk that reads (and tests) only their columns: the key
    /// (`undated`, `sort_date`, `id`), `changed_at`, `source_id`, `is_read`. Counts above all:
    /// in an aggregate SQLite keeps a view's join, reading every card's row.
    let keys: String
    /// The part's index, for `INDEXED BY` where SQLite could take another (`indexed`); nil for
    /// a table, which is walked by its own key.
    let index: String?
    /// The condition on `c` that selects the part: for the read part the index's own WHERE,
    /// written alike so that SQLite sees the index can answer it; always true of the others.
    let condition: String

    static let read = DatePart(cards: "cards c", keys: "cards c", index: "cards_read_by_date", condition: "c.is_read = 1")
    static let unread = DatePart(cards: "unread_cards c", keys: "unread_by_date c", index: nil, condition: "c.is_read = 0")
    static let unreadNew = DatePart(cards: "unread_cards_new c", keys: "unread_by_date_new c", index: nil, condition: "c.is_read = 0")

    /// The parts a walk reads: the unread ones alone when the filters keep only unread cards
    /// (`c.is_read = 0` among them; the read part would be walked for nothing, and forced by
    /// `INDEXED BY` it would be an error).
    static func parts(unreadOnly: Bool) -> [DatePart] { unreadOnly ? [.unread, .unreadNew] : [.read, .unread, .unreadNew] }

    /// `cards` or `keys` with the part's index named, if it has one.
    func indexed(_ from: String) -> String { index.map { "\(from) INDEXED BY \($0)" } ?? from }

    /// `from`, a FROM clause that begins with the cards `cards c`, with this part's cards instead.
    func replacingCards(in from: String) -> String {
        precondition(from == "cards c" || from.hasPrefix("cards c "), "DatePart: a walk's FROM begins with the cards: \(from)")
        return cards + from.dropFirst("cards c".count)
    }
}
