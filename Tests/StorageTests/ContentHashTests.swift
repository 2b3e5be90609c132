import XCTest
import FeedModel
@testable import Storage

/// The content hash is stored with every card: a new version of feeds that computed another
/// value for the same card would see every saved card as changed on its first update (rewriting
/// them all and re-indexing them). These values were computed outside Swift, by FNV-1a 64 over
/// the documented byte sequence, and must never change.
final class ContentHashTests: XCTestCase {
    func testValueIsFNV1aOfTheTaggedFieldsInARow() {
        let card = Card(id: "g1", title: "Title", description: "<p>Body — café</p>", link: "https://example.com/a",
                        image: nil, published: Timestamp(secondsSince1970: 1_700_000_000), updated: nil, author: "Ann")
        XCTAssertEqual(ContentHash.of(card, enclosuresJSON: "[]"), "d58c9bd9592e7f0f")
    }

    func testStableHashKnownValues() {
        XCTAssertEqual(StableHash.fnv1a64Hex(""), "cbf29ce484222325")
        XCTAssertEqual(StableHash.fnv1a64Hex("a"), "af63dc4c8601ec8c")
        var pieces = StableHash.Accumulator()
        pieces.add("Tit")
        pieces.add(byte: UInt8(ascii: "l"))
        pieces.add("e")
        XCTAssertEqual(pieces.value, StableHash.fnv1a64("Title"))
    }

    func testAbsentAndEmptyFieldsDiffer() {
        let absent = Card(id: "g", title: nil, link: "https://example.com/")
        let empty = Card(id: "g", title: "", link: "https://example.com/")
        XCTAssertNotEqual(ContentHash.of(absent, enclosuresJSON: "[]"), ContentHash.of(empty, enclosuresJSON: "[]"))
    }
}
