import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Each source's card and unread counts are kept on its row by triggers (migration 11): after
/// every kind of change they equal the counts of its cards. Generator style: random sequences of
/// operations (saves of new, changed and unchanged cards, read marks of every selection, prune,
/// capCards, removing and re-adding a source, a write rolled back), checked after each step.
final class StoredSourceCountsTests: StoreTestCase {
    private struct TestFailure: Error {}

    /// What the cards say, by source: (cards, unread).
    private func realCounts() throws -> [Int64: [Int]] {
        var counts: [Int64: [Int]] = [:]
        for id in try store.db.prepare("SELECT id FROM sources").query([]) { $0.int64(0) } {
            counts[id] = [0, 0]
        }
        for row in try store.db.prepare("SELECT source_id, count(*), sum(is_read = 0) FROM cards GROUP BY source_id")
            .query([]) { ($0.int64(0), $0.int(1), $0.int(2)) } {
            counts[row.0] = [row.1, row.2]
        }
        return counts
    }

    private func assertCountsTrue(_ step: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let real = try realCounts()
        let listed = try store.sources()
        XCTAssertEqual(listed.count, real.count, step, file: file, line: line)
        for source in listed {
            XCTAssertEqual([source.cardCount, source.unreadCount], real[source.id.rawValue], "\(step): \(source.configuration.url)",
                           file: file, line: line)
            let alone = try XCTUnwrap(try store.source(id: source.id))
            XCTAssertEqual([alone.cardCount, alone.unreadCount], real[source.id.rawValue], step, file: file, line: line)
        }
    }

    func testCountsEqualTheCardsAfterEveryKindOfChange() throws {
        var generator = SplitMix(seed: 21)
        let urls = (0..<4).map { "https://s\($0).example/feed" }
        var sources = try urls.enumerated().map { try addSource($0.element, keepCount: $0.offset == 3 ? 5 : nil) }
        var version: [String: Int] = [:]  // a card's content version: a new one changes the card
        for step in 0..<300 {
            let day = step / 10
            let source = sources[generator.below(sources.count)]
            let operation = generator.below(11)
            let name: String
            switch operation {
            case 0, 1:
                // A fetch: some cards new, some known (changed or not), repeated keys within it.
                let keys = (0..<(1 + generator.below(8))).map { _ in "c\(generator.below(30))" }
                let cards = keys.map { key -> Card in
                    if generator.below(3) == 0 { version[key, default: 0] += 1 }
                    return article(key, title: "\(key) v\(version[key, default: 0])", published: t(generator.below(40)))
                }
                try save(cards, to: source, at: t(day, step))
                name = "save \(keys)"
            case 2:
                let ids = try store.cards().map(\.id).filter { _ in generator.below(3) == 0 }
                let read = generator.below(2) == 0
                try store.setRead(read, .cards(ids))
                name = "mark \(read) \(ids.count) cards"
            case 3:
                let read = generator.below(2) == 0
                try store.setRead(read, .source(source))
                name = "mark \(read) source"
            case 4:
                let read = generator.below(3) != 0
                try store.setRead(read, generator.below(2) == 0 ? .all : .before(t(generator.below(40))))
                name = "mark \(read) all or before"
            case 5:
                try store.setRead(generator.below(2) == 0, .dated(since: t(generator.below(20)), before: t(20 + generator.below(20))))
                name = "mark dated"
            case 6:
                let pruned = try store.prune(now: t(day + 30), defaultKeepDays: generator.below(40),
                                             defaultKeepCount: generator.below(2) == 0 ? nil : generator.below(10))
                name = "prune \(pruned)"
            case 7:
                let capped = try store.capCards(sourceID: source, max: generator.below(12))
                name = "cap \(capped)"
            case 8:
                XCTAssertTrue(try store.removeSource(source))
                let index = sources.firstIndex(of: source)!
                sources[index] = try addSource(urls[index] + "?again=\(step)")
                name = "remove and add again"
            case 9:
                // Cards saved and marked inside a transaction that fails: nothing of it stays.
                XCTAssertThrowsError(try store.db.writeTransaction {
                    let writer = try CardWriter(store.db, prepare: store.db.prepare)
                    _ = try writer.save(article("gone\(step)"), key: CardKey(rawValue: "gone\(step)"), sourceID: source, now: t(day))
                    try store.db.execute("UPDATE cards SET is_read = 1 - is_read")
                    try store.db.execute("DELETE FROM cards WHERE id % 3 = 0")
                    throw TestFailure()
                })
                name = "rolled back"
            default:
                try save([], to: source, at: t(day, step))
                name = "empty save"
            }
            try assertCountsTrue("step \(step): \(name)")
        }
        XCTAssertGreaterThan(try store.cardCount(CardQuery()), 0, "the sequence leaves cards to count")
    }

    /// Migration 11 takes the counts of a database written before it.
    func testMigrationCountsTheCardsAlreadySaved() throws {
        store = nil
        let path = try olderDatabase(migrations: 10, """
            INSERT INTO sources (id, url, kind, created_at) VALUES (1, 'a', 'feed', 0), (2, 'b', 'feed', 0), (3, 'c', 'feed', 0);
            INSERT INTO cards (source_id, card_key, kind, content_hash, first_seen_at, changed_at, last_seen_at, sort_date, is_read)
            SELECT 1 + value % 2, 'k' || value, 'article', 'h', 0, 0, 0, value, value % 3 = 0 FROM (WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 25) SELECT value FROM n);
            """)
        store = try FeedStore(path: path)
        XCTAssertEqual(try store.sources().map { [$0.cardCount, $0.unreadCount] }, [[12, 8], [13, 9], [0, 0]])
        try assertCountsTrue("after migration")
    }

    /// The listing of the sources reads their rows only, never a card or an index of cards.
    func testListingReadsNoCard() throws {
        let plan = try store.db.prepare("EXPLAIN QUERY PLAN " + SourceReader.sql(where: "1", counts: .stored))
            .query([]) { $0.string(3) ?? "" }.joined(separator: "\n")
        XCTAssertFalse(plan.contains("cards"), plan)
    }
}

/// A small deterministic generator (SplitMix64), so a failing sequence can be replayed.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
