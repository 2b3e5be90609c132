import CSQLite

/// A set of card ids that SQL on one connection can test against, as `feeds_card_selected(id)`
/// (1 when the id is in the set). Filtered relevance searches use it: the set holds the cards
/// that pass the filters (read from the filters' indexes alone), and the walk over the full-text
/// matches tests each match against it in memory instead of reading its card row (a word found
/// in most cards, with a filter few of them pass, used to read tens of thousands of rows).
final class CardIDFilter {
    /// The ids in force for the next statement; empty between searches.
    var ids = CardIDSet()

    static let functionName = "feeds_card_selected"

    /// Registers the function on `db`; the connection keeps this object until it closes.
    init(on db: Database) throws {
        let box = Unmanaged.passRetained(self).toOpaque()
        let code = sqlite3_create_function_v2(
            db.handleForExtensions, Self.functionName, 1, SQLITE_UTF8, box,
            { context, _, arguments in
                guard let context, let user = sqlite3_user_data(context), let argument = arguments?[0] else { return }
                // Called for every full-text match a walk visits (287,000 for a common word):
                // the filter is borrowed, neither retained nor released (the connection holds it).
                let found = Unmanaged<CardIDFilter>.fromOpaque(user)._withUnsafeGuaranteedRef {
                    $0.ids.contains(sqlite3_value_int64(argument))
                }
                sqlite3_result_int(context, found ? 1 : 0)
            },
            nil, nil,
            { user in if let user { Unmanaged<CardIDFilter>.fromOpaque(user).release() } })
        // On failure SQLite has already called the destructor, which released the retain.
        try db.check(code, "registering \(Self.functionName)")
    }
}

/// Card ids as a test of membership for `CardIDFilter`, called once per full-text match: a bit
/// per id of their range when that is dense enough (card ids are given in sequence, so it is:
/// 250,000 ids of a million take 125 KB, which stays in the processor's cache, where a
/// `Set<Int64>` of them took 4 MB, hashed, and ~10 ms to build); a `Set` otherwise.
struct CardIDSet {
    private var lowest: Int64 = 0
    private var words: [UInt64] = []
    private var sparse: Set<Int64> = []

    init() {}

    init(_ ids: [Int64]) {
        guard let low = ids.min(), let high = ids.max() else { return }
        // At most 64 bits of range per id (plus a little): else the set costs less memory.
        let (span, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow, span / 64 < Int64(ids.count) + 1024 else {
            sparse = Set(ids)
            return
        }
        lowest = low
        words = Array(repeating: 0, count: Int(span / 64) + 1)
        for id in ids {
            let offset = id &- low
            words[Int(offset >> 6)] |= 1 << UInt64(offset & 63)
        }
    }

    func contains(_ id: Int64) -> Bool {
        guard !words.isEmpty else { return sparse.contains(id) }
        guard id >= lowest else { return false }
        let (offset, overflow) = id.subtractingReportingOverflow(lowest)
        guard !overflow, offset >> 6 < Int64(words.count) else { return false }
        return words[Int(offset >> 6)] & (1 << UInt64(offset & 63)) != 0
    }
}
