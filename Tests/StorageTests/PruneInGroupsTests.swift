import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Retention prunes a group of sources at a time, each in a transaction of its own (issue 21:
/// one statement over a million cards held an 866 MB statement journal in memory). A card's
/// rank is within its source, so any grouping forgets the same cards: every source its own
/// group, groups of a few sources, and one group of all, over the same generated cards.
final class PruneInGroupsTests: XCTestCase {
    private func time(_ seconds: Int) -> Timestamp { Timestamp(secondsSince1970: 1_800_000_000 + Int64(seconds) * 86_400) }

    private func filled(seed: UInt64) throws -> (FeedStore, TemporaryDirectory) {
        let home = TemporaryDirectory()
        let store = try FeedStore(path: home.path + "/feeds.db")
        var random = SplitMix64(seed: seed)
        let keeps: [(Int?, Int?)] = [(nil, nil), (10, nil), (nil, 3), (5, 4), (0, 0), (40, 1), (2, nil), (nil, 8)]
        let configurations = (0..<24).map { index in
            SourceConfiguration(url: "https://s\(index).example/feed.xml", keepDays: keeps[index % keeps.count].0,
                                keepCount: keeps[index % keeps.count].1)
        }
        let ids = try store.upsertSources(configurations, now: time(0))
        for round in 0..<6 {
            for (index, id) in ids.enumerated() {
                let first = round * 4 + Int.random(in: 0...3, using: &random)
                let cards = (first..<(first + Int.random(in: 1...9, using: &random))).map { n -> Card in
                    let date = Int.random(in: 0...5, using: &random) > 0 ? time(Int.random(in: 0...(round * 10 + 1), using: &random)) : nil
                    return Card(id: "k\(n)", title: "card \(n) of \(index)", published: date)
                }
                try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: cards, validators: CacheValidators(),
                                    now: time(round * 10 + index % 3), nextDue: nil)
            }
        }
        let listed = try store.cards(CardQuery(), order: .oldest)
        _ = try store.setRead(true, .cards(listed.filter { _ in Int.random(in: 0...3, using: &random) > 0 }.map(\.id)))
        return (store, home)
    }

    private func left(_ store: FeedStore) throws -> [String] {
        try store.cards(CardQuery(), order: .oldest).map { "\($0.sourceName)|\($0.key.rawValue)|\($0.isRead)|\($0.sortDate)" }
    }

    func testEveryGroupingForgetsTheSameCards() throws {
        for seed: UInt64 in [7, 8, 9] {
            let filled = try [1, 12, Int.max].map { groupCards in (groupCards, try self.filled(seed: seed)) }
            XCTAssertEqual(Set(try filled.map { try left($0.1.0) }).count, 1, "seed \(seed): the same fill")
            var forgotten = 0
            for (now, days, count) in [(time(45), 30, nil), (time(45), nil, 5), (time(60), 7, 2), (time(60), nil, nil), (time(900), 1, 0)] as [(Timestamp, Int?, Int?)] {
                let went = try filled.map { try $0.1.0.prune(now: now, defaultKeepDays: days, defaultKeepCount: count, groupCards: $0.0) }
                XCTAssertEqual(Set(went).count, 1, "seed \(seed): \(went)")
                XCTAssertEqual(Set(try filled.map { try left($0.1.0) }).count, 1, "seed \(seed) after the prune at \(now)")
                forgotten += went[0]
            }
            XCTAssertGreaterThan(forgotten, 20, "seed \(seed): too little forgotten to compare")
            // The counts the triggers keep follow the grouped deletes (the edited ones below aside).
            for (_, (store, _)) in filled {
                let counted = try store.sources().reduce(0) { $0 + $1.cardCount }
                XCTAssertEqual(counted, try left(store).count)
            }
        }
    }

    /// The groups are made from the sources' counts, which a hand edit or an older version may
    /// have left anywhere up to 2^63-1: summed without trapping, and the cards decided alike.
    func testHugeStoredCountsNeitherTrapNorChangeWhatGoes() throws {
        let (edited, keepA) = try filled(seed: 11)
        let (plain, keepB) = try filled(seed: 11)
        try edited.db.execute("UPDATE sources SET card_count = 9223372036854775807 WHERE id % 3 = 0")
        for (now, days, count) in [(time(45), 30, nil), (time(60), 7, 2), (time(900), 1, 0)] as [(Timestamp, Int?, Int?)] {
            let went = try [edited, plain].map { try $0.prune(now: now, defaultKeepDays: days, defaultKeepCount: count, groupCards: 40) }
            XCTAssertEqual(went[0], went[1])
            XCTAssertEqual(try left(edited), try left(plain))
        }
        withExtendedLifetime((keepA, keepB)) {}
    }
}
