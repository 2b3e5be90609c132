import CSQLite

/// A set of card ids that SQL on one connection can test against, as `feeds_card_selected(id)`
/// (1 when the id is in the set). Filtered relevance searches use it: the set holds the cards
/// that pass the filters (read from the filters' indexes alone), and the walk over the full-text
/// matches tests each match against it in memory instead of reading its card row (a word found
/// in most cards, with a filter few of them pass, used to read tens of thousands of rows).
final class CardIDFilter {
    /// The ids in force for the next statement; empty between searches.
    var ids: Set<Int64> = []

    static let functionName = "feeds_card_selected"

    /// Registers the function on `db`; the connection keeps this object until it closes.
    init(on db: Database) throws {
        let box = Unmanaged.passRetained(self).toOpaque()
        let code = sqlite3_create_function_v2(
            db.handleForExtensions, Self.functionName, 1, SQLITE_UTF8, box,
            { context, _, arguments in
                guard let context, let user = sqlite3_user_data(context), let argument = arguments?[0] else { return }
                let filter = Unmanaged<CardIDFilter>.fromOpaque(user).takeUnretainedValue()
                sqlite3_result_int(context, filter.ids.contains(sqlite3_value_int64(argument)) ? 1 : 0)
            },
            nil, nil,
            { user in if let user { Unmanaged<CardIDFilter>.fromOpaque(user).release() } })
        // On failure SQLite has already called the destructor, which released the retain.
        try db.check(code, "registering \(Self.functionName)")
    }
}
