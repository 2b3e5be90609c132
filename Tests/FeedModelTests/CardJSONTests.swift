import XCTest
import FeedModel

final class CardJSONTests: XCTestCase {
    // MARK: - string escaping

    func testPlainStringIsQuoted() {
        XCTAssertEqual(JSONText.quoted(""), "\"\"")
        XCTAssertEqual(JSONText.quoted("hello world"), "\"hello world\"")
    }

    func testQuoteAndBackslashAreEscaped() {
        XCTAssertEqual(JSONText.quoted("say \"hi\""), #""say \"hi\"""#)
        XCTAssertEqual(JSONText.quoted(#"C:\path\file"#), #""C:\\path\\file""#)
        XCTAssertEqual(JSONText.quoted(#"\""#), #""\\\"""#)
    }

    func testSlashIsNotEscaped() {
        XCTAssertEqual(JSONText.quoted("</script>"), "\"</script>\"")
    }

    func testShortEscapesForNewlineReturnAndTab() {
        XCTAssertEqual(JSONText.quoted("a\nb\rc\td"), #""a\nb\rc\td""#)
        XCTAssertEqual(JSONText.quoted("a\r\nb"), #""a\r\nb""#, "CR LF is one Character but two escapes")
    }

    func testOtherControlCharactersUseUnicodeEscapes() {
        XCTAssertEqual(JSONText.quoted("\u{0}"), #""\u0000""#)
        XCTAssertEqual(JSONText.quoted("\u{1}"), #""\u0001""#)
        XCTAssertEqual(JSONText.quoted("\u{8}"), #""\u0008""#)
        XCTAssertEqual(JSONText.quoted("\u{C}"), #""\u000c""#)
        XCTAssertEqual(JSONText.quoted("\u{1B}[0m"), #""\u001b[0m""#)
        XCTAssertEqual(JSONText.quoted("a\u{1F}b"), #""a\u001fb""#)
    }

    func testEveryControlCharacterIsEscaped() {
        for v in UInt32(0)..<0x20 {
            let q = JSONText.quoted(String(Character(Unicode.Scalar(v)!)))
            XCTAssertTrue(q.unicodeScalars.allSatisfy { $0.value >= 0x20 }, "U+\(String(v, radix: 16)) -> \(q)")
            XCTAssertTrue(q.hasPrefix("\"\\"), q)
        }
    }

    /// The writer stores whole words and works in blocks of 4,096 bytes: random strings, short and
    /// longer than a block, come out as a plain escaper, one scalar at a time, writes them.
    func testRandomStringsAgainstAPlainEscaper() {
        func reference(_ s: String) -> String {
            var out = "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{2028}": out += "\\u2028"
                case "\u{2029}": out += "\\u2029"
                default:
                    if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
                }
            }
            return out + "\""
        }
        var state: UInt64 = 0xFEED_FACE_0BAD_F00D
        func next(_ n: Int) -> Int { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return Int(state % UInt64(n)) }
        let pieces = ["a", "plain text ", "\"", "\\", "\n", "\r\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}",
                      "\u{2027}", "—", "é", "🚀", "<p class=\"x\">"]
        for round in 0..<400 {
            var s = ""
            let count = round % 10 == 0 ? 1500 + next(1000) : next(40)
            for _ in 0..<count { s += pieces[next(pieces.count)] }
            XCTAssertEqual(JSONText.quoted(s), reference(s), "round \(round)")
        }
    }

    func testDeleteAndSpaceAreNotEscaped() {
        XCTAssertEqual(JSONText.quoted(" \u{7F}"), "\" \u{7F}\"")
    }

    func testLineAndParagraphSeparatorsAreEscaped() {
        XCTAssertEqual(JSONText.quoted("a\u{2028}b"), #""a\u2028b""#)
        XCTAssertEqual(JSONText.quoted("a\u{2029}b"), #""a\u2029b""#)
    }

    func testNonASCIIIsKeptAsUTF8() {
        XCTAssertEqual(JSONText.quoted("Árvíztűrő tükörfúrógép"), "\"Árvíztűrő tükörfúrógép\"")
        XCTAssertEqual(JSONText.quoted("日本語 😀 e\u{301}"), "\"日本語 😀 e\u{301}\"")
        XCTAssertEqual(JSONText.quoted("\u{A0}\u{85}"), "\"\u{A0}\u{85}\"", "C1 and NBSP are not JSON control characters")
        XCTAssertFalse(JSONText.quoted("Ünïcödé").contains("\\u"))
    }

    // MARK: - object writer

    /// The streaming writer (`append`) writes exactly what `card` returns.
    func testAppendWritesWhatCardReturns() {
        var cards: [Card] = [Card(), Card(id: "x")]
        var full = Card(id: "urn:1 \"q\"", title: "T\u{2028}\u{2029}\u{1}\t\n\r\\", description: "<p>é</p>", link: "http://a.test/",
                        image: "http://a.test/i.png", published: Timestamp(secondsSince1970: 1_700_000_000),
                        updated: Timestamp(secondsSince1970: -62_135_596_800 - 86_400), author: "A, B",
                        enclosures: [Enclosure(url: "http://a.test/a.mp3", type: "audio/mpeg", length: 12),
                                     Enclosure(url: "http://a.test/b")])
        cards.append(full)
        full.id = ""
        cards.append(full)
        full.id = nil
        full.link = nil
        full.kind = .image
        cards.append(full)
        full.published = Timestamp(secondsSince1970: 253_402_300_800)   // year 10000
        cards.append(full)
        for c in cards {
            // A small sink, so that appending grows it on the way.
            var out = ByteSink(capacity: 8)
            out.append(contentsOf: "prefix")
            CardJSON.append(c, to: &out)
            XCTAssertEqual(out.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }, "prefix" + CardJSON.card(c))
            // Descriptions held as bytes write the same as held as a String.
            var bytesCard = c
            bytesCard.descriptionText = c.description.map { UTF8Text(validating: Array($0.utf8)) }
            XCTAssertEqual(CardJSON.card(bytesCard), CardJSON.card(c))
        }
    }

    func testObjectWriterFieldsInOrder() {
        var w = JSONObjectWriter()
        w.field("s", "x")
        w.field("n", 42 as Int?)
        w.field("none", nil as String?)
        w.field("noInt", nil as Int?)
        w.field("yes", true)
        w.field("no", false)
        w.raw("list", "[1,2]")
        XCTAssertEqual(w.finish(), #"{"s":"x","n":42,"none":null,"noInt":null,"yes":true,"no":false,"list":[1,2]}"#)
    }

    func testEmptyObjectAndEscapedNames() {
        XCTAssertEqual(JSONObjectWriter().finish(), "{}")
        var w = JSONObjectWriter()
        w.field("a\"b", "v")
        XCTAssertEqual(w.finish(), #"{"a\"b":"v"}"#)
    }

    func testNegativeIntField() {
        var w = JSONObjectWriter()
        w.field("n", -7 as Int?)
        XCTAssertEqual(w.finish(), #"{"n":-7}"#)
    }

    /// The writers under literal names (`text`, `number`, `texts`, `date`) write what the
    /// String-named ones write, for edge values of each.
    func testLiteralNamedFieldsMatchStringNamedOnes() {
        let numbers: [Int?] = [nil, 0, 7, -7, 9, 10, 99, 100, 1_000_000, Int.max, Int.min, Int.max / 10, -(Int.max / 10) - 9]
        for n in numbers {
            var fast = JSONObjectWriter(), slow = JSONObjectWriter()
            fast.number("n", n)
            slow.field("n", n)
            XCTAssertEqual(fast.finish(), slow.finish(), "\(String(describing: n))")
        }
        for t in [nil, "", "plain", "quote \" and \\ backslash", "line\nbreak\u{0}\u{1F}", "\u{2028}é😀"] as [String?] {
            var fast = JSONObjectWriter(), slow = JSONObjectWriter()
            fast.text("t", t)
            slow.field("t", t)
            XCTAssertEqual(fast.finish(), slow.finish())
        }
        for list in [[], ["a"], ["a \"b\"", "ü", "\u{7}"]] as [[String]] {
            var fast = JSONObjectWriter(), slow = JSONObjectWriter()
            fast.texts("l", list)
            slow.raw("l", "[" + list.map(JSONText.quoted).joined(separator: ",") + "]")
            XCTAssertEqual(fast.finish(), slow.finish())
        }
        for seconds in [nil, 0, -1, 1_700_000_000, -62_135_596_800, 253_402_300_799] as [Int64?] {
            var fast = JSONObjectWriter(), slow = JSONObjectWriter()
            let time = seconds.map { Timestamp(secondsSince1970: $0) }
            fast.date("d", time)
            slow.field("d", time?.iso8601)
            XCTAssertEqual(fast.finish(), slow.finish())
        }
    }

    // MARK: - cards

    func testEmptyCardHasEveryFieldWithNulls() {
        let json = CardJSON.card(Card())
        XCTAssertEqual(json, #"{"id":null,"key":"hash:af63d24c8601db8e","title":null,"link":null,"description":null,"image":null,"published":null,"updated":null,"author":null,"enclosures":[],"kind":"article"}"#)
    }

    func testFullCard() {
        let card = Card(id: "tag:example.org,2024:1", title: "A \"quoted\" title", description: "<p>Line 1\nLine 2</p>",
                        link: "http://Example.org/a", image: "http://example.org/a.png",
                        published: Timestamp(year: 2024, month: 2, day: 29, hour: 12, minute: 34, second: 56),
                        updated: Timestamp(secondsSince1970: 0), author: "Zoë",
                        enclosures: [Enclosure(url: "http://example.org/a.mp3", type: "audio/mpeg", length: 12_345_678_901),
                                     Enclosure(url: "http://example.org/b.jpg")])
        let expected = #"{"id":"tag:example.org,2024:1","key":"id:tag:example.org,2024:1","title":"A \"quoted\" title","link":"http://Example.org/a","description":"<p>Line 1\nLine 2</p>","image":"http://example.org/a.png","published":"2024-02-29T12:34:56Z","updated":"1970-01-01T00:00:00Z","author":"Zoë","enclosures":[{"url":"http://example.org/a.mp3","type":"audio/mpeg","length":12345678901},{"url":"http://example.org/b.jpg","type":null,"length":null}],"kind":"article"}"#
        XCTAssertEqual(CardJSON.card(card), expected)
    }

    func testLinkKeyAndImageKind() {
        let card = Card(title: "pic", link: "HTTP://Example.org:80/x#y", kind: .image)
        let json = CardJSON.card(card)
        XCTAssertTrue(json.contains(#""key":"link:http://example.org/x""#), json)
        XCTAssertTrue(json.contains(#""link":"HTTP://Example.org:80/x#y""#), "the link is written as stored: \(json)")
        XCTAssertTrue(json.hasSuffix(#""kind":"image"}"#), json)
    }

    func testEnclosureLength() {
        func enclosures(_ e: Enclosure) -> String {
            let json = CardJSON.card(Card(enclosures: [e]))
            guard let start = json.range(of: #""enclosures":"#), let end = json.range(of: #","kind":"#) else { return json }
            return String(json[start.upperBound..<end.lowerBound])
        }
        XCTAssertEqual(enclosures(Enclosure(url: "http://e/a", type: "audio/ogg", length: 1)), #"[{"url":"http://e/a","type":"audio/ogg","length":1}]"#)
        XCTAssertEqual(enclosures(Enclosure(url: "http://e/a", length: 1 << 50)), #"[{"url":"http://e/a","type":null,"length":1125899906842624}]"#)
        // Outside 1 B...1 PiB a length is none (the card contract), 0 and 2^63-1 included.
        XCTAssertEqual(enclosures(Enclosure(url: "http://e/a", type: "audio/ogg", length: 0)), #"[{"url":"http://e/a","type":"audio/ogg","length":null}]"#)
        XCTAssertEqual(enclosures(Enclosure(url: "http://e/a", length: Int64.max)), #"[{"url":"http://e/a","type":null,"length":null}]"#)
        XCTAssertEqual(enclosures(Enclosure(url: "http://e/a")), #"[{"url":"http://e/a","type":null,"length":null}]"#)
    }

    func testExtraFieldsAreAppendedBeforeClosingBrace() {
        let json = CardJSON.card(Card(id: "1")) { w in
            w.field("source", "my feed")
            w.field("read", true)
        }
        XCTAssertTrue(json.hasSuffix(#""kind":"article","source":"my feed","read":true}"#), json)
        XCTAssertTrue(json.hasPrefix(#"{"id":"1","key":"id:1","#), json)
    }

    func testEscapingInsideCardFields() {
        let card = Card(id: "x", title: "tab\there", description: "a\u{2028}b\\c", author: "\u{1}")
        let json = CardJSON.card(card)
        XCTAssertTrue(json.contains(#""title":"tab\there""#), json)
        XCTAssertTrue(json.contains(#""description":"a\u2028b\\c""#), json)
        XCTAssertTrue(json.contains(#""author":"\u0001""#), json)
    }

    // MARK: - feed

    func testFeed() {
        XCTAssertEqual(CardJSON.feed(FeedInfo()), #"{"title":null,"link":null,"description":null,"image":null}"#)
        let f = FeedInfo(title: "Blog \"B\"", link: "http://b.example/", description: "<p>x</p>", image: "http://b.example/i.png",
                         refreshHintSeconds: 3600)
        XCTAssertEqual(CardJSON.feed(f), #"{"title":"Blog \"B\"","link":"http://b.example/","description":"<p>x</p>","image":"http://b.example/i.png"}"#)
    }
}
