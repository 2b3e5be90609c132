@testable import Storage
import FeedModel
import TestSupport
import XCTest

/// Issue 21: `resolvingTag` tests stored tags of ASCII on their bytes (`TagList.Key`); its
/// answer, when it gives one, is `TagMatch.matches` of the decoded tags, for generated tags
/// and lists (cases, blanks, CR LF, non-ASCII words, U+037E, which is ";" as a String), and the
/// sources a tag resolves to are the ones the decoded tags give.
final class TagKeyTests: StoreTestCase {
    static let pieces = ["tech", "Tech", "TECH", "a", "A", "Z-9", "z-9", ";", "\u{37E}", "k", "\u{212A}", " ", "  ", "\t",
                         "\r\n", "é", "É", "e\u{301}", "日本", "x"]

    func testTheBytesAnswerAsTheDecodedTagsDo() {
        var random = SplitMix64(seed: 2104)
        var answered = 0
        for _ in 0..<20_000 {
            let stored = (0..<Int.random(in: 0...6, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let wanted = (0..<Int.random(in: 1...2, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let expected = TagMatch.matches(TagList.decode(stored), wanted)
            let found = Array(stored.utf8).withUnsafeBufferPointer { TagList.Key(wanted).matches(ascii: $0) }
            if let found {
                answered += 1
                XCTAssertEqual(found, expected, "\(stored.debugDescription) \(wanted.debugDescription)")
            }
        }
        XCTAssertGreaterThan(answered, 5_000, "the bytes answer for ASCII tags")
        XCTAssertEqual(Array("news Tech".utf8).withUnsafeBufferPointer { TagList.Key("TECH").matches(ascii: $0) }, true)
        XCTAssertNil(Array("a ;".utf8).withUnsafeBufferPointer { TagList.Key("\u{37E}").matches(ascii: $0) })
        XCTAssertNil(Array("caf\u{E9}".utf8).withUnsafeBufferPointer { TagList.Key("cafe").matches(ascii: $0) })
    }

    func testATagResolvesToTheSourcesItsDecodedTagsName() throws {
        var random = SplitMix64(seed: 2105)
        var tagsOf: [SourceID: [String]] = [:]
        for i in 0..<60 {
            let tags = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                Self.pieces.randomElement(using: &random)!.trimmingCharacters(in: .whitespacesAndNewlines)
            }.filter { !$0.isEmpty }
            tagsOf[try addSource("https://t\(i).example/feed", tags: tags)] = tags
        }
        for wanted in ["tech", "TECH", "a", "z-9", ";", "\u{37E}", "k", "\u{212A}", "é", "e\u{301}", "日本", "none"] {
            let stored = try store.db.prepare("SELECT id, tags FROM sources").query {
                (SourceID(rawValue: $0.int64(0)), TagList.decode($0.string(1) ?? ""))
            }
            let expected = stored.filter { TagMatch.matches($0.1, wanted) }.map(\.0)
            XCTAssertEqual(try store.resolvingTag(CardQuery(tag: wanted)).taggedSources, expected, wanted.debugDescription)
        }
        XCTAssertFalse(tagsOf.isEmpty)
    }
}
