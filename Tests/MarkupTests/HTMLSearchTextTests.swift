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
}
