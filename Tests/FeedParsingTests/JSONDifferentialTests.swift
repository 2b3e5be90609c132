@testable import FeedParsing
import Foundation
import TestSupport
import XCTest

/// The tape reader against what it replaced: random valid documents parsed by both, every
/// accessor a reader uses (`subscript` by key and index, `array`, `string`, `int`, `isNull`,
/// `isObject`, `isArray`) compared on every value. The one intended difference: `int` is nil
/// for a number that is not integral or does not fit Int64 (the old accessor truncated, or
/// trapped).
final class JSONDifferentialTests: XCTestCase {
    /// The old accessor over `JSONSerialization`, kept here as the reference.
    struct Reference {
        let raw: Any?
        static func parse(_ bytes: [UInt8]) throws -> Reference {
            Reference(raw: try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]))
        }
        subscript(key: String) -> Reference { Reference(raw: (raw as? [String: Any])?[key]) }
        subscript(index: Int) -> Reference {
            guard let a = raw as? [Any], index >= 0, index < a.count else { return Reference(raw: nil) }
            return Reference(raw: a[index])
        }
        var isObject: Bool { raw is [String: Any] }
        var isArray: Bool { raw is [Any] }
        var array: [Reference] { (raw as? [Any])?.map { Reference(raw: $0) } ?? [] }
        var isNull: Bool { raw == nil || raw is NSNull }
        var string: String? {
            switch raw {
            case let s as String: return s
            case let n as NSNumber:
                let d = n.doubleValue
                if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
                return n.stringValue
            default: return nil
            }
        }
        /// What the old `int` gave where it was defined; .some(nil) where the new one must be nil
        /// (not integral, or outside Int64: the old one truncated or trapped there); nil where
        /// the old one was not exact (an integral Double past 2^53: the new one reads the digits).
        var int: Int?? {
            switch raw {
            case let n as NSDecimalNumber:  // exact (the old one went through a Double)
                return Int(n.stringValue)
            case let n as NSNumber:
                let type = String(cString: n.objCType)
                if type == "q" || type == "i" || type == "s" || type == "c" || type == "l" { return n.intValue }
                if type == "Q" { return .some(n.uint64Value <= UInt64(Int.max) ? Int(n.uint64Value) : nil) }
                let d = n.doubleValue
                guard d.isFinite, d == d.rounded(), d >= -9.223372036854775808e18, d < 9.223372036854775808e18 else { return .some(nil) }
                guard abs(d) < 9_007_199_254_740_992 else { return Int??.none }
                return Int(d)
            case let s as String: return Int(s.trimmingCharacters(in: .whitespaces))
            default: return nil
            }
        }
        var keys: [String] { (raw as? [String: Any]).map { Array($0.keys) } ?? [] }
    }

    func testRandomValidDocumentsReadTheSame() throws {
        var rng = SplitMix64(seed: 15)
        var documents = 0, values = 0
        for _ in 0..<1500 {
            var gen = DocumentGenerator(rng: rng)
            let text = gen.value(depth: 0)
            rng = gen.rng
            let bytes = Array(text.utf8)
            let reference = try Reference.parse(bytes)
            let tape = try JSONValue.parse(bytes)
            compare(tape, reference, path: "$", in: text, values: &values)
            documents += 1
        }
        XCTAssertEqual(documents, 1500)
        XCTAssertGreaterThan(values, 5_000)
    }

    /// Numbers in every form the grammar allows, each alone and inside an array.
    func testNumbersReadTheSame() throws {
        let numbers = ["0", "-0", "1", "-1", "1e5", "1E5", "1e+5", "1e-5", "-0.0", "0.1", "1.0", "1.5", "-1.5",
                       "1e15", "1e16", "999999999999999", "1000000000000000", "123456789012345678",
                       "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
                       "18446744073709551615", "18446744073709551616", "123456789012345678901234567890",
                       "1e300", "-1e300", "1.7976931348623157e308", "5e-324", "1e-7", "0.30000000000000004",
                       "3.141592653589793", "3.1415926535897932", "1234567890123456.5", "2.5e15", "1e22", "1.50e1", "150e-1", "0.0e5", "3.797902490931217e+16",
                       "12345.6789012345", "0.1234567890123456", "100.0", "1.5e3", "4.35"]
        var values = 0
        for n in numbers {
            for text in [n, "[\(n)]", "{\"n\": \(n)}"] {
                compare(try JSONValue.parse(Array(text.utf8)), try Reference.parse(Array(text.utf8)), path: "$", in: text, values: &values)
            }
        }
        XCTAssertEqual(values, numbers.count * 5)
    }

    private func compareStrings(_ a: JSONValue, _ b: Reference, _ context: String) {
        if let n = b.raw as? NSDecimalNumber, let s = a.string, s.contains("e") {
            // 17 significant digits or more with an exponent: written as the Double prints (the
            // old one wrote all the Decimal's digits, 2.3958017266263105e+94 as 95 digits).
            XCTAssertEqual(Double(s), Double(n.stringValue), context)
        } else {
            XCTAssertEqual(a.string, b.string, context)
        }
    }

    private func compare(_ a: JSONValue, _ b: Reference, path: String, in doc: String, values: inout Int) {
        values += 1
        let context = "\(path) in \(doc.prefix(300))"
        XCTAssertEqual(a.isNull, b.isNull, context)
        XCTAssertEqual(a.isObject, b.isObject, context)
        XCTAssertEqual(a.isArray, b.isArray, context)
        compareStrings(a, b, context)
        if let expected = b.int { XCTAssertEqual(a.int, expected, context) }
        XCTAssertEqual(a.array.count, b.array.count, context)
        if b.isArray {
            XCTAssertEqual(Array(a.array).count, b.array.count, context)
            for (i, (x, y)) in zip(a.array, b.array).enumerated() {
                compare(x, y, path: "\(path)[\(i)]", in: doc, values: &values)
            }
            for i in [0, b.array.count - 1, b.array.count, -1] {
                compareStrings(a[i], b[i], "\(context) [\(i)]")
                XCTAssertEqual(a[i].isNull, b[i].isNull, "\(context) [\(i)]")
            }
        }
        if b.isObject {
            for key in b.keys { compare(a[key], b[key], path: "\(path).\(key)", in: doc, values: &values) }
            for absent in ["", "absent", "A"] where !b.keys.contains(absent) {
                XCTAssertTrue(a[absent].isNull, "\(context) [\(absent)]")
            }
        }
        XCTAssertTrue(a["x"].isNull || b.isObject, context)
    }
}

/// Random valid JSON as real answers write it: nested objects and arrays, duplicate and escaped
/// keys, strings with escapes, surrogate pairs and raw non-ASCII, numbers in every form,
/// white space anywhere, now and then a trailing comma (which JSONSerialization took).
struct DocumentGenerator {
    var rng: SplitMix64

    mutating func pick<T>(_ options: [T]) -> T { options[Int(rng.next() % UInt64(options.count))] }
    mutating func chance(_ p: Double) -> Bool { Double(rng.next() % 10_000) / 10_000 < p }
    mutating func space() -> String { chance(0.3) ? pick([" ", "\n", "\t", "\r\n  ", "  "]) : "" }

    mutating func value(depth: Int) -> String {
        let roll = rng.next() % 100
        if depth < 5 && roll < 18 { return object(depth: depth) }
        if depth < 5 && roll < 30 { return array(depth: depth) }
        switch roll % 6 {
        case 0: return pick(["null", "true", "false"])
        case 1, 2: return number()
        default: return "\"" + stringBody() + "\""
        }
    }

    mutating func object(depth: Int) -> String {
        let count = Int(rng.next() % 7)
        var keys: [String] = []
        for _ in 0..<count {
            keys.append(chance(0.15) && !keys.isEmpty ? pick(keys) : pick(["id", "title", "url", "a", "b", "é", "日本", "k\\u00e9y", "q\\\"uote", "x\\/y", ""]))
        }
        let members = keys.map { "\"" + $0 + "\"" + space() + ":" + space() + value(depth: depth + 1) }
        return "{" + space() + members.joined(separator: space() + "," + space()) + (count > 0 && chance(0.05) ? "," : "") + space() + "}"
    }

    mutating func array(depth: Int) -> String {
        let count = Int(rng.next() % 8)
        let elements = (0..<count).map { _ in value(depth: depth + 1) }
        return "[" + space() + elements.joined(separator: space() + "," + space()) + (count > 0 && chance(0.05) ? "," : "") + space() + "]"
    }

    mutating func number() -> String {
        switch rng.next() % 8 {
        case 0: return String(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64))
        case 1: return pick(["0", "-0", "1", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
                             "18446744073709551615", "18446744073709551616", "99999999999999999999999"])
        case 2: return String(Int(rng.next() % 100_000)) + "." + String(Int(rng.next() % 1000))
        case 3: return pick(["1", "-2", "3.5", "0.25", "7"]) + pick(["e", "E"]) + pick(["", "+", "-"]) + String(rng.next() % 300)
        case 4: return String(Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF))
        case 5: return "0." + String(rng.next() % 100_000_000_000_000_000)
        case 6: return String(Int(rng.next() % 1_000_000_000_000_000)) + ".0"
        default: return String(Int(rng.next() % 1000) - 500)
        }
    }

    mutating func stringBody() -> String {
        var s = ""
        for _ in 0..<Int(rng.next() % 12) {
            s += pick(["a", "Z", " ", "0", "é", "—", "東京", "😀", "\\n", "\\t", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r",
                       "\\u0041", "\\u00e9", "\\u2014", "\\ud83d\\ude00", "\\uD834\\uDD1E", "\\u0000", "\\u001f", "<b>", "&amp;", "\u{7F}"])
        }
        return s
    }
}
