// The unread cards by date in two tables (migration 20, `DatePart`): `unread_by_date`, folded,
// and `unread_by_date_new`, where a trigger puts each new or changed unread card. A batch of an
// update's new cards entering the big table would rewrite the hundreds of leaves of the last
// days' region at every commit; the small table's are few, and the fold at the update's end
// writes each leaf of the big one once.
extension FeedStore {
    /// The end of an update's saves for the orders by date: the new table's entries moved into
    /// `unread_by_date`, in its key's order, when there are `minimum` or more of them (at least
    /// one), in one transaction. Fewer: nothing written, no write lock taken. Listings are the
    /// same before and after.
    public func settleDateOrder(foldingAtLeast minimum: Int = 1) throws {
        let wanted = max(1, minimum)
        let waiting = try db.rowCount(of: "unread_by_date_new", upTo: wanted)
        guard waiting >= wanted else { return }
        let columns = "undated, sort_date, id, changed_at, source_id"
        try db.writeTransaction {
            try db.execute("""
                INSERT OR FAIL INTO unread_by_date (\(columns))
                SELECT \(columns) FROM unread_by_date_new ORDER BY undated, sort_date DESC, id DESC;
                DELETE FROM unread_by_date_new;
                """)
        }
    }
}
