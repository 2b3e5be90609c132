@testable import FeedParsing
import TestSupport
import XCTest

/// Issue 17: a SUSI `rss` action that names no image key: the data object's own `image` field is
/// the card's image when it is an image URL (a page URL there is not an image).
final class SUSIImageFieldTests: XCTestCase {
    func testTheDataObjectsOwnImageFieldIsTheImage() throws {
        let r = try SearchReader.read([UInt8](Fixtures.data("search/susi-rss-own-image.json")), engine: .susi)
        XCTAssertEqual(r.cards.map(\.title), ["Old town", "Lake", "No image"])
        XCTAssertEqual(r.cards.map(\.image), ["https://photos.example.org/zurich/old-town.jpg", nil, nil])
    }
}
