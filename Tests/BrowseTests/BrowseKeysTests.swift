import Browse
import FeedModel
import Reader
import Storage
import XCTest

/// Keys from a terminal's bytes, the browser's command line, the links of a card.
final class BrowseKeysTests: XCTestCase {
    func testKeysFromBytes() {
        let bytes = Array("jk\r\u{1B}[A\u{1B}[B\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}[4~\u{1B}\u{7F}\u{3}é\u{1B}[15~".utf8)
        XCTAssertEqual(Key.decode(bytes), [.character("j"), .character("k"), .enter, .up, .down, .pageUp, .pageDown,
                                           .home, .end, .home, .end, .escape, .backspace, .interrupt, .character("é"), .unknown])
        XCTAssertEqual(Key.decode([0x1B, UInt8(ascii: "[")]), [.escape, .character("[")], "a cut sequence")
        XCTAssertEqual(Key.decode([0xFF, 0xC3]), [.unknown, .unknown], "broken UTF-8")
    }

    /// The bytes a read may end with before the rest of an escape sequence arrives.
    func testUnfinishedEscapeAtTheEndOfARead() {
        let cases: [(String, Int)] = [
            ("j\u{1B}", 1), ("\u{1B}[", 2), ("\u{1B}O", 2), ("j\u{1B}[6", 3), ("\u{1B}[1;5", 5), ("\u{1B}\u{1B}", 1),
            ("j", 0), ("", 0), ("\u{1B}[B", 0), ("\u{1B}[6~", 0), ("\u{1B}x", 0), ("\u{1B}[B\u{1B}[A", 0), ("\u{1B}[Bj", 0),
            ("\u{1B}[" + String(repeating: "1", count: Key.longestEscape), 0),
        ]
        for (text, pending) in cases {
            XCTAssertEqual(Key.unfinishedEscape(Array(text.utf8)), pending, text.debugDescription)
        }
        // What it waits for, once arrived, is one key.
        XCTAssertEqual(Key.decode(Array("j\u{1B}".utf8) + Array("[B".utf8)), [.character("j"), .down])
    }

    func testBrowserCommand() {
        let url = "https://x.example/a b;rm -rf"
        XCTAssertEqual(Browser.command(url: url, environment: [:]), ["xdg-open", url])
        XCTAssertEqual(Browser.command(url: url, environment: ["BROWSER": " "]), ["xdg-open", url])
        XCTAssertEqual(Browser.command(url: url, environment: ["BROWSER": "firefox --new-tab"]), ["firefox", "--new-tab", url])
        XCTAssertEqual(Browser.command(url: url, environment: ["BROWSER": "w3m -o x=%s"]), ["w3m", "-o", "x=" + url])
    }

    /// `$BROWSER` as xdg-utils and man(1) read it: commands separated by colons, in turn.
    func testBrowserListSeparatedByColons() {
        let url = "https://x.example/a:b%s"
        XCTAssertEqual(Browser.commands(url: url, environment: ["BROWSER": "/no/such/browser:firefox --new-tab::lynx %s"]),
                       [["/no/such/browser", url], ["firefox", "--new-tab", url], ["lynx", url]], "empty entries skipped")
        XCTAssertEqual(Browser.commands(url: url, environment: ["BROWSER": "open 100%% --at=%c%s -- %x"]),
                       [["open", "100%", "--at=:" + url, "--", "%x"]], "%% a percent, %c a colon, other % kept")
        XCTAssertEqual(Browser.commands(url: url, environment: ["BROWSER": "a %%s"]), [["a", "%s", url]],
                       "%%s is no %s: the URL is added")
        XCTAssertEqual(Browser.commands(url: url, environment: ["BROWSER": " : :"]), [["xdg-open", url]])
        XCTAssertEqual(Browser.commands(url: url, environment: ["BROWSER": "x%"]), [["x%", url]], "a % at the end kept")
    }

    /// A link of the text reads `text [n]` where the reader writes `text <url>`; n is its place
    /// in the list after the text (the card's own link is [1]), the same URL the same number.
    func testLinksAreNumberedInTheText() {
        let card = Card(title: "Post", description: "<p>See <a href=\"https://a.example/x\">the post</a> and "
                        + "<a href=\"mailto:me@a.example\">mail</a>, again <a href=\"https://a.example/x\">here</a>, "
                        + "<a href=\"https://a.example/own\">own</a> and <a href=\"https://b.example/\">b</a>.</p>",
                        link: "https://a.example/own")
        let stored = StoredCard(id: CardID(rawValue: 1), card: card, key: CardKey(rawValue: "k"), sourceID: SourceID(rawValue: 1),
                                sourceName: "Src", isRead: false, firstSeenAt: Timestamp(secondsSince1970: 0),
                                changedAt: Timestamp(secondsSince1970: 0), lastSeenAt: Timestamp(secondsSince1970: 0),
                                sortDate: Timestamp(secondsSince1970: 0))
        let view = CardView.render(stored, width: 200, now: Timestamp(secondsSince1970: 0), zone: .utc)
        XCTAssertEqual(view.links, ["https://a.example/own", "https://a.example/x", "https://b.example/"])
        XCTAssertTrue(view.lines.contains("  See the post [2] and mail <mailto:me@a.example>, again here [2], own [1] and b [3]."),
                      view.lines.joined(separator: "\n"))
        XCTAssertEqual(Array(view.lines.suffix(4)), ["  Links:", "  [1] https://a.example/own", "  [2] https://a.example/x",
                                                     "  [3] https://b.example/"])
    }

    func testOnlyWebLinksEachOnceAndBounded() {
        let anchors = (0..<150).map { "<a href=\"https://x.example/\($0 % 120)\">\($0)</a>" }.joined()
        let card = Card(title: "t", description: "<p><a href=\"javascript:alert(1)\">j</a> <a href=\"file:///etc/passwd\">f</a> "
                        + "<a href=\"-flag\">d</a>\(anchors)</p>", link: "https://x.example/0")
        let links = CardView.links(card)
        XCTAssertEqual(links.first, "https://x.example/0")
        XCTAssertEqual(links.count, CardView.linkLimit)
        XCTAssertEqual(Set(links).count, links.count, "each once")
        XCTAssertTrue(links.allSatisfy { $0.hasPrefix("https://") })
        XCTAssertEqual(CardView.links(Card(title: "t", link: "ftp://x.example/")), [])
    }
}
