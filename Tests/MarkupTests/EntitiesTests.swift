import XCTest
@testable import Markup

final class EntitiesTests: XCTestCase {
    func testTableIsComplete() {
        XCTAssertEqual(HTMLEntities.count, 2125)
        XCTAssertEqual(HTMLEntities.characters(named: "eacute"), "é")
        XCTAssertEqual(HTMLEntities.characters(named: "Eacute"), "É")
        XCTAssertEqual(HTMLEntities.characters(named: "nbsp"), "\u{A0}")
        XCTAssertEqual(HTMLEntities.characters(named: "amp"), "&")
        XCTAssertEqual(HTMLEntities.characters(named: "hellip"), "…")
        XCTAssertEqual(HTMLEntities.characters(named: "zwnj"), "\u{200C}")
        XCTAssertEqual(HTMLEntities.characters(named: "AElig"), "Æ")
        XCTAssertEqual(HTMLEntities.characters(named: "Afr"), "\u{1D504}")
        XCTAssertEqual(HTMLEntities.characters(named: "NewLine"), "\n")
        // Two code points.
        XCTAssertEqual(HTMLEntities.characters(named: "NotEqualTilde")?.unicodeScalars.map(\.value), [0x2242, 0x338])
        XCTAssertEqual(HTMLEntities.characters(named: "fjlig"), "fj")
    }

    func testLookupRules() {
        XCTAssertEqual(HTMLEntities.characters(named: "eacute;"), "é")
        XCTAssertNil(HTMLEntities.characters(named: "EACUTE"))
        XCTAssertNil(HTMLEntities.characters(named: "nosuchentity"))
        XCTAssertNil(HTMLEntities.characters(named: ""))
        XCTAssertNil(HTMLEntities.characters(named: ";"))
        XCTAssertTrue(HTMLEntities.isLegacy("copy"))
        XCTAssertFalse(HTMLEntities.isLegacy("hellip"))
    }

    func testDecode() {
        XCTAssertEqual(HTMLEntities.decode("caf&eacute; &amp; &#233;&#xE9;&#XE9; &hellip;"), "café & ééé …")
        XCTAssertEqual(HTMLEntities.decode("&copy 2024 &notit; &notin;"), "© 2024 ¬it; ∉")
        XCTAssertEqual(HTMLEntities.decode("&unknown; & &; &#; &#x;"), "&unknown; & &; &#; &#x;")
        XCTAssertEqual(HTMLEntities.decode("&#0;&#xD800;&#x110000;&#99999999999;"), "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}")
        XCTAssertEqual(HTMLEntities.decode("&#150;&#x80;"), "–€")
        XCTAssertEqual(HTMLEntities.decode("no references"), "no references")
        XCTAssertEqual(HTMLEntities.decode("&"), "&")
    }

    func testLookupIsFastAndThreadSafe() {
        let names = ["eacute", "nbsp", "rsquo", "mdash", "hellip", "nosuch"]
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { for n in names { _ = HTMLEntities.characters(named: n) } }
        }
        let start = ContinuousClock.now
        var found = 0
        for _ in 0..<100_000 where HTMLEntities.characters(named: "eacute") != nil { found += 1 }
        XCTAssertEqual(found, 100_000)
        XCTAssertLessThan(start.duration(to: .now), .seconds(5))
    }
}
