import Foundation

/// Strings and numbers of a `JSONTape`, decoded from their bytes when a reader asks for them.
/// The conversions are the ones the readers had from `JSONSerialization` (see `JSONValue`).
enum JSONScalars {
    static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// A string's bytes (between the quotes, already checked by the parser) as a String:
    /// escapes decoded, a `\u` surrogate pair joined, a lone surrogate U+FFFD.
    static func string(_ raw: UnsafeBufferPointer<UInt8>, hasEscapes: Bool) -> String {
        guard hasEscapes else { return String(decoding: raw, as: UTF8.self) }
        return String(decoding: unescaped(raw), as: UTF8.self)
    }

    /// The UTF-8 of a string with escapes, decoded.
    static func unescaped(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        let n = raw.count
        func hex4(_ k: Int) -> UInt32? {
            guard k + 6 <= n, raw[k] == UInt8(ascii: "\\"), raw[k + 1] == UInt8(ascii: "u") else { return nil }
            var v: UInt32 = 0
            for j in 2..<6 {
                guard let h = hexValue(raw[k + j]) else { return nil }
                v = v << 4 | h
            }
            return v
        }
        while i < n {
            let c = raw[i]
            guard c == UInt8(ascii: "\\"), i + 1 < n else { out.append(c); i += 1; continue }
            let e = raw[i + 1]
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hex4(i) else { out.append(c); i += 1; continue }  // the parser checked
                var scalar = Unicode.Scalar(unit)
                i += 6
                if (0xD800...0xDBFF).contains(unit), let low = hex4(i), (0xDC00...0xDFFF).contains(low) {
                    scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                    i += 6
                }
                // A lone surrogate (high without low, or low alone) is no character: U+FFFD.
                out.append(contentsOf: UTF8.encode(scalar ?? "\u{FFFD}")!)
                continue
            default: out.append(e)  // " \ /
            }
            i += 2
        }
        return out
    }

    /// A number's text as `JSONSerialization` and the old accessor wrote it: an integral value
    /// of less than 10^15 as an integer ("1e5" is "100000", "-0" is "0"); other integers as
    /// written; other values as their Double prints (0.1, 1e-07, 1e+300), or with 17 digits
    /// or more and no exponent as a Decimal prints (what NSDecimalNumber kept); beyond Double's range (which
    /// JSONSerialization refused), as written.
    static func numberString(_ text: String, isInteger: Bool) -> String {
        if isInteger {
            if let v = Int64(text) { return String(v) }
            if let v = UInt64(text) { return String(v) }
        }
        guard let d = Double(text), d.isFinite else { return text }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        if isInteger || (mantissaDigits(text) >= 17 && !text.utf8.contains(where: { $0 | 0x20 == UInt8(ascii: "e") })) {
            // (With an exponent, JSONSerialization wrote some of these out in all their digits,
            // 2.3958017266263105e+94 as 95 digits: the Double prints them here.)
            // (Beyond Decimal's range, JSONSerialization kept the Double.)
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))?.description ?? d.description
        }
        return d.description
    }

    private static func mantissaDigits(_ text: String) -> Int {
        var count = 0
        for c in text.utf8 {
            if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { break }
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { count += 1 }
        }
        return count
    }

    /// A number as an Int when it is integral and fits 64 bits, exactly (from the digits, not
    /// through a Double): 1e5 is 100000, 1.50e1 is 15; 1.5, 1e300, -1e300 and 2^63 are nil (no
    /// value, never a trap).
    static func int(_ text: String, isInteger: Bool) -> Int? {
        if isInteger { return Int(text) }
        // (sign)(digits)(.digits)(e(sign)digits), checked by the parser.
        var negative = false, digits: [UInt8] = [], shift = 0, exponent = 0, exponentSign = 1
        var part = 0  // 0 integer part, 1 fraction, 2 exponent
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "-") where part == 0: negative = true
            case UInt8(ascii: "-"): exponentSign = -1
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "."): part = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"): part = 2
            default:
                let d = Int(c) - 48
                if part == 2 {
                    exponent = min(exponent * 10 + d, 100_000)  // anything past 10^20 is out of range anyway
                } else {
                    if digits.isEmpty && d == 0 { if part == 1 { shift -= 1 }; continue }  // leading zeros
                    digits.append(c)
                    if part == 1 { shift -= 1 }
                }
            }
        }
        guard !digits.isEmpty else { return 0 }
        shift += exponentSign * exponent
        if shift < 0 {
            // The last -shift digits must be zeros (an integral value).
            guard -shift <= digits.count, digits.suffix(-shift).allSatisfy({ $0 == UInt8(ascii: "0") }) else { return nil }
            digits.removeLast(-shift)
        } else {
            guard digits.count + shift <= 20 else { return nil }
            digits += [UInt8](repeating: UInt8(ascii: "0"), count: shift)
        }
        if digits.isEmpty { return 0 }
        return Int((negative ? "-" : "") + String(decoding: digits, as: UTF8.self))
    }
}
