import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Retention on PostgreSQL forgets exactly the cards SQLite forgets: the same generated
/// sources (every kind of keep_days and keep_count), fetches (cards leaving the feed, dated,
/// undated, tied) and read marks in both, then each prune and each cap compared: how many went
/// and the cards left, card for card.
final class CardRetentionContractTests: TwoBackendsTestCase {
    private var stores: [any UpdateStore & CardReadingStore & CardRetentionStore & CardSearchStore] { [sqlite, postgres] }

    private static let keeps: [(days: Int?, count: Int?)] = [(nil, nil), (10, nil), (nil, 3), (5, 4), (0, 0), (40, 1)]

    private func fill(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let configurations = Self.keeps.enumerated().map { index, keep in
            SourceConfiguration(url: "https://s\(index).example/feed.xml", keepDays: keep.days, keepCount: keep.count)
        }
        var fetches: [(source: Int, cards: [Card], now: Timestamp)] = []
        for round in 0..<5 {
            for source in configurations.indices {
                // A window of keys moving on: earlier cards leave the feed.
                let first = round * 3 + Int.random(in: 0...2, using: &random)
                let cards = (first..<(first + Int.random(in: 1...6, using: &random))).map { n -> Card in
                    let date = Int.random(in: 0...4, using: &random) > 0 ? t(Int.random(in: 0...(round * 10 + 1), using: &random)) : nil
                    return Card(id: "k\(n)", title: "card \(n) walrus", published: date)
                }
                fetches.append((source, cards, t(round * 10, source)))
            }
        }
        let readPlaces = Set((0..<200).filter { _ in Int.random(in: 0...2, using: &random) > 0 })
        for store in stores {
            let ids = try store.upsertSources(configurations, now: t(0))
            for fetch in fetches {
                try store.saveFetch(sourceID: ids[fetch.source], feed: FeedInfo(), cards: fetch.cards,
                                    validators: CacheValidators(), now: fetch.now, nextDue: nil)
            }
            let listed = try store.cards(CardQuery(), order: .oldest)
            _ = try store.setRead(true, .cards(listed.enumerated().filter { readPlaces.contains($0.offset) }.map(\.element.id)))
        }
    }

    private func left(_ store: any CardReadingStore) throws -> [String] {
        try store.cards(CardQuery(), order: .oldest).map { "\($0.sourceName)|\($0.key.rawValue)|\($0.isRead)|\($0.sortDate)" }
    }

    private func source(_ store: any UpdateStore, _ index: Int) throws -> SourceID {
        try XCTUnwrap(try store.source(url: "https://s\(index).example/feed.xml")?.id)
    }

    func testPruneForgetsTheSameCardsOnBothBackends() throws {
        for seed: UInt64 in [1, 2, 3] {
            if seed > 1 { try setUpWithError() }
            try fill(seed: seed)
            let before = try left(sqlite)
            XCTAssertEqual(try left(postgres), before, "seed \(seed): the fill")
            var forgotten = 0
            for (now, days, count) in [(t(45), 30, nil), (t(45), nil, 5), (t(60), 7, 2), (t(60), nil, nil), (t(900), 1, 0)] as [(Timestamp, Int?, Int?)] {
                let went = try stores.map { try $0.prune(now: now, defaultKeepDays: days, defaultKeepCount: count) }
                XCTAssertEqual(went[0], went[1], "seed \(seed) prune \(now) \(String(describing: days)) \(String(describing: count))")
                XCTAssertEqual(try left(postgres), try left(sqlite), "seed \(seed) after prune \(now)")
                forgotten += went[0]
            }
            XCTAssertGreaterThan(forgotten, 5, "seed \(seed): the prunes forgot too little to compare")
            XCTAssertLessThan(try left(sqlite).count, before.count)
            // What went is no longer found by a search either.
            XCTAssertEqual(try postgres.searchCount("walrus", query: CardQuery()), try left(postgres).count)
        }
    }

    func testCapForgetsTheSameCardsOnBothBackends() throws {
        try fill(seed: 4)
        var forgotten = 0
        for max in [6, 3, 0] {
            for index in Self.keeps.indices {
                let went = try stores.map { try $0.capCards(sourceID: try source($0, index), max: max) }
                XCTAssertEqual(went[0].read, went[1].read, "source \(index) max \(max)")
                XCTAssertEqual(went[0].unread, went[1].unread, "source \(index) max \(max)")
                XCTAssertEqual(try left(postgres), try left(sqlite), "after capping source \(index) at \(max)")
                forgotten += went[0].read + went[0].unread
            }
        }
        XCTAssertGreaterThan(forgotten, 10)
        let missing = try stores.map { try $0.capCards(sourceID: SourceID(rawValue: 999_999), max: 0) }
        XCTAssertTrue(missing.allSatisfy { $0 == (0, 0) })
    }
}
