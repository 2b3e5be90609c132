import Foundation
import TestSupport
import XCTest
@testable import Markup
import FeedModel

/// The pure-Swift fast path of the sanitizer must give exactly what the libxml2 path gives,
/// whenever it accepts an input.
final class FastSanitizerTests: XCTestCase {
    private let bases: [String?] = [nil, "http://example.test/blog/post/1", "https://h.example", "rel/base",
                                    "http://u@h.example:8080/a/b/../c?x#y"]

    /// Checks one input against the libxml2 path; true when the fast path took it.
    @discardableResult
    private func check(_ html: String, base: String?, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let slow = HTMLSanitizer.sanitizeWithLibXML(html, base: base)
        XCTAssertEqual(HTMLSanitizer.sanitize(html, base: base), slow, "sanitize differs for \(html.debugDescription)", file: file, line: line)
        let bytes = HTMLSanitizer.sanitizedText(utf8: Array(html.utf8), base: base)
        XCTAssertEqual(bytes.string, slow, "the bytes entry differs for \(html.debugDescription)", file: file, line: line)
        guard let fast = FastSanitizer.sanitize(html, base: base) else { return false }
        XCTAssertEqual(fast, slow, "fast path differs for \(html.debugDescription), base \(base ?? "nil")", file: file, line: line)
        return true
    }

    func testTypicalDescriptionsTakeTheFastPath() {
        let typical = [
            "<p>One <em>two</em> &amp; <strong>three</strong> &mdash; <a href=\"https://e.example/x?a=1&amp;b=2\">link</a>.</p>\n<p><img src=\"/img/1.jpg\" alt=\"A photo\" width=\"640\" height=\"360\"></p>",
            "<ul><li>a &lt; b</li><li>&#8217;&#x2014;&nbsp;&copy;</li></ul>\n<blockquote><p>It's “quoted”</p></blockquote>",
            "text with a break<br />and <code>code</code> and <img src=\"http://t.example/pixel.gif\" width=\"1\" height=\"1\">",
            "<p class='lead' title='say \"hi\"'>single quotes</p>",
            "<p class=\"lead\" style=\"color:red\" onclick=\"x()\" title=\"T\">kept <a href=\"javascript:alert(1)\">bad</a></p>",
            "<div><h2>Title</h2><p>relative <a href=\"../up/page.html\">up</a> and <a href=\"page 2.html\">spaced</a></p></div>",
            "<pre><code>if (a &lt; b &amp;&amp; c) {\n  return;\n}</code></pre>", "<pre>\nx</pre>", "a<pre>\n\n<b>x</b>\n</pre>\n",
        ]
        for html in typical {
            for base in bases {
                XCTAssertTrue(check(html, base: base), "expected the fast path for \(html)")
            }
        }
    }

    func testUnusualInputsFallBackToLibXML() {
        let unusual = [
            "<table><tr><td>x</td></tr></table>", "<p>a<p>b", "<b>unclosed", "<!-- c -->x",
            "<P>upper</P>", "<font>x</font>", "<script>x</script>", "a &bogus; b", "&copy 2024",
            "<a href=unquoted>x</a>", "x\r\ny", "&#146;", "x<wbr>", "a\u{FEFF}b<b>c</b>", "<a title=\"a\nb\">x</a>",
            "<em><a>x</em></a>", "<p>x</br></p>", "<div><p>a</div>",
        ]
        for html in unusual {
            XCTAssertNil(FastSanitizer.sanitize(html, base: nil), "expected a fallback for \(html)")
            for base in bases { check(html, base: base) }
        }
    }

    /// What libxml2 closes on its own (a start tag that ends an open element, an end tag of an
    /// element that is not open) stays on the fast path, with libxml2's tree written out.
    func testImpliedEndsAndStrayEndTagsTakeTheFastPath() {
        let cases = [
            "<p>a <a href=\"http://e.example/1\"><a href=\"http://e.example/2\">b</a></a> c</p>",
            "</p>stray", "<p>a</b></p>", "<div><p>a<div>b</div></p></div>", "<ul><li>one<li>two</li></ul>",
            "<p>one<p>two</p>", "<dl><dt>t<dd>d</dd></dl>",
        ]
        for html in cases {
            for base in bases { XCTAssertTrue(check(html, base: base), "expected the fast path for \(html)") }
        }
        XCTAssertEqual(FastSanitizer.sanitize("<a href=\"http://e.example/1\">x<a href=\"http://e.example/2\">y</a></a>", base: nil),
                       "<a href=\"http://e.example/1\">x</a><a href=\"http://e.example/2\">y</a>")
    }

    func testFixturesMatchLibXML() throws {
        struct Corpus: Decodable { var cases: [SanitizeCase] }
        let corpus = try JSONDecoder().decode(Corpus.self, from: Fixtures.data("markup/sanitize-cases.json"))
        for c in corpus.cases {
            for base in bases { check(c.html, base: base) }
        }
    }

    func testRandomTagSoupMatchesLibXML() {
        var rng = Rand(state: 0x9E37_79B9_7F4A_7C15)
        var fast = 0
        for k in 0..<2000 {
            let html = k % 2 == 0 ? Self.soup(&rng) : Self.nested(&rng, depth: 0)
            if check(html, base: bases[k % bases.count]) { fast += 1 }
        }
        // The generators are meant to exercise the fast path too.
        XCTAssertGreaterThan(fast, 100)
    }

    // MARK: - generators

    struct Rand {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(n))
        }
        mutating func pick<T>(_ a: [T]) -> T { a[next(a.count)] }
    }

    static let values = [
        "http://a.example/x", "https://b.example/y?q=1&amp;r=2", "/rel/path", "../up", "javascript:alert(1)",
        "java&#x09;script:x", "data:image/png;base64,AAA", "data:text/html,x", "mailto:a@b", "1", "0", "100%", "12px",
        " 5 ", "x y", "", "&lt;&gt;", "&eacute;&#146;&#x2019;", "#frag", "?q", "//proto.rel/z",
        "http://feeds.feedburner.com/~r/x", "http://x/pixel.gif", " http://sp.example/a b ", "a'b", "&#39;", "&quot;", "a\"b",
    ]
    static let attributes = [
        "href", "src", "alt", "title", "width", "height", "style", "onclick", "class", "id", "lang", "dir", "cite",
        "colspan", "span", "start", "value", "type", "poster", "HREF", "xml:lang", "data-x", "datetime",
    ]
    static let texts = [
        "hello", "&amp;", "&nbsp;", "&copy;", "&copy 2024", "a < b", "x > y", "\"q\"", "é", "東京", "\r\n", "\n", "\t", " ",
        "&#0;", "&#146;", "&#8217;", "&#x2014;", "&rsquo;", "&hellip;", "&notit;", "&bogus;", "]]>", "&", "\u{1}", "🚀", "€",
        // The non-ASCII the fast path looks at: C1 controls, no-break space, U+F000...U+FFFF.
        "\u{85}x", "a\u{9F}", "\u{A0}", "\u{FEFF}", "\u{F8FF}", "\u{FFFD}", "ü\u{A0}ü",
    ]

    static let plainTexts = [
        "hello", "&amp;", "&nbsp;", "&copy;", "&lt;", "&gt;", "&quot;", "x > y", "\"q\"", "é", "東京", "\n", " ", "\t",
        "&#8217;", "&#x2014;", "&#39;", "&rsquo;", "&hellip;", "&eacute;", "€", "🚀", "\n\n", "  ",
    ]

    /// Anything goes: unknown, dropped and misnested tags, odd quoting.
    static func soup(_ r: inout Rand) -> String {
        let tags = ["p", "a", "img", "b", "i", "div", "span", "br", "hr", "script", "style", "font", "table", "tr", "td",
                    "li", "ul", "ol", "pre", "code", "iframe", "embed", "source", "video", "wbr", "h1", "blockquote", "q",
                    "svg", "noscript", "title", "head", "meta", "xmp", "textarea", "dl", "dt", "dd", "em", "A", "IMG",
                    "x:y", "my-el", "!--", "?xml", "!DOCTYPE"]
        var s = ""
        for _ in 0..<(1 + r.next(30)) {
            switch r.next(6) {
            case 0, 1:
                s += "<" + r.pick(tags)
                for _ in 0..<r.next(4) {
                    s += " " + r.pick(attributes)
                    switch r.next(4) {
                    case 0: break
                    case 1: s += "=\"" + r.pick(values) + "\""
                    case 2: s += "='" + r.pick(values) + "'"
                    default: s += "=" + r.pick(values).replacingOccurrences(of: " ", with: "")
                    }
                }
                s += r.next(8) == 0 ? "/>" : (r.next(20) == 0 ? "" : ">")
            case 2:
                s += "</" + r.pick(tags) + ">"
            default:
                s += r.pick(texts)
            }
        }
        return s
    }

    /// Well nested markup, mostly of the kind the fast path takes.
    static func nested(_ r: inout Rand, depth: Int) -> String {
        let tags = ["p", "br", "hr", "div", "span", "blockquote", "h1", "h3", "ul", "ol", "li", "dl", "dt", "dd", "a",
                    "em", "strong", "b", "i", "u", "s", "code", "small", "sub", "sup", "abbr", "q", "cite", "del", "ins",
                    "img", "tt", "address", "p", "em", "a", "table", "pre", "font", "wbr"]
        var s = ""
        for _ in 0..<(1 + r.next(5)) {
            if r.next(3) == 0 || depth > 3 { s += r.next(8) == 0 ? r.pick(texts) : r.pick(plainTexts); continue }
            let t = r.pick(tags)
            s += "<" + t
            for _ in 0..<r.next(4) {
                s += (r.next(5) == 0 ? "\n" : " ") + (r.next(4) == 0 ? r.pick(attributes) : r.pick(["href", "src", "alt", "title", "width", "class"]))
                if r.next(5) != 0 { s += r.next(3) == 0 ? "='" + r.pick(values) + "'" : "=\"" + r.pick(values) + "\"" }
            }
            if ["br", "hr", "img", "wbr"].contains(t) { s += r.next(3) == 0 ? " />" : ">"; continue }
            s += ">" + nested(&r, depth: depth + 1) + "</" + t + ">"
        }
        return s
    }
}

/// `WebAddress` parses printable-ASCII URLs on bytes; the general path must agree. A trailing
/// no-break space (white space to `trimmed`, not ASCII) sends the same URL down the general path.
final class WebAddressFastPathTests: XCTestCase {
    func testByteParsingMatchesTheGeneralPath() {
        let parts = ["http:", "HTTPS:", "mailto:", "//", "a.example", "A.Example", "[", "]", "[::1]", "U@", "/", "..", ".", "?", "#", "x", ":",
                     "@", "8080", "q=1&r", "javascript:", "%20", "-", "+", "1"]
        var rng = FastSanitizerTests.Rand(state: 42)
        for _ in 0..<3000 {
            var s = ""
            for _ in 0..<rng.next(10) { s += rng.pick(parts) }
            let fast = WebAddress(parsing: s), general = WebAddress(parsing: s + "\u{A0}")
            XCTAssertEqual(fast, general, s)
            XCTAssertEqual(WebAddress(parsing: " \r\n\t" + s + "\n "), general, s)
            XCTAssertEqual(fast.host, general.host, s)
            XCTAssertEqual(WebAddress.resolve(s, against: "http://h.example/a/b?c"), WebAddress.resolve(s + "\u{A0}", against: "http://h.example/a/b?c"), s)
        }
    }
}

/// The closing pairs written into the source must be what libxml2 measures.
final class HTMLStructureTableTests: XCTestCase {
    func testWrittenPairsMatchMeasuredOnes() throws {
        let version = HTMLStructure.libxmlVersion
        let measured = HTMLStructure.measure()
        XCTAssertGreaterThan(measured.count, 10)
        guard version == HTMLStructure.measuredVersion else {
            throw XCTSkip("libxml2 \(version) is measured at run time; the written table is for \(HTMLStructure.measuredVersion)")
        }
        XCTAssertEqual(HTMLStructure.parse(HTMLStructure.measuredPairs), measured,
                       "regenerate measuredPairs:\n\(HTMLStructure.format(measured))")
    }
}

/// The byte entry hands its output over as bytes: ill-formed input must come out repaired
/// (well-formed bytes), as the String entry does.
final class SanitizerBytesTests: XCTestCase {
    func testIllFormedInputComesOutRepaired() {
        let inputs: [[UInt8]] = [
            Array("<p>ok</p>".utf8), Array("<p>a ".utf8) + [0xC3, 0x28] + Array(" b</p>".utf8),
            Array("<em>x</em>".utf8) + [0xED, 0xA0, 0x80], [0xFF, 0x3C, 0x62, 0x3E, 0x78, 0x3C, 0x2F, 0x62, 0x3E],
            Array("plain ".utf8) + [0xF4, 0x90, 0x80, 0x80], Array("<a href=\"http://h.example/".utf8) + [0xC0] + Array("\">x</a>".utf8),
        ]
        for bytes in inputs {
            let text = HTMLSanitizer.sanitizedText(utf8: bytes, base: nil)
            XCTAssertTrue(text.withUTF8(UTF8Text.isWellFormed), "\(bytes)")
            XCTAssertEqual(text.string, HTMLSanitizer.sanitize(String(decoding: bytes, as: UTF8.self), base: nil), "\(bytes)")
        }
    }
}

/// The sanitizer's lookup tables of packed names answer as the dictionaries they are built from.
final class PackedNameTableTests: XCTestCase {
    func testLookupsMatchTheDictionary() {
        var rng = FastSanitizerTests.Rand(state: 7)
        for size in [0, 1, 3, 30, 200] {
            var dictionary: [UInt64: Int] = [:]
            while dictionary.count < size { dictionary[UInt64(1 + rng.next(1 << 20))] = rng.next(1000) }
            let table = PackedNameTable(dictionary)
            for (key, value) in dictionary { XCTAssertEqual(table[key], value) }
            for _ in 0..<500 {
                let key = UInt64(rng.next(1 << 21))
                XCTAssertEqual(table[key], dictionary[key], "\(key)")
            }
        }
    }
}

final class FastSanitizerNamesTests: XCTestCase {
    func testSafeNamesAreTheEntityTablesCharacters() {
        XCTAssertEqual(FastSanitizer.safeCharacters.count, 30)
        for (name, value) in FastSanitizer.safeCharacters {
            XCTAssertEqual(HTMLEntities.characters(named: name), value, name)
        }
    }
}
