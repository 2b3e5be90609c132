import FeedModel
import TestSupport
import XCTest
@testable import FeedParsing

/// The prepass (`XMLPrepass`) turns text with references into CDATA for libxml2: the bytes it
/// writes, and the same cards as the reading without that step, whole or in chunks.
final class PrepassTests: XCTestCase {
    private func prepass(_ text: String, handOver: TextHandOver = .cdata, chunk: Int? = nil) -> String {
        let bytes = Array(text.utf8)
        let pass = XMLPrepass(handOver: handOver)
        var out: [UInt8] = []
        let size = max(1, chunk ?? bytes.count)
        var start = 0
        repeat {
            let end = min(bytes.count, start + size)
            bytes[start..<end].withUnsafeBufferPointer { pass.process($0, final: end == bytes.count, into: &out) }
            start = end
        } while start < bytes.count
        return String(decoding: out, as: UTF8.self)
    }

    func testEscapedTextBecomesOneCDATASection() {
        XCTAssertEqual(prepass("<d>&lt;p&gt;Hi &amp; bye&lt;/p&gt;</d>"), "<d><![CDATA[<p>Hi & bye</p>]]></d>")
        XCTAssertEqual(prepass("<d>Plain text</d>"), "<d>Plain text</d>", "text without references stays text")
        XCTAssertEqual(prepass("<d>5 &#8364; &#x1F600;</d>"), "<d>5 <![CDATA[€ 😀]]></d>", "numeric references decoded")
        XCTAssertEqual(prepass("<d>caf&#233;</d>"), "<d>caf&#233;</d>", "a possible lead of double-encoded UTF-8 goes the old way")
        XCTAssertEqual(prepass("<d>&#150;</d>"), "<d><![CDATA[–]]></d>", "windows-1252 numbers read as meant")
    }

    func testAttributesAreRewrittenNeverTurnedIntoCDATA() {
        XCTAssertEqual(prepass(#"<a href="x?a=1&amp;b=2" t='1>2'>&lt;</a>"#),
                       #"<a href="x?a=1&#38;b=2" t='1>2'><![CDATA[<]]></a>"#)
        XCTAssertEqual(prepass("<a b=\"&lt;\"/>&gt;"), "<a b=\"&#60;\"/><![CDATA[>]]>")
    }

    func testOtherReferencesEndTheSection() {
        // An HTML name and a possible lead byte of double-encoded UTF-8 go the old way.
        XCTAssertEqual(prepass("<d>&lt;b&gt;&eacute;&lt;/b&gt;</d>"),
                       "<d><![CDATA[<b>]]>&#233;<![CDATA[</b>]]></d>")
        XCTAssertEqual(prepass("<d>&lt;&#226;&#128;&#166;</d>"), "<d><![CDATA[<]]>&#8230;</d>")
        XCTAssertEqual(prepass("<d>&lt;a &bogus; b</d>"), "<d><![CDATA[<a ]]>&#38;bogus; b</d>")
        XCTAssertEqual(prepass("<d>&lt;a & b</d>"), "<d><![CDATA[<a ]]>&#38; b</d>")
    }

    func testNoSectionEndsEarly() {
        XCTAssertEqual(prepass("<d>&lt;x]]&gt;y</d>"), "<d><![CDATA[<x]]]]><![CDATA[>y]]></d>")
        XCTAssertEqual(prepass("<d>&amp;]]>z</d>"), "<d><![CDATA[&]]]]><![CDATA[>z]]></d>")
        XCTAssertEqual(prepass("<d>&#93;&#93;&#62;</d>"), "<d><![CDATA[]]]]><![CDATA[>]]></d>")
    }

    func testLineEndsAndForbiddenCharacters() {
        XCTAssertEqual(prepass("<d>&lt;a\r\nb\rc\u{01}d</d>"), "<d><![CDATA[<a\nb\ncd]]></d>")
        XCTAssertEqual(prepass("<d>&lt;a</d>"), prepass("<d>&lt;a</d>", chunk: 1))
    }

    func testAnUnfinishedSectionIsClosedAtTheEnd() {
        // ... and so are the elements still open (a cut document keeps the item it was cut in).
        XCTAssertEqual(prepass("<d>&lt;a"), "<d><![CDATA[<a]]></d>")
    }

    /// With the side channel the texts leave the stream: libxml2 sees an instruction per text,
    /// named by this document's token and numbered; CDATA sections go the same way.
    func testTheSideChannelKeepsTextsOutOfTheStream() {
        let pass = XMLPrepass(handOver: .sideChannel)
        let side = try! XCTUnwrap(pass.side)
        var out: [UInt8] = []
        Array("<d>&lt;p&gt;Hi]]&gt;</d><e><![CDATA[raw <b>]]></e><f><![CDATA[]]></f>".utf8).withUnsafeBufferPointer {
            pass.process($0, final: true, into: &out)
        }
        let token = String(decoding: side.token.dropLast(), as: UTF8.self)
        XCTAssertTrue(token.hasPrefix("f") && token.count == 13, token)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "<d><?\(token) 0?></d><e><?\(token) 1?></e><f></f>")
        var taken: [String] = []
        for n in [1, 0, 1, 2] { if let text = side.take(n) { taken.append(String(decoding: text, as: UTF8.self)) } }
        XCTAssertEqual(taken, ["raw <b>"], "text 1; then 0 was skipped, 1 taken, 2 never written")
        XCTAssertNotEqual(SideText().token, side.token, "a token per document")
    }

    /// Texts nobody takes (libxml2 stopped reading) are dropped past `maxWaitingBytes`; numbers
    /// go on counting, and the newest text can still be taken.
    func testTextsNobodyTakesAreDroppedPastTheBound() {
        let side = SideText()
        let block = [UInt8](repeating: 0x61, count: 1 << 20)
        var numbers: [Int] = []
        for _ in 0..<6 { block.withUnsafeBufferPointer { numbers.append(side.keep($0)!) } }
        XCTAssertEqual(numbers, [0, 1, 2, 3, 4, 5])
        var taken = 0
        taken += side.take(0)?.count ?? 0
        XCTAssertEqual(taken, 0, "text 0 was dropped")
        taken += side.take(5)?.count ?? 0
        XCTAssertEqual(taken, 1 << 20)
        XCTAssertNil([UInt8]().withUnsafeBufferPointer { side.keep($0) }, "an empty text needs no instruction")
    }

    /// A document given whole (as `feeds update` does) with more text than the side channel lets
    /// wait: every text still arrives, as libxml2 reads it slice by slice.
    func testAWholeDocumentWithMuchTextLosesNone() throws {
        let paragraph = String(repeating: "&lt;p&gt;word &amp; word&lt;/p&gt;", count: 60)
        let items = (0..<2_600).map { "<item><guid>g\($0)</guid><description>\(paragraph)</description></item>" }
        let doc = Array(rss(items.joined()).utf8)
        XCTAssertGreaterThan(doc.count, SideText.maxWaitingBytes)
        let feed = try FeedParser.parse(doc)
        XCTAssertEqual(feed.cards.count, 2_600)
        let expected = String(repeating: "<p>word &amp; word</p>", count: 60)
        XCTAssertEqual(feed.cards.filter { $0.description == expected }.count, 2_600)
    }

    /// Texts longer than the prepass's slices, with characters of two to four bytes everywhere
    /// (a slice may end inside one): the same cards as libxml2's own reading.
    func testLongTextsAcrossSlicesKeepEveryCharacter() throws {
        let piece = "&lt;p&gt;é€😀 ü&amp;x\r\n"
        for shift in 0..<4 {
            let text = String(repeating: "a", count: shift) + String(repeating: piece, count: 4_000)
            let cdata = "<![CDATA[" + String(repeating: "é€😀 ", count: 9_000) + "]]>"
            let doc = Array(rss("<item><guid>g</guid><description>\(text)</description><content:encoded xmlns:content=\"http://purl.org/rss/1.0/modules/content/\">\(cdata)</content:encoded></item>").utf8)
            XCTAssertGreaterThan(doc.count, 2 * 65_536)
            let plain = cards(doc, .plain)
            XCTAssertTrue(plain.contains("😀"), "shift \(shift)")
            XCTAssertEqual(cards(doc, .sideChannel), plain, "shift \(shift)")
            XCTAssertEqual(cards(doc, .sideChannel, chunk: 10_007), plain, "shift \(shift) in chunks")
        }
    }

    /// Any split of the input gives the same bytes.
    func testChunksDoNotMatter() {
        let doc = "<?xml version=\"1.0\"?><r a=\"&amp;>\">&lt;p&gt;x]]&gt;\r\n&#x263A;&eacute;<![CDATA[k]]><!-- &lt; -->&lt;</r>"
        let whole = prepass(doc)
        for size in 1...12 { XCTAssertEqual(prepass(doc, chunk: size), whole, "chunks of \(size)") }
    }

    // MARK: - Same cards either way

    /// The feed and its cards, the input pushed whole or in chunks of `chunk` bytes.
    private func parse(_ bytes: [UInt8], _ options: ParseOptions, chunk: Int?) throws -> (feed: FeedInfo, cards: [Card]) {
        var cards: [Card] = []
        let parser = FeedStreamParser(options: options) { cards.append($0) }
        let size = max(1, chunk ?? bytes.count)
        var i = 0
        while i < bytes.count {
            try parser.push(Array(bytes[i..<min(bytes.count, i + size)]))
            i += size
        }
        return (try parser.finish().feed, cards)
    }

    private func cards(_ bytes: [UInt8], _ handOver: TextHandOver, chunk: Int? = nil) -> String {
        var options = ParseOptions(baseURL: "https://example.org/feed")
        options.textHandOver = handOver
        guard let feed = try? parse(bytes, options, chunk: chunk) else { return "error" }
        return CardJSON.feed(feed.feed) + feed.cards.map { CardJSON.card($0) }.joined(separator: "\n")
    }

    func testTheFixturesGiveTheSameCardsEitherWay() throws {
        let folder = Fixtures.url("feeds")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { ["xml", "rss", "atom"].contains($0.pathExtension) }
        XCTAssertGreaterThan(files.count, 10)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            let plain = cards(bytes, .plain)
            XCTAssertEqual(cards(bytes, .cdata), plain, file.lastPathComponent)
            XCTAssertEqual(cards(bytes, .sideChannel), plain, file.lastPathComponent)
            XCTAssertEqual(cards(bytes, .sideChannel, chunk: 7), plain, file.lastPathComponent + " in chunks")
        }
    }

    /// Random feeds of the pieces that matter here (escaped markup, references of every kind,
    /// `]]>`, quotes and `>` in attributes, CDATA, comments, line ends): the same cards. (Not a
    /// literal `]]>` in text: XML forbids it, and libxml2's recovery drops a `]` that the CDATA
    /// reading keeps.)
    func testRandomDocumentsGiveTheSameCardsEitherWay() {
        var rng = SplitMix(seed: 0x5eed)
        let pieces = ["&lt;p&gt;", "&lt;/p&gt;", "&amp;", "&amp;eacute;", "&quot;", "&apos;", "&#233;", "&#x1F600;",
                      "&#150;", "&#0;", "&#226;&#128;&#166;", "&eacute;", "&nbsp;", "&bogus;", "& ", "]]&gt;",
                      "&#93;&#93;&#62;", "\r\n", "\r", "text ", "<![CDATA[c]]>", "<!-- &lt; -->", "&lt;img src=\"a.png\"&gt;",
                      "&lt;a href=&quot;/x&quot;&gt;l&lt;/a&gt;", "&lt;script&gt;x&lt;/script&gt;", "<b>bold</b>", "é", ">"]
        for round in 0..<300 {
            var items = ""
            for n in 0..<(1 + rng.next() % 3) {
                var text = ""
                for _ in 0..<(rng.next() % 12) { text += pieces[rng.next() % pieces.count] }
                let attribute = rng.next() % 2 == 0 ? " a=\"1>2 &amp; &lt;\"" : ""
                items += "<item\(attribute)><title>t\(n) \(text)</title><description>\(text)</description><guid>g\(n)</guid></item>"
            }
            let doc = Array(rss(items).utf8)
            let plain = cards(doc, .plain)
            let text = String(decoding: doc, as: UTF8.self)
            XCTAssertEqual(cards(doc, .cdata), plain, "round \(round): \(text)")
            XCTAssertEqual(cards(doc, .sideChannel), plain, "round \(round): \(text)")
            XCTAssertEqual(cards(doc, .sideChannel, chunk: 1 + rng.next() % 40), plain, "round \(round) in chunks: \(text)")
        }
    }
}

/// A small deterministic generator (SplitMix64).
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
    }
}
