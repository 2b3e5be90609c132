import FeedModel
import Foundation
@testable import HTMLDigest
import Storage
import XCTest

/// Tag pages (issue 18): a page per tag of the sources file with the newest cards of its
/// sources, an index of tags in the navigation, each card linking its source's tags.
final class TagPagesTests: DigestTestCase {
    func fillTagged() throws {
        let specs: [(String, [String], Int64)] = [("Swift", ["dev", "swift"], 2), ("Rust", ["dev"], 5), ("Cooking", ["c<&>"], 8)]
        for (name, tags, hours) in specs {
            let id = try store.upsertSource(SourceConfiguration(url: "https://\(name.lowercased()).example/feed", name: name, tags: tags), now: hoursAgo(400))
            try store.saveFetch(sourceID: id, feed: FeedInfo(title: name), cards: [
                Card(id: "\(name)-1", title: "\(name) news", link: "https://\(name.lowercased()).example/1", published: hoursAgo(hours)),
            ], validators: CacheValidators(), now: hoursAgo(1), nextDue: nil)
        }
    }

    func testEachTagHasAPageWithItsSourcesCards() throws {
        try fillTagged()
        try writeSite()
        let dev = try read("tags/dev.html")
        XCTAssertTrue(dev.contains("<h1>#dev</h1>"))
        XCTAssertTrue(dev.contains("2 cards of the sources tagged dev"))
        let swift = try XCTUnwrap(dev.range(of: "Swift news")), rust = try XCTUnwrap(dev.range(of: "Rust news"))
        XCTAssertLessThan(swift.lowerBound, rust.lowerBound, "newest first")
        XCTAssertFalse(dev.contains("Cooking news"))
        // A tag that is no file name: encoded, so it names no path and no other tag's file.
        XCTAssertEqual(DigestModel.tagFile("c<&>"), "c_3c_26_3e.html")
        XCTAssertEqual(DigestModel.tagFile("../x"), "_2e_2e_2fx.html")
        XCTAssertNotEqual(DigestModel.tagFile("a_20"), DigestModel.tagFile("a "))
        XCTAssertTrue(try read("tags/c_3c_26_3e.html").contains("<h1>#c&lt;&amp;&gt;</h1>"))
        let index = try read("tags/index.html")
        XCTAssertTrue(index.contains("<a href=\"dev.html\">#dev</a> <span class=\"count\">2 cards: Rust, Swift</span>"))
        for page in try pages() { XCTAssertEqual(PageChecker.problems(in: try read(page), name: page), [], page) }
    }

    func testCardsLinkTheirTagsAndTheNavigationLinksTheTags() throws {
        try fillTagged()
        try writeSite()
        let index = try read("index.html")
        XCTAssertTrue(index.contains("<span class=\"source\">Swift</span> <a class=\"tag\" href=\"tags/dev.html\">#dev</a> <a class=\"tag\" href=\"tags/swift.html\">#swift</a>"))
        XCTAssertTrue(index.contains("<li><a href=\"tags/index.html\">Tags</a></li>"))
        XCTAssertTrue(try read("archive/2026-11-29.html").contains("<a class=\"tag\" href=\"../tags/dev.html\">#dev</a>"))
        XCTAssertTrue(try read("tags/dev.html").contains("<a href=\"../tags/index.html\" aria-current=\"page\">Tags</a>"))
    }

    func testATagGoneTakesItsPageWithIt() throws {
        try fillTagged()
        try writeSite()
        XCTAssertTrue(FileManager.default.fileExists(atPath: site + "/tags/swift.html"))
        let swift = try XCTUnwrap(try store.sources().first { $0.configuration.name == "Swift" })
        var configuration = swift.configuration
        configuration.tags = ["dev"]
        _ = try store.upsertSource(configuration, now: hoursAgo(0))
        let report = try writeSite()
        XCTAssertEqual(report.removed, ["tags/swift.html"])
    }
}
