import CSQLite

/// A set of card ids that SQL on one connection can test against, as `feeds_card_selected(id)`
/// (1 when the id is in the set). Filtered relevance searches use it: the set holds the cards
/// that pass the filters (read from the filters' indexes alone), and the walk over the full-text
/// matches tests each match against it in memory instead of reading its card row (a word found
/// in most cards, with a filter few of them pass, used to read tens of thousands of rows).
/// `feeds_card_collect(id)`, an aggregate, keeps each id it is given (see `collect`).
final class CardIDFilter {
    /// The ids in force for the next statement; empty between searches.
    var ids = CardIDSet() {
        didSet { probe.pointee = ids.probe }
    }

    /// The older ids of a set read newest first (`select(_:olderBelow:readOlder:)`): not read
    /// until a walk asks about an id below `olderBelow`, then all at once by `readOlder`. A
    /// plain bound (`Int64.min` when there is nothing to read): it is tested on every match.
    @exclusivity(unchecked) private var olderBelow = Int64.min
    private var readOlder: (() throws -> [Int64])?
    /// The ids in force while older ones may still be read (the set is made again with them).
    private var newer: [Int64] = []
    /// Why reading the older ids failed, for the caller of the statement that asked (which
    /// fails with a plain SQL error): cleared by `select`.
    private(set) var failure: Error?
    /// How many times older ids were read (what the tests look at).
    private(set) var olderReads = 0

    /// `ids`' bitmap as plain fields, what the SQL function reads per call: the test is called
    /// for every full-text match a walk visits (240,000 for a common word and a small tag), and
    /// reading `ids` there copied the set, retaining and releasing its storage each time (a
    /// third of the walk's cost). Valid while `ids` holds the bitmap.
    private let probe: UnsafeMutablePointer<CardIDSet.Probe>

    /// The ids `feeds_card_collect` was given since `collect` began. Unchecked: appended to
    /// once per id read (100,000 for a tag of a tenth of a million cards), only by the
    /// statement `collect` runs, where the check of exclusive access was a fifth of the cost.
    @exclusivity(unchecked) private var collected: [Int64] = []

    static let functionName = "feeds_card_selected"
    static let collectName = "feeds_card_collect"

    /// Registers the functions on `db`; the connection keeps this object until it closes.
    init(on db: Database) throws {
        probe = .allocate(capacity: 1)
        probe.initialize(to: CardIDSet.Probe())
        // Each function holds a retain, released by its destructor (on failure SQLite has
        // already called it).
        let selected = Unmanaged.passRetained(self).toOpaque()
        try db.check(sqlite3_create_function_v2(
            db.handleForExtensions, Self.functionName, 1, SQLITE_UTF8, selected,
            { context, _, arguments in
                guard let context, let user = sqlite3_user_data(context), let argument = arguments?[0] else { return }
                // Borrowed, neither retained nor released (the connection holds it).
                let found = Unmanaged<CardIDFilter>.fromOpaque(user)._withUnsafeGuaranteedRef {
                    $0.contains(sqlite3_value_int64(argument))
                }
                guard let found else { return sqlite3_result_error(context, "the cards to search could not be read", -1) }
                sqlite3_result_int(context, found ? 1 : 0)
            },
            nil, nil,
            { user in if let user { Unmanaged<CardIDFilter>.fromOpaque(user).release() } }),
            "registering \(Self.functionName)")
        let collecting = Unmanaged.passRetained(self).toOpaque()
        try db.check(sqlite3_create_function_v2(
            db.handleForExtensions, Self.collectName, 1, SQLITE_UTF8, collecting, nil,
            { context, _, arguments in
                guard let context, let user = sqlite3_user_data(context), let argument = arguments?[0] else { return }
                Unmanaged<CardIDFilter>.fromOpaque(user)._withUnsafeGuaranteedRef {
                    $0.collected.append(sqlite3_value_int64(argument))
                }
            },
            { context in sqlite3_result_int(context, 1) },
            { user in if let user { Unmanaged<CardIDFilter>.fromOpaque(user).release() } }),
            "registering \(Self.collectName)")
    }

    deinit { probe.deallocate() }

    /// The ids `feeds_card_collect` is given while `body` runs (a statement that aggregates
    /// the ids it reads with it), in the order given. An aggregate's step a row, where
    /// returning each id as a row cost SQLite's step and the row's mapping: the 102,000 ids of
    /// a tag's cards took 107 M instructions read as rows, 62 M aggregated (callgrind).
    func collect(_ body: () throws -> Void) rethrows -> [Int64] {
        collected = []
        defer { collected = [] }
        try body()
        return collected
    }

    /// Puts `ids` in force, and with `olderBelow`, the ids below it that `readOlder` reads
    /// (a statement on the same connection, run from inside the walk that asks: SQLite lets a
    /// function run other statements, short of closing the connection or resetting its own).
    /// A relevance search over unread cards reads them newest first this way: its window of
    /// newest matches usually ends long before the oldest unread card (`FeedStore.Preselection`).
    func select(_ ids: [Int64], olderBelow: Int64? = nil, readOlder: (() throws -> [Int64])? = nil) {
        self.ids = CardIDSet(ids)
        failure = nil
        if let olderBelow, let readOlder {
            (self.olderBelow, self.readOlder, newer) = (olderBelow, readOlder, ids)
        } else {
            (self.olderBelow, self.readOlder, newer) = (.min, nil, [])
        }
    }

    /// Whether `id` is selected; nil when the older ids it needed could not be read (`failure`).
    @inline(__always)
    private func contains(_ id: Int64) -> Bool? {
        if id < olderBelow { return readingOlder(for: id) }
        return probe.pointee.contains(id) ?? ids.contains(id)
    }

    private func readingOlder(for id: Int64) -> Bool? {
        let read = readOlder
        (olderBelow, readOlder) = (.min, nil)
        olderReads += 1
        do {
            newer += try read?() ?? []
        } catch {
            failure = error
            return nil
        }
        ids = CardIDSet(newer)
        newer = []
        return ids.contains(id)
    }
}

/// Card ids as a test of membership for `CardIDFilter`, called once per full-text match: a bit
/// per id of their range when that is dense enough (card ids are given in sequence, so it is:
/// 250,000 ids of a million take 125 KB, which stays in the processor's cache, where a
/// `Set<Int64>` of them took 4 MB, hashed, and ~10 ms to build); a `Set` otherwise.
struct CardIDSet {
    /// The bitmap's words, owned (`Probe` points into them).
    private final class Words {
        let buffer: UnsafeMutableBufferPointer<UInt64>
        init(count: Int) {
            buffer = .allocate(capacity: count)
            buffer.initialize(repeating: 0)
        }
        deinit { buffer.deallocate() }
    }

    /// The bitmap's fields for a test that holds no reference: `words` nil for a set that is
    /// no bitmap (empty or sparse).
    struct Probe {
        var lowest: Int64 = 0
        var words: UnsafePointer<UInt64>?
        var count = 0

        /// Whether the bitmap holds `id`; nil when there is no bitmap (ask the set).
        @inline(__always)
        func contains(_ id: Int64) -> Bool? {
            guard let words else { return nil }
            let (offset, overflow) = id.subtractingReportingOverflow(lowest)
            guard !overflow, offset >= 0, offset >> 6 < Int64(count) else { return false }
            return words[Int(offset >> 6)] & (1 << UInt64(offset & 63)) != 0
        }
    }

    private var lowest: Int64 = 0
    private var words: Words?
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
        let words = Words(count: Int(span / 64) + 1)
        for id in ids {
            let offset = id &- low
            words.buffer[Int(offset >> 6)] |= 1 << UInt64(offset & 63)
        }
        self.words = words
    }

    var probe: Probe {
        guard let words else { return Probe() }
        return Probe(lowest: lowest, words: UnsafePointer(words.buffer.baseAddress), count: words.buffer.count)
    }

    func contains(_ id: Int64) -> Bool {
        withExtendedLifetime(words) { probe.contains(id) ?? sparse.contains(id) }
    }
}
