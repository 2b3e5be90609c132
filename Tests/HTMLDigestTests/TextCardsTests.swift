import FeedModel
import Storage
@testable import HTMLDigest
import XCTest

/// Text cards and excerpts with links (issue 18): a card without image has no picture box and
/// a longer excerpt, a placeholder marks only an image expected and not cached, and a link in
/// a description reads as its text, never as `text <url>`.
final class TextCardsTests: DigestTestCase {
    func testTextCardsHaveNoPictureBoxAndPlaceholdersOnlyMarkMissingImages() throws {
        try fillStore()
        try writeSite()
        let index = try read("index.html")
        let articles = index.components(separatedBy: "<article").dropFirst()
        for article in articles {
            let hasPlaceholder = article.contains("placeholder"), isText = article.hasPrefix(" class=\"card text\"")
            XCTAssertFalse(hasPlaceholder && isText, article)
        }
        XCTAssertTrue(index.contains("<article class=\"card text\"><h3 class=\"title\"><a href=\"https://blog.example.org/2\">Podcast episode"))
        // The missing image of n1 is expected and failed: its placeholder stays.
        let n1 = try XCTUnwrap(articles.first { $0.contains("news.example.net/n1") })
        XCTAssertTrue(n1.contains("pic placeholder"))
        XCTAssertEqual(index.components(separatedBy: "pic placeholder").count - 1, 1, "one placeholder: the one failed image")
    }

    func testATextCardsExcerptIsLonger() {
        let long = "<p>" + String(repeating: "word ", count: 400) + "</p>"
        func card(image: String?) -> StoredCard {
            StoredCard(id: CardID(rawValue: 1), card: Card(id: "x", title: "T", description: long, image: image),
                       key: CardKey(for: Card(id: "x")), sourceID: SourceID(rawValue: 1), sourceName: "S", isRead: false,
                       firstSeenAt: now, changedAt: now, lastSeenAt: now, sortDate: now)
        }
        let withImage = CardHTML.makeExcerpt(card(image: "https://i.example/a.png"))
        let text = CardHTML.makeExcerpt(card(image: nil))
        XCTAssertLessThanOrEqual(withImage.count, CardHTML.excerptLength + 1)
        XCTAssertGreaterThan(text.count, CardHTML.excerptLength * 2)
        XCTAssertLessThanOrEqual(text.count, CardHTML.textExcerptLength + 1)
    }

    /// Descriptions that are links, or hold them, in every shape: the excerpt has the text
    /// only: no URL in angle brackets, no bare URL that was an href.
    func testLinksInExcerptsAreTheirTextNeverBracketedURLs() {
        let shapes = [
            #"<a href="https://news.ycombinator.com/item?id=1">Comments</a>"#,
            #"Article URL: <a href="https://example.com/a">https://example.com/a</a> Comments URL: <a href="https://news.ycombinator.com/item?id=1">https://news.ycombinator.com/item?id=1</a> Points: 5"#,
            #"<p>See <a href="https://x.example/long/path?q=1">the post</a> and <a href="mailto:a@b.example">write</a>.</p>"#,
            #"<a href="https://x.example/">"#,
            #"<ul><li><a href="https://a.example/1">one</a></li><li><a href="https://a.example/2">two</a></li></ul>"#,
        ]
        for html in shapes {
            for image in [nil, "https://i.example/a.png"] as [String?] {
                let stored = StoredCard(id: CardID(rawValue: 1), card: Card(id: "x", title: "T", description: html, image: image),
                                        key: CardKey(for: Card(id: "x")), sourceID: SourceID(rawValue: 1), sourceName: "S", isRead: false,
                                        firstSeenAt: now, changedAt: now, lastSeenAt: now, sortDate: now)
                let excerpt = CardHTML.makeExcerpt(stored)
                XCTAssertFalse(excerpt.contains("<http") || excerpt.contains("<mailto") || excerpt.contains(">"), "\(html) -> \(excerpt)")
            }
        }
        let hn = StoredCard(id: CardID(rawValue: 1), card: Card(id: "x", title: "T", description: shapes[0]),
                            key: CardKey(for: Card(id: "x")), sourceID: SourceID(rawValue: 1), sourceName: "S", isRead: false,
                            firstSeenAt: now, changedAt: now, lastSeenAt: now, sortDate: now)
        XCTAssertEqual(CardHTML.makeExcerpt(hn), "Comments")
    }
}
