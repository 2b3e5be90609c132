import FeedModel
import FeedParsing
import XCTest

/// Encodings from the byte order mark, the declaration, or the caller's hint; repair of
/// windows-1252 bytes in documents that claim UTF-8.
final class EncodingTests: XCTestCase {
    private let title = "Café — “quotes”"

    func testUTF16WithAndWithoutBOM() throws {
        XCTAssertEqual(try parseFixture("encoding/utf16le-bom.xml").feed.title, title)
        XCTAssertEqual(try parseFixture("encoding/utf16be-nobom.xml").feed.title, title)
        XCTAssertEqual(try parseFixture("encoding/utf16be-nobom.xml").cards.first?.title, "Über naïve")
    }

    func testDeclaredLatin1() throws {
        XCTAssertEqual(try parseFixture("encoding/latin1-declared.xml").feed.title, "Café - \"quotes\"")
    }

    func testWindows1252BytesInUTF8AreRepaired() throws {
        let f = try parseFixture("encoding/cp1252-in-utf8.xml")
        XCTAssertEqual(f.feed.title, "Mixed été")
        XCTAssertEqual(f.cards.first?.title, "Café “quoted” – dash")
        XCTAssertTrue(f.warnings.contains { $0.contains("windows-1252") }, "\(f.warnings)")
    }

    func testCharsetHintWhenTheDocumentSaysNothing() throws {
        let f = try parseFixture("encoding/koi8r-nodecl.xml", options: ParseOptions(charset: "koi8-r"))
        XCTAssertEqual(f.feed.title, "Привет")
    }

    func testDeclarationBeatsAWrongHint() throws {
        let f = try parseFixture("encoding/latin1-declared.xml", options: ParseOptions(charset: "utf-8"))
        XCTAssertEqual(f.feed.title, "Café - \"quotes\"")
    }

    func testHintOfLatin1OverValidUTF8IsIgnored() throws {
        let f = try parseText(rss("<item><title>naïve</title></item>"), options: ParseOptions(charset: "iso-8859-1"))
        XCTAssertEqual(f.cards[0].title, "naïve")
    }

    func testIconvEncodings() throws {
        XCTAssertEqual(try parseFixture("encoding/big5-declared.xml").feed.title, "中文標題")
    }

    func testUnknownDeclaredEncodingFallsBackToUTF8() throws {
        let f = try parseText("<?xml version='1.0' encoding='x-no-such-charset'?>" + rss("<item><title>ok é</title></item>").dropFirst(21))
        XCTAssertEqual(f.cards.first?.title, "ok é")
    }
}
