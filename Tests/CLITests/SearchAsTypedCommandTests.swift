import Foundation
import TestSupport
import XCTest

/// Issue 19: `feeds search` as people type, run as the built binary: words with punctuation
/// find their cards, folding beyond diacritics, and a query that cannot be read is exit 2 with
/// the reason.
final class SearchAsTypedCommandTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var home: String { directory.url.path }

    override func setUpWithError() throws {
        directory = TemporaryDirectory("feeds-cli-search-typed")
        let feed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Local</title>
            <item><guid>1</guid><title>Heat-pump buyers guide</title><description>Which e-mail to send, 50% off</description></item>
            <item><guid>2</guid><title>What's new in C++ and C#</title><description>Node.js, A/B tests, don't panic</description></item>
            <item><guid>3</guid><title>Fußball: the ﬁnal in ＦＵＬＬ</title></item>
            </channel></rss>
            """
        try feed.write(to: directory.file("feed.rss"), atomically: false, encoding: .utf8)
        try "feed.rss name=Local\n".write(to: directory.file("sources"), atomically: false, encoding: .utf8)
        XCTAssertEqual(try feeds(["update"]).status, 0)
    }

    override func tearDown() { directory = nil }

    private func feeds(_ args: [String]) throws -> FeedsCommand.Result {
        try FeedsCommand.run(["--home", home] + args)
    }

    private func titles(_ query: String) throws -> [String] {
        let r = try feeds(["search", query, "--json"])
        XCTAssertEqual(r.status, 0, "\(query): \(r.stderr)")
        let cards = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
        return cards.compactMap { $0["title"] as? String }
    }

    func testWordsAsPeopleTypeThem() throws {
        for query in ["heat-pump", "e-mail", "50%"] { XCTAssertEqual(try titles(query), ["Heat-pump buyers guide"], query) }
        for query in ["c++", "C#", "node.js", "a/b", "don't", "what's"] {
            XCTAssertEqual(try titles(query), ["What's new in C++ and C#"], query)
        }
        for query in ["fussball", "FUSSBALL", "final", "full", "ｆｕｌｌ"] {
            XCTAssertEqual(try titles(query), ["Fußball: the ﬁnal in ＦＵＬＬ"], query)
        }
        XCTAssertEqual(Set(try titles("heat OR fussball")).count, 2)
        XCTAssertEqual(try titles("title:heat*"), ["Heat-pump buyers guide"])
    }

    func testAQueryThatCannotBeReadIsAUsageError() throws {
        for (query, reason) in [("\"heat pump", "never closed"), ("heat OR", "OR needs a word on each side"),
                                ("+++", "no word to search for")] {
            let r = try feeds(["search", query])
            XCTAssertEqual(r.status, 2, query)
            XCTAssertTrue(r.stderr.hasPrefix("feeds: cannot search for \(query): "), r.stderr)
            XCTAssertTrue(r.stderr.contains(reason), r.stderr)
            XCTAssertFalse(r.stderr.contains("fts5"), r.stderr)
        }
    }
}
