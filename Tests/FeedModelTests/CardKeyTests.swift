import XCTest
import FeedModel

final class CardKeyTests: XCTestCase {
    // MARK: - order of preference

    func testIdWinsOverLinkAndText() {
        let card = Card(id: "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a", title: "T", description: "D",
                        link: "http://example.com/a")
        XCTAssertEqual(card.key.rawValue, "id:urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a")
        XCTAssertEqual(card.key, CardKey(for: card))
        XCTAssertEqual(card.key.description, card.key.rawValue)
    }

    func testIdIsUsedVerbatim() {
        // No normalization of ids: they are the source's own identifier.
        XCTAssertEqual(Card(id: "HTTP://Example.COM/Post#1").key.rawValue, "id:HTTP://Example.COM/Post#1")
        XCTAssertNotEqual(Card(id: "abc").key, Card(id: "ABC").key)
    }

    func testEmptyIdFallsBackToLink() {
        let card = Card(id: "", link: "http://example.com/a")
        XCTAssertEqual(card.key.rawValue, "link:http://example.com/a")
    }

    func testLinkIsNormalized() {
        let card = Card(title: "T", link: "HTTP://Example.COM:80/Some/Path?x=1#comments")
        XCTAssertEqual(card.key.rawValue, "link:http://example.com/Some/Path?x=1")
        XCTAssertEqual(Card(link: "https://Example.com").key.rawValue, "link:https://example.com/")
        XCTAssertEqual(Card(link: "mailto:editor@example.org").key.rawValue, "link:mailto:editor@example.org")
    }

    func testEquivalentLinksGiveEqualKeys() {
        let a = Card(title: "first fetch", link: "http://example.com/post#top")
        let b = Card(title: "edited title", link: " HTTP://EXAMPLE.com:80/post ")
        XCTAssertEqual(a.key, b.key)
        XCTAssertNotEqual(Card(link: "http://example.com/post").key, Card(link: "https://example.com/post").key)
    }

    func testPrefixesKeepKindsApart() {
        // A card whose id looks like a link is not the same card as one with that link.
        let byId = Card(id: "http://example.com/a")
        let byLink = Card(link: "http://example.com/a")
        XCTAssertNotEqual(byId.key, byLink.key)
        XCTAssertTrue(byId.key.rawValue.hasPrefix("id:"))
        XCTAssertTrue(byLink.key.rawValue.hasPrefix("link:"))
    }

    // MARK: - fallback hash

    func testFNV1a64KnownVectors() {
        // Published FNV-1a 64-bit test vectors.
        XCTAssertEqual(StableHash.fnv1a64(""), 0xcbf2_9ce4_8422_2325)
        XCTAssertEqual(StableHash.fnv1a64("a"), 0xaf63_dc4c_8601_ec8c)
        XCTAssertEqual(StableHash.fnv1a64("foobar"), 0x8594_4171_f739_67e8)
        XCTAssertEqual(StableHash.fnv1a64Hex("foobar"), "85944171f73967e8")
    }

    func testFNV1a64HexIsSixteenLowerCaseDigitsWithLeadingZeros() {
        // "t39200" hashes to a value below 0x0100_0000_0000_0000.
        XCTAssertEqual(StableHash.fnv1a64("t39200"), 0x003d_ae4f_81f4_f413)
        XCTAssertEqual(StableHash.fnv1a64Hex("t39200"), "003dae4f81f4f413")
        XCTAssertEqual(StableHash.fnv1a64Hex(""), "cbf29ce484222325")
    }

    func testFNV1a64HashesUTF8Bytes() {
        // Precomposed and decomposed é are equal Swift strings but different UTF-8; the hash is
        // over bytes as written, value fixed here.
        XCTAssertEqual(StableHash.fnv1a64Hex("\u{DC}n\u{EF}c\u{F6}d\u{E9}\u{1F}"), "19882b794ff037f7")
        XCTAssertEqual("\u{E9}", "e\u{301}")
        XCTAssertNotEqual(StableHash.fnv1a64("\u{E9}"), StableHash.fnv1a64("e\u{301}"))
    }

    func testHashKeyOfTitleAndDescription() {
        let card = Card(title: "Hello", description: "<p>World</p>")
        XCTAssertEqual(card.key.rawValue, "hash:bef9c6a6be9b05f5")
        XCTAssertEqual(card.key, Card(title: "Hello", description: "<p>World</p>").key, "stable between calls")
    }

    func testHashKeyWithMissingFields() {
        XCTAssertEqual(Card().key.rawValue, "hash:af63d24c8601db8e", "hash of U+001F alone")
        XCTAssertEqual(Card(title: "Title").key.rawValue, "hash:c5522bac6cbf74e2")
    }

    func testHashSeparatorKeepsFieldsApart() {
        XCTAssertNotEqual(Card(title: "ab", description: "c").key, Card(title: "a", description: "bc").key)
        XCTAssertNotEqual(Card(title: "x").key, Card(description: "x").key)
    }

    func testHashIgnoresOtherFields() {
        let a = Card(title: "T", description: "D", author: "A", enclosures: [Enclosure(url: "http://e/a.mp3")])
        let b = Card(title: "T", description: "D", published: Timestamp(secondsSince1970: 42))
        XCTAssertEqual(a.key, b.key)
        XCTAssertTrue(a.key.rawValue.hasPrefix("hash:"))
    }

    func testEmptyLinkFallsBackToHash() {
        XCTAssertTrue(Card(title: "T", link: "").key.rawValue.hasPrefix("hash:"))
    }

    // MARK: - search results

    func testSearchResultKeyIgnoresId() {
        let result = Card(id: "engine-result-17", title: "Result", link: "https://Example.com/page#x")
        XCTAssertEqual(result.key.rawValue, "id:engine-result-17")
        XCTAssertEqual(CardKey.forSearchResult(result).rawValue, "link:https://example.com/page")
        let nextRun = Card(id: "engine-result-3", title: "Result, reworded", link: "https://example.com/page")
        XCTAssertEqual(CardKey.forSearchResult(result), CardKey.forSearchResult(nextRun))
    }

    func testSearchResultWithoutLinkFallsBackToHash() {
        let result = Card(id: "r1", title: "Hello", description: "<p>World</p>")
        XCTAssertEqual(CardKey.forSearchResult(result).rawValue, "hash:bef9c6a6be9b05f5")
    }

    // MARK: - image cards

    func testImageCardIgnoresIdAndPrefersLink() {
        let card = Card(id: "img-1", link: "http://Example.com/gallery#p", image: "http://img.example/a.png", kind: .image)
        XCTAssertEqual(card.key.rawValue, "link:http://example.com/gallery")
    }

    func testImageCardWithoutLinkIsKeyedByImage() {
        let card = Card(id: "img-1", image: "HTTP://IMG.Example:80/A.png#frag", kind: .image)
        XCTAssertEqual(card.key.rawValue, "image:http://img.example/A.png")
        XCTAssertEqual(CardKey.forSearchResult(card), card.key)
    }

    func testArticleWithImageOnlyIsNotKeyedByImage() {
        let card = Card(title: "T", image: "http://img.example/a.png")
        XCTAssertTrue(card.key.rawValue.hasPrefix("hash:"), card.key.rawValue)
    }

    func testImageCardWithNothingFallsBackToHash() {
        XCTAssertEqual(Card(title: "Hello", description: "<p>World</p>", kind: .image).key.rawValue, "hash:bef9c6a6be9b05f5")
    }

    // MARK: - raw values

    func testRawValueRoundTrip() {
        let key = CardKey(rawValue: "link:http://example.com/")
        XCTAssertEqual(key, Card(link: "http://example.com").key)
        XCTAssertEqual(Set([key, CardKey(rawValue: "link:http://example.com/")]).count, 1)
    }
}
