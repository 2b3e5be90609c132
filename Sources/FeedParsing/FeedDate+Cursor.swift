/// A read position in the UTF-8 bytes of one date string.
///
/// The date parsers work on raw bytes because they run once per item of every feed: no
/// `Character` walking, no splitting into substrings, no allocation. Every read goes through
/// `peek`/`byte(at:)`, which check `end`, because the buffer is unchecked in release builds and
/// the input is whatever a feed put between two tags.
struct DateCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var i: Int
    /// One past the last byte that is not trailing white space.
    let end: Int

    /// The whole buffer with leading and trailing white space (ASCII and no-break space) cut off.
    init(trimming bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        var start = 0
        var stop = bytes.count
        while start < stop {
            if DateCursor.isSpace(bytes[start]) { start += 1 }
            else if start + 1 < stop, bytes[start] == 0xC2, bytes[start + 1] == 0xA0 { start += 2 }
            else { break }
        }
        while stop > start {
            if DateCursor.isSpace(bytes[stop - 1]) { stop -= 1 }
            else if stop - 2 >= start, bytes[stop - 2] == 0xC2, bytes[stop - 1] == 0xA0 { stop -= 2 }
            else { break }
        }
        self.i = start
        self.end = stop
    }

    var atEnd: Bool { i >= end }
    var remaining: Int { end - i }

    /// The byte at the cursor, or 0 at the end. Callers test for the end with `atEnd`; 0 only
    /// serves as "matches nothing" (a NUL inside the text then fails like any stray byte).
    var peek: UInt8 { i < end ? bytes[i] : 0 }

    func byte(at k: Int) -> UInt8 { k >= 0 && k < end ? bytes[k] : 0 }

    // MARK: Byte classes

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
    static func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }
    /// Letters of month and day names: ASCII letters and any non-ASCII byte (Greek, Hungarian).
    static func isWordByte(_ b: UInt8) -> Bool { b >= 0x80 || isASCIILetter(b) }

    // MARK: Reading

    /// Skips white space (ASCII and U+00A0); returns how many bytes it skipped.
    @discardableResult
    mutating func skipSpaces() -> Int {
        let start = i
        while i < end {
            if DateCursor.isSpace(bytes[i]) { i += 1 }
            else if bytes[i] == 0xC2, byte(at: i + 1) == 0xA0 { i += 2 }
            else { break }
        }
        return i - start
    }

    /// Consumes `b` when it is the next byte.
    mutating func consume(_ b: UInt8) -> Bool {
        guard peek == b, !atEnd else { return false }
        i += 1
        return true
    }

    /// Consumes `literal` when the text continues with exactly its bytes.
    mutating func consume(_ literal: StaticString) -> Bool {
        let matched = literal.withUTF8Buffer { lit -> Bool in
            guard lit.count <= remaining else { return false }
            for k in 0..<lit.count where bytes[i + k] != lit[k] { return false }
            return true
        }
        if matched { i += literal.utf8CodeUnitCount }
        return matched
    }

    /// A run of ASCII digits: its value (exact up to 9 digits; callers check `count` first)
    /// and its length. Long runs are consumed whole so one pass stays linear.
    mutating func digits() -> (value: Int, count: Int) {
        var value = 0
        var count = 0
        while i < end, DateCursor.isDigit(bytes[i]) {
            if count < 9 { value = value * 10 + Int(bytes[i] &- 0x30) }
            count += 1
            i += 1
        }
        return (value, count)
    }

    /// A run of word bytes (see `isWordByte`), stopping at a no-break space.
    mutating func word() -> Range<Int> {
        let start = i
        while i < end, DateCursor.isWordByte(bytes[i]) {
            if bytes[i] == 0xC2, byte(at: i + 1) == 0xA0 { break }
            i += 1
        }
        return start..<i
    }

    /// A run of ASCII letters only (zone names).
    mutating func asciiWord() -> Range<Int> {
        let start = i
        while i < end, DateCursor.isASCIILetter(bytes[i]) { i += 1 }
        return start..<i
    }

    // MARK: Comparing

    /// True when the bytes in `range` equal `name`, ASCII letters compared without case
    /// (`name` is written in lower case; other bytes must match exactly).
    func word(_ range: Range<Int>, is name: StaticString) -> Bool {
        guard range.count == name.utf8CodeUnitCount else { return false }
        return hasPrefix(range, name, length: range.count)
    }

    /// True when `range` is at least `minimum` bytes long and is a prefix of `name`
    /// ("sept", "thurs", "janv" are not in any table; the prefix rule covers them).
    func word(_ range: Range<Int>, abbreviates name: StaticString, minimum: Int = 3) -> Bool {
        guard range.count >= minimum, range.count <= name.utf8CodeUnitCount else { return false }
        return hasPrefix(range, name, length: range.count)
    }

    private func hasPrefix(_ range: Range<Int>, _ name: StaticString, length: Int) -> Bool {
        name.withUTF8Buffer { lit in
            for k in 0..<length {
                var b = bytes[range.lowerBound + k]
                if DateCursor.isASCIILetter(b) { b |= 0x20 }
                if b != lit[k] { return false }
            }
            return true
        }
    }
}
