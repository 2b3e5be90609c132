@testable import FeedParsing
import FeedModel
import TestSupport
import XCTest

/// Hostile JSON, by class: nesting past the limit, millions of tiny values, huge strings, many
/// keys, escapes everywhere, every truncation of a document, bytes that are not UTF-8. Each
/// gives the right values or a one-line error naming what was wrong; none traps.
final class JSONHostileShapesTests: XCTestCase {
    private func parse(_ text: String, limits: JSONLimits = .standard) throws -> JSONValue {
        try JSONValue.parse(Array(text.utf8), limits: limits)
    }

    private func error(_ bytes: [UInt8], limits: JSONLimits = .standard) -> String? {
        do {
            _ = try JSONValue.parse(bytes, limits: limits)
            return nil
        } catch let FeedParseError.invalidJSON(detail) {
            return detail
        } catch {
            return "unexpected error \(error)"
        }
    }

    private func error(_ text: String, limits: JSONLimits = .standard) -> String? { error(Array(text.utf8), limits: limits) }

    func testNestingUpToTheLimitReadsAndOneMoreIsAClearError() throws {
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let atLimit = String(repeating: open, count: 512) + "1" + String(repeating: close, count: 512)
            var v = try parse(atLimit)
            for _ in 0..<512 { v = open == "[" ? v[0] : v["a"] }
            XCTAssertEqual(v.int, 1)
            for depth in [513, 600, 100_000] {
                let deep = String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)
                XCTAssertEqual(error(deep), "the JSON nests deeper than 512 levels")
                // Unclosed, as an attacker would send it: the same error, not a truncation.
                XCTAssertEqual(error(String(repeating: open, count: depth)), "the JSON nests deeper than 512 levels")
            }
        }
        XCTAssertEqual(error("[[[[1]]]]", limits: JSONLimits(maxDepth: 3, maxValues: 100)), "the JSON nests deeper than 3 levels")
    }

    func testMillionsOfTinyValuesAreCountedAndTheBudgetIsAClearError() throws {
        for atom in ["0", "[]", "{}", "\"\"", "null", "true", "{\"a\":[]}"] {
            let count = 100_000
            let doc = "[" + Array(repeating: atom, count: count).joined(separator: ",") + "]"
            let v = try parse(doc)
            XCTAssertEqual(v.array.count, count, atom)
            XCTAssertEqual(v.array.reduce(0) { n, _ in n + 1 }, count, atom)
            let last = v[count - 1]
            XCTAssertEqual(last.isNull, atom == "null", atom)
            XCTAssertTrue(v[count].isNull)
            // What it costs: 12 bytes a value, keys included, and nothing else but the input.
            let f = try JSONFootprint.measure(Array(doc.utf8))
            XCTAssertEqual(f.values, 1 + count * (atom == "{\"a\":[]}" ? 3 : 1), atom)
            XCTAssertEqual(f.nodeBytes, f.values * 12)
            XCTAssertEqual(f.depth, atom.hasPrefix("{\"") ? 3 : atom.hasPrefix("[") || atom.hasPrefix("{") ? 2 : 1, atom)
            // The same under a budget smaller than the document: an error naming the budget.
            XCTAssertEqual(error(doc, limits: JSONLimits(maxDepth: 512, maxValues: 50_000)), "the JSON has more than 50000 values", atom)
        }
        let over = "[" + String(repeating: "0,", count: JSONLimits.standard.maxValues) + "0]"
        XCTAssertEqual(error(over), "the JSON has more than 4194304 values")
    }

    func testHugeStringsAndManyKeys() throws {
        let big = String(repeating: "é東😀a", count: 1 << 20)
        let v = try parse("{\"s\": \"\(big)\", \"t\": \"\(String(repeating: "\\n\\u00e9", count: 1 << 18))\"}")
        XCTAssertEqual(v["s"].string, big)
        XCTAssertEqual(v["t"].string, String(repeating: "\né", count: 1 << 18))
        let keys = (0..<200_000).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let o = try parse("{" + keys + ", \"k7\": \"last\"}")
        XCTAssertEqual(o["k199999"].int, 199_999)
        XCTAssertEqual(o["k0"].int, 0)
        XCTAssertEqual(o["k7"].string, "last")  // a repeated key: the last one, as before
        XCTAssertTrue(o["k200000"].isNull)
    }

    func testEscapesEverywhere() throws {
        let v = try parse(#"{"\u0074itle": "a\"b\\c\/d\be\ff\ng\rh\ti", "\ud83d\ude00": "\uD834\uDD1E\u00E9\u0000x", "k": "\u00e9\u0301"}"#)
        XCTAssertEqual(v["title"].string, "a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti")
        XCTAssertEqual(v["😀"].string, "𝄞é\u{0}x")
        XCTAssertEqual(v["k"].string?.unicodeScalars.map(\.value), [0xE9, 0x301])
        let f = try JSONFootprint.measure(Array(#"["\u00e9\ud83d\ude00\n\ud800", "\/"]"#.utf8))
        XCTAssertEqual(f.rawStringBytes, 26 + 2)
        XCTAssertEqual(f.decodedStringBytes, 2 + 4 + 1 + 3 + 1)  // never longer than written
        // Lone surrogates (high alone, low alone, high then a non-surrogate): U+FFFD each.
        let lone = try parse(#"["\ud83d", "\ude00x", "\ud83d\u0041", "a\udbff\udbffb", "\udc00\ud800"]"#)
        XCTAssertEqual(lone.array.map(\.string), ["\u{FFFD}", "\u{FFFD}x", "\u{FFFD}A", "a\u{FFFD}\u{FFFD}b", "\u{FFFD}\u{FFFD}"])
        for bad in [#"["\x"]"#, #"["\u12"]"#, #"["\u12G4"]"#, #"["\U0041"]"#, #"["\'"]"#] {
            XCTAssertTrue(error(bad)?.hasPrefix("invalid escape sequence in a string at byte ") ?? false, bad)
        }
    }

    /// Every proper prefix of a document that uses every kind of token is a truncation error.
    func testTruncationAtEveryByte() throws {
        let doc = Array(#"{"a": [1, -2.5e+3, "x\u00e9\"y", true, false, null, {"b": {}}, []], "é": "東京"}"#.utf8)
        _ = try JSONValue.parse(doc)
        for cut in 0..<doc.count {
            let message = error(Array(doc[..<cut]))
            if cut == 0 || doc[cut - 1] < 0x80 || doc[cut] < 0x80 || doc[cut] >= 0xC0 {
                XCTAssertEqual(message, "the JSON ends early (truncated?)", "cut at \(cut)")
            } else {
                // Inside a multi-byte character: the piece left is no UTF-8.
                XCTAssertTrue(message?.hasPrefix("invalid UTF-8 in a string") ?? false, "cut at \(cut): \(message ?? "no error")")
            }
        }
    }

    /// Each byte value in a string and where a value belongs: a value, or an error that says
    /// which byte.
    func testEveryByteInAStringAndAsAValue() throws {
        for b in 0...255 {
            let byte = UInt8(b)
            let inString = Array(#"[""#.utf8) + [byte] + Array(#""]"#.utf8)
            let asValue = Array("[".utf8) + [byte] + Array("]".utf8)
            let s = error(inString)
            switch byte {
            case 0..<0x20: XCTAssertEqual(s, "unescaped control character in a string at byte 2", "\(b)")
            case UInt8(ascii: "\""): XCTAssertEqual(s, "expected ',' or ']' at byte 3, found '\"'")  // [""""]
            case UInt8(ascii: "\\"): XCTAssertEqual(s, "the JSON ends early (truncated?)")  // ["\"] is an open string
            case 0x20..<0x80: XCTAssertNil(s, "\(b)"); XCTAssertEqual(try JSONValue.parse(inString)[0].string, String(UnicodeScalar(byte)))
            default: XCTAssertEqual(s, "invalid UTF-8 in a string at byte 2", "\(b)")
            }
            let v = error(asValue)
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                XCTAssertNil(v)
            } else if byte == UInt8(ascii: "]") {
                XCTAssertEqual(v, "expected the end of the document at byte 2, found ']'")  // "[]]"
            } else if [0x20, 0x09, 0x0A, 0x0D].contains(byte) {
                XCTAssertNil(v)  // "[ ]"
            } else {
                XCTAssertNotNil(v, "\(b)")
                XCTAssertFalse(v?.contains("\n") ?? true)
            }
        }
        // UTF-8 that is well-formed only in appearance: overlong, surrogates, past U+10FFFF.
        for bad: [UInt8] in [[0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                             [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xFF]] {
            XCTAssertEqual(error([0x22] + bad + [0x22]), "invalid UTF-8 in a string at byte 1", "\(bad)")
        }
    }

    func testMalformedDocumentsSayWhereInOneLine() {
        let cases: [(String, String)] = [
            ("", "the JSON ends early (truncated?)"),
            ("   ", "the JSON ends early (truncated?)"),
            ("[1] x", "expected the end of the document at byte 4, found 'x'"),
            ("[1 2]", "expected ',' or ']' at byte 3, found '2'"),
            ("{\"a\" 1}", "expected ':' at byte 5, found '1'"),
            ("{1: 2}", "expected a key in quotes at byte 1, found '1'"),
            ("01", "number with a leading zero at byte 0"),
            ("-", "the JSON ends early (truncated?)"),
            ("1.", "the JSON ends early (truncated?)"),
            ("[1.]", "malformed number at byte 1"),
            ("[.5]", "expected a value at byte 1, found '.'"),
            ("[+1]", "expected a value at byte 1, found '+'"),
            ("[tru]", "expected a value at byte 1, found 't'"),
            ("[NaN]", "expected a value at byte 1, found 'N'"),
            ("[1,,2]", "expected a value at byte 3, found ','"),
            ("[,]", "expected a value at byte 1, found ','"),
        ]
        for (doc, expected) in cases { XCTAssertEqual(error(doc), expected, doc) }
        // What JSONSerialization took besides the RFC, still taken: trailing commas, a scalar
        // document, a byte order mark.
        XCTAssertEqual(try parse("[1, 2,]").array.count, 2)
        XCTAssertEqual(try parse("{\"a\": 1,}")["a"].int, 1)
        XCTAssertEqual(try parse(" \"x\" ").string, "x")
        XCTAssertEqual(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[7]".utf8))[0].int, 7)
    }

    /// Numbers from outside: `int` has a value only for an integral number within Int64,
    /// whatever its form; `string` writes numbers as before.
    func testIntIsRangeChecked() throws {
        let v = try parse(#"[1e300, -1e300, 9223372036854775808, 9223372036854775807, -9223372036854775808, -9223372036854775809, 1.5, 1e5, 1.50e1, 2e-400, -0, 0.0, 1e19, 1e18, "42", " 42 ", "1e5", "99999999999999999999", "-9223372036854775808", true, null, {}, []]"#)
        XCTAssertEqual(v.array.map(\.int), [nil, nil, nil, Int.max, Int.min, nil, nil, 100_000, 15, nil, 0, 0, nil, 1_000_000_000_000_000_000,
                                            42, 42, nil, nil, Int.min, 1, nil, nil, nil])
        let s = try parse(#"[1e5, -0, 1.5, 12345678901234567890, 1e300, 0.1, 1e-7, "007", 1e400]"#)
        XCTAssertEqual(s.array.map(\.string), ["100000", "0", "1.5", "12345678901234567890", "1e+300", "0.1", "1e-07", "007", "1e400"])
    }

    /// A JSON Feed's `items` holds objects; anything else there is no item (an empty card each,
    /// before).
    func testJSONFeedItemsThatAreNotObjectsAreNoCards() throws {
        let doc = #"{"version": "https://jsonfeed.org/version/1.1", "items": [[], 0, "x", null, {"id": "1", "title": "one"}, [[[]]]]}"#
        let parsed = try FeedParser.parse(Array(doc.utf8))
        XCTAssertEqual(parsed.cards.map(\.title), ["one"])
    }

    /// Through the two readers: the error names the limit, in one line.
    func testLimitsReachTheReadersAsOneLineErrors() {
        let deep = Array(("{\"version\": \"https://jsonfeed.org/version/1.1\", \"items\": [" + String(repeating: "[", count: 5000)).utf8)
        XCTAssertThrowsError(try FeedParser.parse(deep)) { error in
            XCTAssertEqual(error.localizedDescription, "not a valid JSON Feed: the JSON nests deeper than 512 levels")
        }
        let tiny = Array(("{\"query\": \"q\", \"results\": [" + String(repeating: "{},", count: 4_200_000) + "{}]}").utf8)
        XCTAssertThrowsError(try SearchReader.read(tiny, engine: .searxng)) { error in
            let message = error.localizedDescription
            XCTAssertTrue(message.hasSuffix("the JSON has more than 4194304 values"), message)
            XCTAssertFalse(message.contains("\n"))
        }
    }

    /// Random damage to a valid document (bytes replaced, dropped, repeated): a value or a
    /// one-line error, never a trap.
    func testRandomDamageIsAValueOrAnError() throws {
        var rng = SplitMix64(seed: 1515)
        let base = Array(#"{"a": [1, -2.5e+3, "x\u00e9\"y", true, null, {"b": {"c": [[]]}}], "é": "東京😀", "n": 12345678901234567890}"#.utf8)
        var errors = 0, values = 0
        for _ in 0..<20_000 {
            var doc = base
            for _ in 0...(rng.next() % 4) {
                let at = Int(rng.next() % UInt64(doc.count))
                switch rng.next() % 3 {
                case 0: doc[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: doc.remove(at: at)
                default: doc.insert(contentsOf: doc[at..<min(doc.count, at + Int(rng.next() % 8))], at: at)
                }
            }
            do {
                let v = try JSONValue.parse(doc)
                _ = (v["a"].array.map { $0.string ?? "" }, v["é"].string, v["n"].int, v["a"][5]["b"].isObject)
                values += 1
            } catch let FeedParseError.invalidJSON(detail) {
                XCTAssertFalse(detail.isEmpty || detail.contains("\n"))
                errors += 1
            }
        }
        XCTAssertGreaterThan(errors, 10_000)
        XCTAssertGreaterThan(values, 100)
    }
}
