/// Numbers from outside (a feed, an HTTP header, a search answer): the one way they are read,
/// and the arithmetic they take part in. A number a stranger wrote may be anything: 2^63-1,
/// -2^63, 1e300, "+5", "0x10", twenty digits. Reading one never traps: what is not a decimal
/// integer within the range the caller gives is no value (nil); arithmetic on what was read
/// saturates at the ends of `Int64` instead of trapping.
public enum OutsideNumber {
    /// A decimal integer as protocols write them (RFC 9110 delta-seconds, RSS ttl, enclosure
    /// length): ASCII digits, an optional leading `-`, optional ASCII white space around. No
    /// `+`, no hex, no fraction, no exponent, no digit separators. Nil when the text is not
    /// that or the value lies outside `range` (an overflow of `Int64` included).
    public static func integer<S: StringProtocol>(_ text: S, in range: ClosedRange<Int64>) -> Int64? {
        var bytes = Substring(text).utf8[...]
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while let b = bytes.first, isSpace(b) { bytes.removeFirst() }
        while let b = bytes.last, isSpace(b) { bytes.removeLast() }
        var negative = false
        if bytes.first == 0x2D { negative = true; bytes.removeFirst() }
        guard !bytes.isEmpty else { return nil }
        // Accumulated negatively: -2^63 has no positive counterpart in Int64.
        var value: Int64 = 0
        for b in bytes {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.subtractingReportingOverflow(Int64(b - 0x30))
            if o1 || o2 { return nil }
            value = next
        }
        if !negative {
            guard value != Int64.min else { return nil }
            value = -value
        }
        return range.contains(value) ? value : nil
    }

    /// An integer from a floating-point number (JSON numbers arrive as Double): nil for NaN,
    /// infinities, fractions and values outside `range`.
    public static func integer(_ value: Double, in range: ClosedRange<Int64>) -> Int64? {
        // Compared as Doubles first: Int64(value) traps outside -2^63 ..< 2^63.
        guard value.isFinite, value == value.rounded(),
              value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0
        else { return nil }
        let n = Int64(value)
        return range.contains(n) ? n : nil
    }

    /// Plain `Int` for fields kept as `Int` (64-bit on every platform feeds runs on).
    public static func int<S: StringProtocol>(_ text: S, in range: ClosedRange<Int64>) -> Int? {
        integer(text, in: range).flatMap { Int(exactly: $0) }
    }
}

extension Int64 {
    /// `self + other`, held at `Int64.min` / `Int64.max` instead of overflowing.
    public func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, held at the ends instead of overflowing.
    public func saturatingSubtract(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }

    /// `self * other`, held at the ends instead of overflowing.
    public func saturatingMultiply(_ other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}

extension Int {
    /// `self + other`, held at `Int.min` / `Int.max` instead of overflowing.
    public func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, held at the ends instead of overflowing.
    public func saturatingSubtract(_ other: Int) -> Int {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }

    /// `self * other`, held at the ends instead of overflowing.
    public func saturatingMultiply(_ other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}
