import CLibXML2
import FeedModel
import Foundation
import HTMLDigest
import Markup
import Storage
import TestSupport
import XCTest

/// The sanitize cases (feedparser's hostile HTML, Tests/Fixtures/markup) as cards: sanitized
/// descriptions as the parser stores them, and the raw HTML where a writer must escape it
/// (title, author, source name, image alt). Every page of the site passes the page checker.
final class HostilePagesTests: DigestTestCase {
    func testSanitizeCasesMakeSafePages() throws {
        let json = try JSONSerialization.jsonObject(with: try Fixtures.data("markup/sanitize-cases.json")) as! [String: Any]
        let cases = json["cases"] as! [[String: Any]]
        XCTAssertGreaterThan(cases.count, 50)
        let source = try store.upsertSource(SourceConfiguration(url: "https://hostile.example/feed", name: "<script>alert('name')</script>"), now: now)
        var cards: [Card] = []
        for (i, c) in cases.enumerated() {
            let html = c["html"] as! String
            cards.append(Card(id: "case\(i)", title: html, description: HTMLSanitizer.sanitize(html, base: "https://hostile.example/"),
                              link: i % 3 == 0 ? "javascript:alert(\(i))" : "https://hostile.example/\(i)?a=\"b\"&c=<d>",
                              image: "https://img.example.org/a.png", published: hoursAgo(Int64(i % 72)), author: html,
                              enclosures: [Enclosure(url: "https://hostile.example/\(i).mp3\" onclick=\"x", type: "audio/<mpeg>")]))
        }
        try store.saveFetch(sourceID: source, feed: FeedInfo(title: "t", link: "javascript:alert(1)", description: cases[0]["html"] as? String),
                            cards: cards, validators: CacheValidators(), now: now, nextDue: nil)
        try writeSite()
        let pages = try pages()
        XCTAssertGreaterThan(pages.count, 5)
        for page in pages {
            XCTAssertEqual(PageChecker.problems(in: try read(page), name: page), [], page)
        }
        // The Atom feed is XML that parses, with the descriptions escaped once.
        let atom = try read("digest.atom")
        let bytes = Array(atom.utf8)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let doc = bytes.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { xmlReadMemory($0, Int32(bytes.count), "digest.atom", nil, options) }
        }
        XCTAssertNotNil(doc, "digest.atom is not well-formed XML")
        xmlFreeDoc(doc)
        XCTAssertFalse(atom.contains("<script"))
    }
}
