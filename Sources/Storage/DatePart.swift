/// The cards by date are two indexes parted by the read flag (migration 19): each card is in
/// exactly one, so a new card enters one index ordered by date, not two. A walk over the cards
/// of every read state by date reads both: a compound SELECT of a part each, merged by SQLite
/// on the key without a sort when ordered (`FeedStore.mergedListing`), or its sums and counts
/// added (the stamps). A walk of unread cards alone reads the one part.
struct DatePart: Equatable {
    /// The index's name (for `INDEXED BY`).
    let index: String
    /// The condition on `cards c` that selects the part: the index's own WHERE, written alike
    /// so that SQLite sees the index can answer it.
    let condition: String

    static let read = DatePart(index: "cards_read_by_date", condition: "c.is_read = 1")
    static let unread = DatePart(index: "cards_unread_by_date", condition: "c.is_read = 0")

    /// The parts a walk reads: the unread alone when the filters keep only unread cards
    /// (`c.is_read = 0` among them; the read part would be walked for nothing, and forced by
    /// `INDEXED BY` it would be an error).
    static func parts(unreadOnly: Bool) -> [DatePart] { unreadOnly ? [.unread] : [.read, .unread] }
}
