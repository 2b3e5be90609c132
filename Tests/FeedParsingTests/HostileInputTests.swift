import FeedModel
import FeedParsing
import TestSupport
import XCTest

/// Whatever a feed contains, the parser reads no file, makes no request, and stays within its
/// bounds, keeping the items it could read.
final class HostileInputTests: XCTestCase {
    func testExternalEntitiesAreNeverRead() throws {
        let f = try parseFixture("hostile/xxe.xml")
        XCTAssertEqual(f.feed.title, "XXE")
        XCTAssertEqual(f.cards.first?.title, "Item")
        XCTAssertFalse(f.cards.first?.description?.contains("root:x:0:0:root") ?? false)
        XCTAssertFalse(String(describing: f).contains("/bin/bash"))
    }

    func testExternalDTDIsIgnored() throws {
        let f = try parseFixture("hostile/external-dtd.xml")
        XCTAssertEqual(f.cards.first?.title, "Still read")
    }

    func testBillionLaughsIsBoundedAndKeepsOtherItems() throws {
        let f = try parseFixture("hostile/billion-laughs.xml")
        XCTAssertEqual(f.cards.count, 3)
        XCTAssertEqual(f.cards.first?.title, "Before")
        XCTAssertEqual(f.cards.last?.title, "After")
        let bomb = f.cards[1].title ?? ""
        XCTAssertLessThanOrEqual(bomb.utf8.count, 1 << 20 + 100)
        XCTAssertTrue(f.warnings.contains { $0.contains("expansion") }, "\(f.warnings)")
    }

    func testInternalEntitiesWithinBudgetAreExpanded() throws {
        let doc = "<!DOCTYPE rss [<!ENTITY who \"World &amp; co\"><!ENTITY greet \"Hello &who;\">]>"
            + "<rss version='2.0'><channel><item><title>&greet;!</title></item></channel></rss>"
        XCTAssertEqual(try parseText(doc).cards.first?.title, "Hello World & co!")
    }

    /// Expansions are reused once complete: the same text every time, and the same stops (a
    /// reused expansion that would now go past the depth limit is walked again and stops).
    func testRepeatedEntitiesExpandTheSameEachTime() throws {
        let doc = "<!DOCTYPE rss [<!ENTITY b \"12\"><!ENTITY a \"x&b;y\">]>"
            + "<rss version='2.0'><channel><item><title>&a;&a;&b;&a;</title></item></channel></rss>"
        XCTAssertEqual(try parseText(doc).cards.first?.title, "x12yx12y12x12y")

        var chain = "<!ENTITY e1 \"1\">"
        for k in 2...9 { chain += "<!ENTITY e\(k) \"&e\(k - 1);\">" }
        func parse(warmingUp: Bool) throws -> (title: String?, warnings: [String]) {
            let first = warmingUp ? "<item><title>&e3;</title></item>" : ""
            let f = try parseText("<!DOCTYPE rss [\(chain)]><rss version='2.0'><channel>\(first)"
                + "<item><title>deep &e9;</title></item></channel></rss>")
            return (f.cards.last?.title, f.warnings)
        }
        let cold = try parse(warmingUp: false), warm = try parse(warmingUp: true)
        XCTAssertEqual(warm.title, cold.title)
        XCTAssertEqual(warm.warnings, cold.warnings)
        XCTAssertTrue(warm.warnings.contains { $0.contains("nested deeper") }, "\(warm.warnings)")
    }

    /// A billion-laughs variant found by fuzzing (thousands of references to reach the budget).
    func testFuzzedEntityExpansionStopsAtTheBudget() throws {
        let f = try parseFixture("hostile/entity-expansion-fuzz.xml")
        XCTAssertTrue(f.warnings.contains { $0.contains("expansion") }, "\(f.warnings)")
        XCTAssertLessThanOrEqual(f.cards.compactMap(\.title).map(\.utf8.count).reduce(0, +), 1 << 20 + 1000)
    }

    func testDeepNestingStopsWithAClearWarning() throws {
        let depth = 100_000
        let doc = rss("<item><title>ok</title></item><item><title>deep</title><description>"
            + String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth) + "</description></item>")
        let f = try parseText(doc)
        XCTAssertEqual(f.cards.first?.title, "ok")
        XCTAssertTrue(f.warnings.contains { $0.contains("nested deeper") }, "\(f.warnings)")
    }

    func testDocumentSizeBound() throws {
        let items = String(repeating: "<item><title>x</title></item>", count: 2000)
        let f = try parseText(rss(items), options: ParseOptions(maxBytes: 10_000))
        XCTAssertGreaterThan(f.cards.count, 100)
        XCTAssertLessThan(f.cards.count, 2000)
        XCTAssertTrue(f.warnings.contains { $0.contains("larger than 10000 bytes") }, "\(f.warnings)")
    }

    func testLongTextIsCutShort() throws {
        let big = String(repeating: "a", count: 100_000)
        let f = try parseText(rss("<item><title>\(big)</title></item><item><title>next</title></item>"),
                              options: ParseOptions(maxTextBytes: 1000))
        XCTAssertLessThanOrEqual(f.cards[0].title?.count ?? 0, 1000)
        XCTAssertEqual(f.cards[1].title, "next")
        XCTAssertTrue(f.warnings.contains { $0.contains("cut short") }, "\(f.warnings)")
    }

    func testScriptAndEventHandlersNeverReachADescription() throws {
        let f = try parseText(rss("""
            <item><description>&lt;img src="x" onerror="alert(1)"&gt;&lt;a href="javascript:alert(2)"&gt;x&lt;/a&gt;&lt;script&gt;alert(3)&lt;/script&gt;&lt;iframe src="http://evil.example/"&gt;&lt;/iframe&gt;</description></item>
            """))
        let d = (f.cards[0].description ?? "").lowercased()
        for bad in ["onerror", "javascript:", "<script", "<iframe", "alert(3)"] {
            XCTAssertFalse(d.contains(bad), "\(bad) in \(d)")
        }
    }

    func testRandomBytesNeverCrash() throws {
        var rng = SplitMix64(seed: 2024)   // seeded: a failure can be reproduced
        let seed = Array(rss("<item><title>t &eacute;</title><link>http://x/</link></item>").utf8)
        for _ in 0..<300 {
            var doc = seed
            for _ in 0..<(Int.random(in: 1...20, using: &rng)) {
                doc[Int.random(in: 0..<doc.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            if let f = try? FeedParser.parse(doc) {
                for c in f.cards {
                    if let link = c.link { XCTAssertTrue(link.hasPrefix("http") || link.hasPrefix("mailto:"), link) }
                }
            }
        }
    }
}
