import XCTest
@testable import Markup

final class PlainTextTests: XCTestCase {
    private func t(_ html: String) -> String { HTMLText.plainText(html) }

    func testParagraphsAreSeparatedByABlankLine() {
        XCTAssertEqual(t("<p>One   two\nthree</p><p>Four</p>"), "One two three\n\nFour")
        XCTAssertEqual(t("<h1>Title</h1>Body text"), "Title\n\nBody text")
        XCTAssertEqual(t("<div>a</div><div>b</div>"), "a\nb")
    }

    func testLineBreaks() {
        XCTAssertEqual(t("a<br>b<br/>c"), "a\nb\nc")
        XCTAssertEqual(t("a<br><br><br><br>b"), "a\n\nb")
        XCTAssertEqual(t("<p>a <br> b</p>"), "a\nb")
    }

    func testLists() {
        XCTAssertEqual(t("<p>Intro</p><ul><li>one</li><li>two</li></ul><p>After</p>"), "Intro\n\n• one\n• two\n\nAfter")
        XCTAssertEqual(t("<ol><li>a<li>b<li>c</ol>"), "1. a\n2. b\n3. c")
        XCTAssertEqual(t("<ol start=\"4\"><li>d</li><li>e</li></ol>"), "4. d\n5. e")
        XCTAssertEqual(t("<ul><li>a<ul><li>a1</li></ul></li><li>b</li></ul>"), "• a\n  • a1\n• b")
    }

    func testEntitiesAreDecoded() {
        XCTAssertEqual(t("<p>caf&eacute; &amp; cr&egrave;me &lt;3 &#x2603; &hellip;</p>"), "café & crème <3 ☃ …")
        XCTAssertEqual(t("Tom &amp; Jerry &copy 2024"), "Tom & Jerry © 2024")
    }

    func testScriptStyleAndHeadGiveNoText() {
        XCTAssertEqual(t("<head><title>T</title><style>p{}</style></head><p>x<script>alert('y')</script>z</p>"), "xz")
        XCTAssertEqual(t("a<!-- comment -->b"), "ab")
    }

    func testLinksStayReadable() {
        XCTAssertEqual(t("See <a href=\"http://e.example/post\">this post</a>."), "See this post <http://e.example/post>.")
        XCTAssertEqual(t("<a href=\"https://www.e.example/\">e.example</a>"), "e.example")
        XCTAssertEqual(t("<a href=\"http://e.example/x\">http://e.example/x</a>"), "http://e.example/x")
        XCTAssertEqual(t("<a href=\"mailto:a@b.example\">a@b.example</a>"), "a@b.example")
        XCTAssertEqual(t("<a href=\"javascript:alert(1)\">click</a>"), "click")
        XCTAssertEqual(t("<a href=\"/relative\">rel</a>"), "rel")
        XCTAssertEqual(t("<a href=\"http://e.example/i\"><img src=\"x.png\"></a>"), "<http://e.example/i>")
    }

    func testSpacesCollapseButPreformattedTextStays() {
        XCTAssertEqual(t("  <b>a</b>\t\t <i>b</i>  &nbsp; c  "), "a b c")
        XCTAssertEqual(t("<p>code:</p><pre>  x = 1\n  y = 2</pre><p>end</p>"), "code:\n\n  x = 1\n  y = 2\n\nend")
    }

    func testTables() {
        XCTAssertEqual(t("<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"), "a | b\n1 | 2")
    }

    func testFastPathWithoutMarkup() {
        XCTAssertEqual(t("plain   text\nwith a line break"), "plain text with a line break")
        XCTAssertEqual(t("para one\n\npara two"), "para one\n\npara two")
        XCTAssertEqual(t("fish &amp; chips"), "fish & chips")
        XCTAssertEqual(t(""), "")
        XCTAssertEqual(t("   \n "), "")
    }

    func testHostileInputs() {
        let bytes: [UInt8] = [0x3C, 0x70, 0x3E, 0xFF, 0x00, 0x61, 0xC3, 0x3C, 0x2F, 0x70, 0x3E, 0x62]
        let out = t(String(decoding: bytes, as: UTF8.self))
        XCTAssertTrue(out.contains("a"))
        XCTAssertFalse(out.unicodeScalars.contains { $0.value == 0 })
        let big = String(repeating: "<p>para <a href=\"http://e.example/\">link</a></p>", count: 120_000)
        XCTAssertGreaterThan(big.utf8.count, 5_000_000)
        let text = t(big)
        XCTAssertTrue(text.hasPrefix("para link <http://e.example/>\n\npara"))
        XCTAssertLessThan(text.utf8.count, MarkupLimits.maxInputBytes)
        // Links nested as deep as libxml2 goes (it stops at 256 levels), around a long text.
        let nested = String(repeating: "<a href=\"http://e.example/\"><b>", count: 100) + String(repeating: "x", count: 500_000)
        XCTAssertTrue(t(nested).contains("xxxx"))
    }

    /// A `<` that starts no markup skips the HTML parser: the text must be what libxml2 reads.
    func testLessThanThatStartsNoMarkupReadsAsLibXMLReadsIt() {
        let pieces = ["<", "< ", "<3", "<=", "<<", "x", " ", "é", "&amp;", "&lt;", "&eacute;", "&bogus;", ">", "a < b",
                      "\t", "1", "<\u{E9}", "<-", "<.", "<\"", "<'", "<>", "&#60;"]
        var state: UInt64 = 99
        func next(_ n: Int) -> Int { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return Int(state % UInt64(n)) }
        func collapsed(_ s: String) -> String { s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ") }
        var tested = 0
        for _ in 0..<4000 {
            var s = ""
            for _ in 0..<(1 + next(8)) { s += pieces[next(pieces.count)] }
            // Pieces can meet as "<x" or "<a": markup, which takes the parser anyway.
            guard !HTMLText.startsMarkup(s) else { continue }
            tested += 1
            XCTAssertEqual(collapsed(t(s)), collapsed(HTMLText.plainTextWithLibXML(s)), s.debugDescription)
        }
        XCTAssertGreaterThan(tested, 1500)
        for markup in ["a <b>c</b>", "x </y", "<!-- c -->", "<?pi?>", "<T> here", "z<Q"] {
            XCTAssertTrue(HTMLText.startsMarkup(markup), markup)
        }
        XCTAssertEqual(t("Tom & Jerry: x < y"), "Tom & Jerry: x < y")
    }
}
