/// Eight bytes at a time: tests on a 64-bit word that tell whether any of its bytes needs a
/// closer look, so the byte loops of the JSON writer, the sanitizer and the XML prepass can skip
/// plain text quickly. Every test is exact about "some byte is ..." (never a false "no").
public enum ByteScan {
    // Inlinable: these run inside the byte loops of other modules.
    @usableFromInline static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @usableFromInline static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// The eight bytes at `p + i` (any alignment).
    @inlinable @inline(__always)
    public static func word(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt64 {
        // Little-endian on every host, so the lowest byte of the word is the first in memory.
        UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
    }

    /// Whether some byte of `w` equals `b`.
    @inlinable @inline(__always)
    public static func has(_ w: UInt64, _ b: UInt8) -> Bool { equalMask(w, b) != 0 }

    /// Whether some byte of `w` is below `n` (n <= 128).
    @inlinable @inline(__always)
    public static func hasLess(_ w: UInt64, _ n: UInt8) -> Bool { lessMask(w, n) != 0 }

    /// Whether some byte of `w` is not ASCII.
    @inlinable @inline(__always)
    public static func hasHigh(_ w: UInt64) -> Bool { w & highs != 0 }

    // Masks: the high bit of each byte that the test flags. The lowest flagged byte is always a
    // true match (a borrow only runs upward from a true match), so a loop can jump straight to
    // it: `firstFlagged`; bytes above it may be flagged falsely and must be looked at again.

    /// Flags the bytes of `w` equal to `b` (exact for the lowest flagged byte).
    @inlinable @inline(__always)
    public static func equalMask(_ w: UInt64, _ b: UInt8) -> UInt64 {
        let x = w ^ (ones &* UInt64(b))
        return (x &- ones) & ~x & highs
    }

    /// Flags the bytes of `w` below `n` (n <= 128; exact for the lowest flagged byte).
    @inlinable @inline(__always)
    public static func lessMask(_ w: UInt64, _ n: UInt8) -> UInt64 {
        (w &- ones &* UInt64(n)) & ~w & highs
    }

    /// Flags exactly the bytes of `w` equal to `b` (every flag true, unlike `equalMask`; a few
    /// more operations): for tests that combine the flags of neighbouring bytes.
    @inlinable @inline(__always)
    public static func exactEqualMask(_ w: UInt64, _ b: UInt8) -> UInt64 {
        let x = w ^ (ones &* UInt64(b))
        let lows = ~highs
        return ~(((x & lows) &+ lows) | x) & highs
    }

    /// The index of the first byte from `start` (before `end`) that is not ASCII, or `end`:
    /// thirty-two bytes at a time (four words or'ed), then eight, then one.
    @inlinable @inline(__always)
    public static func firstNonASCII(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var i = start
        while i + 32 <= end, (word(p, i) | word(p, i + 8) | word(p, i + 16) | word(p, i + 24)) & highs == 0 { i += 32 }
        while i + 8 <= end {
            let high = word(p, i) & highs
            if high != 0 { return i + firstFlagged(high) }
            i += 8
        }
        while i < end && p[i] < 0x80 { i += 1 }
        return i
    }

    // Sixteen bytes: SIMD16 compares (SSE2 on x86-64, NEON on arm64) flag each byte exactly;
    // faster than the word masks where text runs long between the bytes looked for.

    /// The sixteen bytes at `p + i`.
    @inlinable @inline(__always)
    public static func vector(_ p: UnsafePointer<UInt8>, _ i: Int) -> SIMD16<UInt8> {
        UnsafeRawPointer(p + i).loadUnaligned(as: SIMD16<UInt8>.self)
    }

    /// The index (0...15) of the first true lane of a mask with one.
    @inlinable @inline(__always)
    public static func firstTrue(_ m: SIMDMask<SIMD16<Int8>>) -> Int {
        let flags = unsafeBitCast(SIMD16<UInt8>(repeating: 0).replacing(with: 0x80, where: m), to: SIMD2<UInt64>.self)
        return flags[0] != 0 ? firstFlagged(flags[0]) : 8 + firstFlagged(flags[1])
    }

    /// The index (0...7) of the lowest flagged byte of a non-zero mask, for little-endian words.
    @inlinable @inline(__always)
    public static func firstFlagged(_ mask: UInt64) -> Int { mask.trailingZeroBitCount &>> 3 }
}
