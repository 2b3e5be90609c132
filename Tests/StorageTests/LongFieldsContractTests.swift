import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Fields of any length from a feed are saved on both backends. A PostgreSQL B-tree entry
/// holds at most 2,704 bytes, and one item with a 3,000-byte title (or guid, or link, or a feed
/// title that long) failed its whole source's save there. Both stores now keep titles to
/// `StoredBounds.titleBytes` and hash longer identity keys (`StoredBounds`), so every size saves,
/// a long guid is the same card on the next fetch, and both list the same cards in every order.
final class LongFieldsContractTests: TwoBackendsTestCase {
    private var stores: [any UpdateStore & CardReadingStore] { [sqlite, postgres] }

    /// Text of `bytes` bytes in one of several alphabets (ASCII, two-, three- and four-byte
    /// characters, combining marks), so a cut can fall inside a character; random, because
    /// PostgreSQL compresses a long index entry, and a repeated letter would fit.
    private static func text(_ bytes: Int, _ kind: Int) -> String {
        let alphabet: [String] = [["a", "q", "Z", "7", " "], ["é", "ß", "ø", "Ж"], ["語", "文", "字", "€"],
                                  ["𝄞", "😀", "𐍈"], ["e\u{301}", "a\u{308}", "o"], ["Ab ", "x-", "Q"]][kind % 6]
        var random = SplitMix64(seed: UInt64(bytes * 7 + kind))
        var s = ""
        var count = 0
        while count < bytes {
            let unit = alphabet.randomElement(using: &random)!
            s += unit
            count += unit.utf8.count
        }
        return s
    }

    private static let sizes = [0, 1, 999, 1_000, 1_001, 2_703, 2_704, 2_705, 3_000, 10_000, 100_000]

    /// Cards with each hostile length in each field, and a feed title that long.
    private static func fetch(_ round: Int) -> (feed: FeedInfo, cards: [Card]) {
        var cards: [Card] = []
        for (i, size) in sizes.enumerated() {
            for kind in 0..<6 {
                let long = text(size, kind + i)
                cards.append(Card(id: size > 0 ? long + "\(kind)" : nil, title: long,
                                  description: "<p>\(round) \(long.prefix(50))</p>", link: "https://l.example/\(kind)/" + long,
                                  image: "https://l.example/i/" + long, author: long,
                                  enclosures: [Enclosure(url: "https://l.example/e/\(kind)/" + long, type: "audio/\u{0}mpeg", length: 1)]))
            }
        }
        return (FeedInfo(title: text(3_000 + round, round)), cards)
    }

    func testEveryLengthInEveryFieldIsSavedTheSameOnBothAndStaysOneCard() throws {
        for store in stores {
            let id = try store.upsertSource(SourceConfiguration(url: "https://l.example/feed.xml"), now: t(0))
            for round in 0..<2 {
                let (feed, cards) = Self.fetch(round)
                XCTAssertNoThrow(try store.saveFetch(sourceID: id, feed: feed, cards: cards, validators: CacheValidators(),
                                                     now: t(round + 1), nextDue: nil), "\(type(of: store)) round \(round)")
            }
            // The second fetch is the same items again (their descriptions changed): no new card.
            XCTAssertEqual(try store.cardCount(CardQuery()), Self.sizes.count * 6, "\(type(of: store))")
            let stored = try store.cards(CardQuery(), order: .title)
            XCTAssertTrue(stored.allSatisfy { ($0.card.title ?? "").utf8.count <= StoredBounds.titleBytes }, "\(type(of: store))")
            XCTAssertTrue(stored.allSatisfy { $0.card.description?.hasPrefix("<p>1 ") == true }, "the second fetch's text")
            XCTAssertTrue(stored.allSatisfy { $0.card.enclosures.first?.type == "audio/\u{FFFD}mpeg" }, "\(type(of: store))")
            let source = try XCTUnwrap(try store.sources().first)
            XCTAssertLessThanOrEqual(source.feed.title?.utf8.count ?? 0, StoredBounds.titleBytes)
            XCTAssertEqual(source.feed.title?.hasSuffix("…"), true)
        }
        for order in CardOrder.all where order != .relevance {
            let listings = try stores.map { store in
                try store.cards(CardQuery(), order: order).map { "\($0.key.rawValue)|\($0.card)|\($0.sourceName)" }
            }
            XCTAssertEqual(listings[0], listings[1], "order \(order)")
        }
    }

    func testTheBoundsCutAtACharacterAndKeepShortValuesAsTheyAre() {
        XCTAssertEqual(StoredBounds.title("short"), "short")
        XCTAssertNil(StoredBounds.title(nil))
        for kind in 0..<6 {
            for size in Self.sizes {
                let original = Self.text(size, kind)
                let bounded = StoredBounds.title(original)!
                XCTAssertLessThanOrEqual(bounded.utf8.count, StoredBounds.titleBytes)
                if original.utf8.count <= StoredBounds.titleBytes {
                    XCTAssertEqual(bounded, original)
                } else {
                    XCTAssertTrue(bounded.hasSuffix("…"))
                    XCTAssertTrue(original.hasPrefix(String(bounded.dropLast())), "cut at a whole character")
                }
            }
        }
        let key = CardKey(rawValue: "id:" + Self.text(5_000, 2))
        XCTAssertEqual(StoredBounds.key(key), StoredBounds.key(key), "stable")
        XCTAssertNotEqual(StoredBounds.key(key), StoredBounds.key(CardKey(rawValue: key.rawValue + "x")))
        XCTAssertLessThanOrEqual(StoredBounds.key(key).rawValue.utf8.count, StoredBounds.keyBytes)
        XCTAssertEqual(StoredBounds.key(CardKey(rawValue: "id:1")), CardKey(rawValue: "id:1"))
    }
}
