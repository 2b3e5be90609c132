/// The cards by date are parted by state (migrations 19 and 20), each card in exactly one part,
/// so a new card enters one order by date, not two: the read cards (the index
/// `cards_read_by_date`); the unread ones (the table `unread_by_date`); and the unread ones
/// saved or changed since the last fold (`unread_by_date_new`, small: what an update adds goes
/// there and its end folds it into the other, `FeedStore.settleDateOrder`). The tables are read
/// through views that show them as cards (`unread_cards c`), so a walk's conditions on `c` are
/// the same in every part. A walk over the cards of every state by date reads the three: a
/// compound SELECT of a part each, merged by SQLite on the key without a sort when ordered
/// (`FeedStore.mergedListing`), or its sums and counts added (the stamps). A walk of unread
/// cards alone reads the two unread parts.
struct DatePart: Equatable {
    /// The part's cards as `c`, for a FROM clause.
    let cards: String
    /// The same, the part's index named where SQLite could take another (`INDEXED BY`; a view
    /// cannot be named so, nor needs it).
    let cardsIndexed: String
    /// The condition on `c` that selects the part: for the read part the index's own WHERE,
    /// written alike so that SQLite sees the index can answer it; always true of the others.
    let condition: String

    static let read = DatePart(cards: "cards c", cardsIndexed: "cards c INDEXED BY cards_read_by_date", condition: "c.is_read = 1")
    static let unread = DatePart(cards: "unread_cards c", cardsIndexed: "unread_cards c", condition: "c.is_read = 0")
    static let unreadNew = DatePart(cards: "unread_cards_new c", cardsIndexed: "unread_cards_new c", condition: "c.is_read = 0")

    /// The parts a walk reads: the unread ones alone when the filters keep only unread cards
    /// (`c.is_read = 0` among them; the read part would be walked for nothing, and forced by
    /// `INDEXED BY` it would be an error).
    static func parts(unreadOnly: Bool) -> [DatePart] { unreadOnly ? [.unread, .unreadNew] : [.read, .unread, .unreadNew] }

    /// `from`, a FROM clause that begins with the cards `cards c`, with this part's cards instead.
    func replacingCards(in from: String) -> String {
        precondition(from == "cards c" || from.hasPrefix("cards c "), "DatePart: a walk's FROM begins with the cards: \(from)")
        return cards + from.dropFirst("cards c".count)
    }
}
