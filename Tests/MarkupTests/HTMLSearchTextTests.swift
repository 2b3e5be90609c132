import XCTest
@testable import Markup

/// The words of sanitized HTML for the search index.
final class HTMLSearchTextTests: XCTestCase {
    func testTagsAreDroppedBlocksSeparateWordsInlineDoNot() {
        XCTAssertEqual(HTMLText.searchText("<p>one</p><p>two</p>"), "one two")
        XCTAssertEqual(HTMLText.searchText("<b>w</b>ord and <a href=\"https://x.example/a>b\">link</a>"), "word and link")
        XCTAssertEqual(HTMLText.searchText("<ul><li>a</li><li>b</li></ul>"), "a b")
        XCTAssertEqual(HTMLText.searchText("line<br>break"), "line break")
    }

    func testEntitiesAreDecodedAndCommentsSkipped() {
        XCTAssertEqual(HTMLText.searchText("Caf&eacute; &amp; cr&#232;me"), "Café & crème")
        XCTAssertEqual(HTMLText.searchText("a<!-- hidden words -->b"), "a b")
        XCTAssertEqual(HTMLText.searchText("&lt;p&gt; is text"), "<p> is text")
        XCTAssertEqual(HTMLText.searchText("1 < 2 and 3 > 2"), "1 < 2 and 3 > 2")
    }

    func testLimitCutsAtACharacterBoundary() {
        XCTAssertEqual(HTMLText.searchText("<p>abcdef</p>", limit: 3), "abc")
        let cut = HTMLText.searchText("ééé", limit: 3)   // é is two bytes
        XCTAssertEqual(cut, "é")
        XCTAssertEqual(HTMLText.searchText("日本語", limit: 7), "日本")
    }

    func testEmptyAndTagOnlyInput() {
        XCTAssertEqual(HTMLText.searchText(""), "")
        XCTAssertEqual(HTMLText.searchText("<img src=\"https://x.example/i.png\"><br/>"), "")
    }

    func testTagNamesMatchWhateverTheirCaseAndLength() {
        XCTAssertEqual(HTMLText.searchText("<B>w</B>ord <SPAN>in</SPAN>line"), "word inline")
        // Names that start like an inline one, or are longer than any, separate words.
        XCTAssertEqual(HTMLText.searchText("a<h1>b</h1>c<bdoxyz>d</bdoxyz>e<strongest>f</strongest>g"), "a b c d e f g")
        XCTAssertEqual(HTMLText.searchText("x<Strong>y</Strong>z<sub2>w</sub2>"), "xyz w")
    }

    func testSpacesAtTheEdgesAreTrimmedInsideKept() {
        XCTAssertEqual(HTMLText.searchText("  <p> two  spaces </p> \n"), "two  spaces")
        XCTAssertEqual(HTMLText.searchText("\t\tx"), "x")
    }

    /// The fast scan (runs copied whole, names packed) against a plain byte-by-byte reading of
    /// the same rules, on documents assembled at random from pieces that exercise every branch.
    func testAgreesWithAPlainReadingOnRandomDocuments() {
        let pieces = ["word", " ", "  ", "\n", "\t", "é", "日本", "<p>", "</p>", "<b>", "</B>", "<span class=\"x>y\">",
                      "<!-- c -->", "&amp;", "&eacute;", "&#233;", "&nope;", "<", " < ", ">", "<br/>", "<h1>", "\u{7F}", "x"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let document = (0..<Int.random(in: 0...30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            for limit in [Int.max, 7, 1] {
                XCTAssertEqual(HTMLText.searchText(document, limit: limit), Self.plainReading(document, limit: limit), "\(document.debugDescription) limit \(limit)")
            }
        }
    }

    private static func plainReading(_ html: String, limit: Int) -> String {
        let bytes = Array(html.utf8)
        var out: [UInt8] = []
        var reference = false
        var i = 0
        func space() { if let last = out.last, last != 0x20 { out.append(0x20) } }
        while i < bytes.count && out.count < limit {
            let b = bytes[i]
            if b == UInt8(ascii: "<"), i + 3 < bytes.count, Array(bytes[i + 1...i + 3]) == Array("!--".utf8) {
                i += 4
                while i + 2 < bytes.count, Array(bytes[i...i + 2]) != Array("-->".utf8) { i += 1 }
                i = min(bytes.count, i + 3)
                space()
                continue
            }
            if b == UInt8(ascii: "<") {
                var j = i + 1
                if j < bytes.count, bytes[j] == UInt8(ascii: "/") { j += 1 }
                let start = j
                while j < bytes.count, bytes[j] < 0x80, Character(UnicodeScalar(bytes[j])).isLetter || Character(UnicodeScalar(bytes[j])).isNumber { j += 1 }
                if j > start {
                    let name = String(decoding: bytes[start..<j], as: UTF8.self).lowercased()
                    var quote: UInt8 = 0
                    while j < bytes.count {
                        let c = bytes[j]
                        if quote != 0 { if c == quote { quote = 0 } } else if c == 34 || c == 39 { quote = c } else if c == UInt8(ascii: ">") { break }
                        j += 1
                    }
                    i = j + 1
                    if !["a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins", "kbd", "mark", "q", "s",
                         "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr"].contains(name) { space() }
                    continue
                }
            }
            if b == UInt8(ascii: "&") { reference = true }
            if b < 0x20 || b == 0x7F { space() } else if b != 0x20 || !out.isEmpty { out.append(b) }
            i += 1
        }
        if out.count >= limit {
            // Drop a character the limit cut in two.
            if let lead = out.lastIndex(where: { $0 & 0xC0 != 0x80 }), out[lead] >= 0xC0 {
                let length = out[lead] >= 0xF0 ? 4 : out[lead] >= 0xE0 ? 3 : 2
                if out.count - lead < length { out.removeSubrange(lead...) }
            }
        }
        while out.last == 0x20 { out.removeLast() }
        let text = String(decoding: out, as: UTF8.self)
        return reference ? HTMLEntities.decode(text) : text
    }
}
