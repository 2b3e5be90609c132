import Foundation
import TestSupport
import XCTest
@testable import Markup

/// One sanitizer expectation: `html` in, substrings that must (not) appear in the output.
struct SanitizeCase: Decodable {
    struct Check: Decodable {
        var op: String
        var value: String
        var ignore_case: Bool?
    }
    var `case`: String
    var html: String
    var checks: [Check]
}

final class SanitizerTests: XCTestCase {
    private func s(_ html: String, base: String? = nil) -> String { HTMLSanitizer.sanitize(html, base: base) }

    /// Runs `sanitize` and checks idempotence on the way.
    private func clean(_ html: String, base: String? = nil, file: StaticString = #filePath, line: UInt = #line) -> String {
        let once = s(html, base: base)
        XCTAssertEqual(s(once, base: base), once, "not idempotent for \(html.prefix(200))", file: file, line: line)
        return once
    }

    // MARK: - feedparser's sanitize corpus

    func testFeedparserSanitizeCorpus() throws {
        struct Corpus: Decodable { var cases: [SanitizeCase] }
        let corpus = try JSONDecoder().decode(Corpus.self, from: Fixtures.data("markup/sanitize-cases.json"))
        XCTAssertGreaterThan(corpus.cases.count, 70)
        for c in corpus.cases {
            let out = clean(c.html)
            for check in c.checks {
                let hay = check.ignore_case == true ? out.lowercased() : out
                let needle = check.ignore_case == true ? check.value.lowercased() : check.value
                switch check.op {
                case "contains": XCTAssertTrue(hay.contains(needle), "\(c.case): \(out) should contain \(needle)")
                case "not_contains": XCTAssertFalse(hay.contains(needle), "\(c.case): \(out) should not contain \(needle)")
                default: XCTFail("unknown op \(check.op)")
                }
            }
        }
    }

    // MARK: - allow-list

    /// "May hold an image" is false only when the output surely holds no `<img>` (the card then
    /// skips looking for one in it).
    func testTellsWhetherTheOutputMayHoldAnImage() {
        func check(_ html: String, _ expected: Bool, file: StaticString = #filePath, line: UInt = #line) {
            var may = !expected
            let out = HTMLSanitizer.sanitizedText(utf8: Array(html.utf8), base: "https://e.example/", mayHoldImage: &may)
            XCTAssertEqual(may, expected, html, file: file, line: line)
            if !may { XCTAssertFalse(out.string.contains("<img"), html, file: file, line: line) }
        }
        check("plain text", false)
        check("<p>a <b>b</b></p>", false)
        check("<p><img src=\"/a.png\" alt=\"a\"></p>", true)
        check("<p><img src=\"https://t.example/p.gif\" width=\"1\" height=\"1\"></p>", false)   // a tracking pixel goes
        check("<table><tr><td>x</td></tr></table>", true)   // libxml2's path: not known, so maybe
    }

    func testKeepsFormattingAndStructure() {
        let html = "<h2>Title</h2><p>One <em>two</em> <strong>three</strong> <code>x &lt; y</code></p>"
            + "<ul><li>a</li><li>b</li></ul><blockquote cite=\"http://q.example/\">quoted</blockquote>"
            + "<table><tr><th colspan=\"2\">h</th></tr><tr><td rowspan=\"1\">c</td></tr></table>"
        XCTAssertEqual(clean(html), html)
    }

    func testDropsDangerousElementsWithTheirContent() {
        XCTAssertEqual(clean("a<script>alert(1)</script>b"), "ab")
        XCTAssertEqual(clean("a<style>p{}</style>b"), "ab")
        XCTAssertEqual(clean("a<form action=x><input name=q><button>Go</button></form>b"), "ab")
        XCTAssertEqual(clean("a<svg><script>alert(1)</script><text>t</text></svg>b"), "ab")
        XCTAssertEqual(clean("a<math><mi>x</mi></math>b"), "ab")
        XCTAssertEqual(clean("a<noscript><img src=\"http://e.example/x.png\"></noscript>b"), "ab")
        XCTAssertEqual(clean("a<template><p>t</p></template>b"), "ab")
        XCTAssertEqual(clean("<title>T</title>a<meta http-equiv=refresh content=\"0;url=http://evil/\">b<base href=\"http://evil/\">"), "ab")
        XCTAssertEqual(clean("<SCRIPT SRC=http://evil/x.js></SCRIPT>ok"), "ok")
    }

    func testEmbeddingElementsGoButFallbackTextStays() {
        XCTAssertEqual(clean("<iframe src=\"http://evil/\">fallback</iframe>"), "fallback")
        XCTAssertEqual(clean("<object data=\"x.swf\"><param name=a value=b>alt</object>"), "alt")
        XCTAssertEqual(clean("a<embed src=\"x.swf\"> b"), "a b")
    }

    func testUnknownElementsAreUnwrapped() {
        XCTAssertEqual(clean("<font color=red>red</font> <blink>on</blink> <my-widget x=1>w</my-widget>"), "red on w")
        XCTAssertEqual(clean("<center><p>c</p></center>"), "<p>c</p>")
    }

    func testRemovesEventHandlersStyleAndUnknownAttributes() {
        let out = clean("<p onclick=\"x()\" ONMOUSEOVER=\"y()\" style=\"position:absolute;background:url(x)\" class=c id=i data-x=1 title=\"t\">p</p>")
        XCTAssertEqual(out, "<p title=\"t\">p</p>")
        XCTAssertEqual(clean("<img src=\"http://e.example/a.png\" onerror=\"alert(1)\" alt=\"A\">"), "<img src=\"http://e.example/a.png\" alt=\"A\">")
    }

    /// Links are kept as written (pages set their referrer policy once, in a meta element).
    func testLinksKeepSafeURLsOnly() {
        XCTAssertEqual(clean("<a href=\"http://e.example/\" rel=\"me\" target=\"_blank\">x</a>"), "<a href=\"http://e.example/\">x</a>")
        XCTAssertEqual(clean("<a href=\"mailto:a@b.example\">m</a>"), "<a href=\"mailto:a@b.example\">m</a>")
        XCTAssertEqual(clean("<a href=\"ftp://e.example/\">f</a>"), "<a>f</a>")
    }

    func testObfuscatedJavascriptURLsAreDropped() {
        let hostile = [
            "javascript:alert(1)", "JAVASCRIPT:alert(1)", " javascript:alert(1)", "\u{1}javascript:alert(1)",
            "java&#x09;script:alert(1)", "java&#9;script:alert(1)", "jav&#x0A;ascript:alert(1)", "java\tscript:alert(1)",
            "&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)", "&#x6A;avascript&#x3A;alert(1)",
            "javascript&colon;alert(1)", "vbscript:msgbox(1)", "VbScRiPt:x", "data:text/html;base64,PHNjcmlwdD4=",
            "  \n data:text/html,<script>alert(1)</script>", "livescript:x", "java\u{0}script:alert(1)",
        ]
        for url in hostile {
            for html in ["<a href=\"\(url)\">x</a>", "<img src=\"\(url)\">", "<blockquote cite=\"\(url)\">q</blockquote>"] {
                let out = clean(html, base: "http://base.example/dir/").lowercased()
                XCTAssertFalse(out.contains("script"), "\(html) -> \(out)")
                XCTAssertFalse(out.contains("data:"), "\(html) -> \(out)")
                XCTAssertFalse(out.contains("href="), "\(html) -> \(out)")
                XCTAssertFalse(out.contains("src="), "\(html) -> \(out)")
            }
        }
    }

    func testDataImagesOnlyInImgSrc() {
        let png = "data:image/png;base64,iVBORw0KGgo="
        XCTAssertEqual(clean("<img src=\"\(png)\" alt=\"d\">"), "<img src=\"\(png)\" alt=\"d\">")
        XCTAssertEqual(clean("<img src=\"data:image/svg+xml;base64,PHN2Zz4=\">x"), "x")
        XCTAssertEqual(clean("<a href=\"\(png)\">x</a>"), "<a>x</a>")
    }

    func testRelativeURLsAreResolved() {
        XCTAssertEqual(clean("<a href=\"../b/c.html?q=1#f\">x</a>", base: "http://e.example/a/d/index.html"),
                       "<a href=\"http://e.example/a/b/c.html?q=1#f\">x</a>")
        XCTAssertEqual(clean("<img src=\"/i.png\">", base: "https://e.example/post/"), "<img src=\"https://e.example/i.png\">")
        XCTAssertEqual(clean("<img src=\"//cdn.example/i.png\">", base: "https://e.example/"), "<img src=\"https://cdn.example/i.png\">")
        // Without a base a relative URL stays relative (harmless).
        XCTAssertEqual(clean("<img src=\"i.png\">"), "<img src=\"i.png\">")
    }

    func testTrackingPixelsAreRemoved() {
        XCTAssertEqual(clean("a<img src=\"http://e.example/p.gif\" width=\"1\" height=\"1\">b"), "ab")
        XCTAssertEqual(clean("a<img src=\"http://e.example/p.gif\" width=\"0\" height=\"0\" />b"), "ab")
        XCTAssertEqual(clean("a<img src=\"http://feeds.feedburner.com/~r/Blog/~4/abc\" height=\"1\" width=\"1\"/>b"), "ab")
        XCTAssertEqual(clean("a<img src=\"https://stats.wordpress.com/b.gif?host=x\" alt=\"\">b"), "ab")
        XCTAssertEqual(clean("a<img src=\"http://ad.doubleclick.net/ad/x\">b"), "ab")
        // No source at all: the alt text is what the reader sees. An unsafe source: gone.
        XCTAssertEqual(clean("a<img alt=\"no source\">b"), "a<img alt=\"no source\">b")
        XCTAssertEqual(clean("a<img src=\"javascript:x()\" alt=\"bad\">b"), "ab")
        XCTAssertEqual(clean("a<img>b"), "ab")
        // A real image one pixel wide but tall is kept.
        XCTAssertEqual(clean("<img src=\"http://e.example/line.png\" width=\"1\" height=\"300\">"),
                       "<img src=\"http://e.example/line.png\" width=\"1\" height=\"300\">")
    }

    func testEscapingOfTextAndAttributes() {
        XCTAssertEqual(clean("a &lt;b&gt; &amp; &quot;c&quot; &eacute; &#x1F600;"), "a &lt;b&gt; &amp; \"c\" é 😀")
        XCTAssertEqual(clean("<p title='say \"hi\" &amp; <bye>'>t</p>"), "<p title=\"say &quot;hi&quot; &amp; &lt;bye&gt;\">t</p>")
        XCTAssertEqual(clean("<p>x < y > z</p>"), "<p>x &lt; y &gt; z</p>")
    }

    /// Found by fuzzing (a JSON Feed `content_text` with "\f"): escaped text kept the form feed
    /// that sanitizing then dropped, so a description changed when sanitized again.
    func testEscapedTextIsStableUnderSanitizing() {
        let escaped = HTMLEscaping.text("back\u{0C}off\ta\u{1}b\r\nc")
        XCTAssertEqual(escaped, "backoff\tab\nc")
        XCTAssertEqual(HTMLSanitizer.sanitize(escaped, base: nil), escaped)
    }

    func testFastPathForPlainText() {
        XCTAssertEqual(s("just text, no markup"), "just text, no markup")
        XCTAssertEqual(clean("a > b"), "a &gt; b")
        XCTAssertEqual(clean("a > b"), s("a &gt; b"))
        XCTAssertEqual(s(""), "")
    }

    func testCommentsAndDoctypeAreRemoved() {
        XCTAssertEqual(clean("<!DOCTYPE html><!-- secret -->a<!--[if IE]><script>x</script><![endif]-->b"), "ab")
        XCTAssertEqual(clean("<?php echo 1 ?>ok"), "ok")
    }

    func testStrayEndTagsAndUnclosedTagsGiveWellFormedOutput() {
        XCTAssertEqual(clean("a</div>b</p>c"), "abc")
        XCTAssertEqual(clean("<p>one<p>two"), "<p>one</p><p>two</p>")
        XCTAssertEqual(clean("<b><i>x</b>y"), "<b><i>x</i></b>y")
        // Removing <font> would put a div inside a p; the p is closed first, as a parser would.
        XCTAssertEqual(clean("<p>a<font><div>b</div></font>c</p>"), "<p>a</p><div>b</div>c")
    }

    func testMediaElements() {
        let out = clean("<video src=\"v.mp4\" poster=\"p.jpg\" controls autoplay onplay=\"x()\"><source src=\"v.webm\" type=\"video/webm\"></video>",
                        base: "http://e.example/")
        XCTAssertEqual(out, "<video src=\"http://e.example/v.mp4\" poster=\"http://e.example/p.jpg\" controls><source src=\"http://e.example/v.webm\" type=\"video/webm\" /></video>")
    }

    func testXHTMLPrefixedElementsAreJudgedByLocalName() {
        XCTAssertEqual(clean("<html:div>safe<html:script>alert(1)</html:script></html:div>"), "<div>safe</div>")
    }

    // MARK: - hostile inputs

    func testDeepNestingIsBounded() {
        // Deeper than `maxDepth`, within what libxml2 builds: the text survives, the tags stop.
        let moderate = String(repeating: "<div><span>", count: 100) + "deep" + String(repeating: "</span></div>", count: 100)
        let out = clean(moderate)
        XCTAssertTrue(out.contains("deep"))
        XCTAssertEqual(out.components(separatedBy: "<div>").count - 1 + out.components(separatedBy: "<span>").count - 1, MarkupLimits.maxDepth)
        // 100 000 levels: libxml2 gives up below some depth; what comes out is bounded and balanced.
        let depth = 100_000
        let html = "top" + String(repeating: "<div>", count: depth) + "deep" + String(repeating: "</div>", count: depth)
        let huge = clean(html)
        XCTAssertTrue(huge.hasPrefix("top"))
        XCTAssertLessThanOrEqual(huge.components(separatedBy: "<div>").count - 1, MarkupLimits.maxDepth)
        XCTAssertEqual(huge.components(separatedBy: "<div>").count, huge.components(separatedBy: "</div>").count)
        let unclosed = "x" + String(repeating: "<b><i>", count: 50_000) + "y"
        XCTAssertTrue(clean(unclosed).hasPrefix("x"))
        XCTAssertTrue(HTMLText.plainText(html).hasPrefix("top"))
        XCTAssertNil(HTMLImages.firstContentImage(html, base: nil))
    }

    func testLargeInputIsTruncatedAndLinear() {
        let paragraph = "<p>Lorem <b>ipsum</b> dolor &amp; sit <a href=\"/x\">amet</a>.</p>\n"
        let html = String(repeating: paragraph, count: 5_000_000 / paragraph.utf8.count + 1)
        XCTAssertGreaterThan(html.utf8.count, 5_000_000)
        let start = ContinuousClock.now
        let out = s(html, base: "http://e.example/")
        XCTAssertLessThan(start.duration(to: .now), .seconds(20))
        XCTAssertTrue(out.hasPrefix("<p>Lorem <b>ipsum</b>"))
        XCTAssertLessThan(out.utf8.count, 2 * MarkupLimits.maxInputBytes)
        let plain = String(repeating: "plain words ", count: 500_000)
        XCTAssertLessThanOrEqual(s(plain).utf8.count, MarkupLimits.maxInputBytes)
    }

    func testManyAttributesDoNotBlowUp() {
        // libxml2 compares each attribute with all earlier ones of its tag: quadratic, unless
        // attributes beyond `maxAttributes` are skipped before parsing.
        let attrs = (0..<70_000).map { "a\($0)='>'" }.joined(separator: " ")
        XCTAssertEqual(clean("<p title=t \(attrs) lang=en>x</p>y"), "<p title=\"t\">x</p>y")
        XCTAssertEqual(clean("<p a1 a2 a3 lang=en title=\"a > b\">x</p>"), "<p lang=\"en\" title=\"a &gt; b\">x</p>")
    }

    /// Found by fuzzing: a base URL with a replacement character (an undecodable byte in an
    /// xml:base) passed it into resolved links, and sanitizing the output again removed it.
    func testCharactersOfTheBaseAreCleanedLikeTheValue() {
        let once = HTMLSanitizer.sanitize("<a href=\"u\">x</a>", base: "https://h.example/a\u{FFFD}\u{85}b/")
        XCTAssertEqual(once, "<a href=\"https://h.example/ab/u\">x</a>")
        XCTAssertEqual(HTMLSanitizer.sanitize(once, base: nil), once)
    }

    func testInvalidUTF8AndControlCharacters() {
        let bytes: [UInt8] = [0x61, 0xFF, 0xFE, 0x3C, 0x62, 0x3E, 0xC3, 0x28, 0x00, 0x01, 0x62, 0x3C, 0x2F, 0x62, 0x3E, 0xED, 0xA0, 0x80]
        let html = String(decoding: bytes, as: UTF8.self)
        let out = clean(html)
        XCTAssertTrue(out.contains("<b>"))
        XCTAssertFalse(out.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
        XCTAssertEqual(clean("a\u{0}b<i>c\u{0}d</i>\u{7}"), "ab<i>cd</i>")
        XCTAssertEqual(clean("<p>x\r\ny\rz</p>"), "<p>x\ny\nz</p>")
    }

    func testRandomTagSoupIsIdempotent() {
        let tokens = ["<p>", "</p>", "<div>", "</div>", "<b>", "</b>", "<font>", "</font>", "<li>", "<ul>", "</ul>", "<ol>",
                      "<table>", "<tr>", "<td>", "</table>", "<pre>", "\n", " ", "text", "&amp;", "<br>", "<img src=a.png>",
                      "<a href=x>", "</a>", "<h1>", "<script>s</script>", "<iframe>", "<dl>", "<dt>", "<dd>", "<embed>",
                      "<form>", "<!-- c -->", "<body>", "<title>", "<caption>", "<blockquote>", "<hr>", "<center>", "<q>",
                      "<source>", "<video>", "<wbr>", "<x:y>", "<p/>", "<address>", "<figure>", "<"]
        var generator = SplitMix64(seed: 42)
        for _ in 0..<3000 {
            let count = Int(generator.next() % 30) + 1
            let html = (0..<count).map { _ in tokens[Int(generator.next() % UInt64(tokens.count))] }.joined()
            _ = clean(html, base: "http://e.example/")
        }
    }

    /// The bytes entry (what the feed parser calls) gives what the String entry gives.
    func testBytesAndStringEntriesAgree() {
        let samples = [
            "", "plain words", "a > b", "<p>para <b>bold</b> &amp; <a href=\"/x\" onclick=\"evil()\">link</a></p>",
            "<script>alert(1)</script>text", "caf&eacute; &#233; &nope;", "<img src=\"i.png\"><table><tr><td>x</td></tr></table>",
            "<p>unclosed <i>tags", "tab\tand\ncontrol\u{7F}", "<svg><circle/></svg> après",
            String(repeating: "<p>long é</p>", count: 90_000),
        ]
        for html in samples {
            for base in [nil, "https://example.org/dir/page"] {
                XCTAssertEqual(HTMLSanitizer.sanitize(utf8: Array(html.utf8), base: base), HTMLSanitizer.sanitize(html, base: base),
                               String(html.prefix(60)))
            }
        }
    }
}

