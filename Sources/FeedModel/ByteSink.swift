/// A growable buffer of bytes for the writers that run over every byte of a feed: the XML
/// prepass, the fast sanitizer and HTML escaping, the JSON writer, buffered standard output.
///
/// Why not `[UInt8]`: `Array.append(contentsOf:)` costs ~100 instructions per call (uniqueness
/// check, capacity check and a generic copy), and these writers append a few bytes at a time,
/// half a million times for a 20 MB feed; here an append is a capacity test and a copy. The
/// type is non-copyable: it owns its memory alone and frees it in `deinit`, so no reference
/// count or copy-on-write check is needed either.
///
/// The method names follow `Array`'s, so code written against `[UInt8]` reads the same.
public struct ByteSink: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var used = 0
    @usableFromInline var capacity: Int

    public init(capacity: Int = 64 << 10) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The number of bytes written.
    @inlinable public var count: Int { used }
    @inlinable public var isEmpty: Bool { used == 0 }

    @inlinable public subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < used, "ByteSink: index out of range")
        return base[index]
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if used == capacity { grow(toHold: used + 1) }
        base[used] = byte
        used += 1
    }

    @inlinable @inline(__always)
    public mutating func append(_ start: UnsafePointer<UInt8>, count n: Int) {
        if n > capacity - used { grow(toHold: used + n) }
        if n <= 16 {
            // Most appends are a few bytes (a run of text between two references, a tag name):
            // copied here with at most four loads, where a call to memmove costs ~40 instructions.
            ByteSink.copySmall(from: UnsafeRawPointer(start), to: UnsafeMutableRawPointer(base + used), count: n)
        } else {
            (base + used).update(from: start, count: n)
        }
        used += n
    }

    /// Copies `n` <= 16 bytes as two overlapping words (every load before any store, so it is
    /// also right when the ranges overlap, as `memmove` is).
    @inlinable @inline(__always)
    static func copySmall(from s: UnsafeRawPointer, to d: UnsafeMutableRawPointer, count n: Int) {
        if n >= 8 {
            let a = s.loadUnaligned(as: UInt64.self), b = s.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            d.storeBytes(of: a, as: UInt64.self)
            d.storeBytes(of: b, toByteOffset: n - 8, as: UInt64.self)
        } else if n >= 4 {
            let a = s.loadUnaligned(as: UInt32.self), b = s.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            d.storeBytes(of: a, as: UInt32.self)
            d.storeBytes(of: b, toByteOffset: n - 4, as: UInt32.self)
        } else if n > 0 {
            let a = s.load(as: UInt8.self), b = s.load(fromByteOffset: n / 2, as: UInt8.self)
            let c = s.load(fromByteOffset: n - 1, as: UInt8.self)
            d.storeBytes(of: a, as: UInt8.self)
            d.storeBytes(of: b, toByteOffset: n / 2, as: UInt8.self)
            d.storeBytes(of: c, toByteOffset: n - 1, as: UInt8.self)
        }
    }

    @inlinable @inline(__always)
    public mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        append(start, count: bytes.count)
    }

    @inlinable
    public mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    @inlinable
    public mutating func append(contentsOf bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    @inlinable
    public mutating func append(contentsOf text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    @inlinable
    public mutating func append(contentsOf text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// `n` in decimal, as `String(n)` writes it: the numbers of the JSON writers and of the
    /// listings, without a String for each.
    public mutating func appendDecimal(_ n: UInt) {
        var divisor: UInt = 1
        while divisor <= n / 10 { divisor *= 10 }
        var rest = n
        repeat {
            append(UInt8(48 + rest / divisor))
            rest %= divisor
            divisor /= 10
        } while divisor > 0
    }

    /// `n` in decimal as `String(n)` writes it (Int.min too: its magnitude is written).
    public mutating func appendDecimal(_ n: Int) {
        if n < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(n.magnitude)
    }

    /// Lets `body` write up to `maxCount` bytes at the end in place (it returns how many it
    /// wrote): for a loop that stores whole words and keeps only part of them.
    @inlinable
    public mutating func appendInPlace(maxCount: Int, _ body: (UnsafeMutablePointer<UInt8>) throws -> Int) rethrows {
        if maxCount > capacity - used { grow(toHold: used + maxCount) }
        let written = try body(base + used)
        precondition(written >= 0 && written <= maxCount, "ByteSink: wrote outside the room asked for")
        used += written
    }

    /// Makes room for `count` more bytes.
    public mutating func reserveCapacity(_ total: Int) {
        if total > capacity { grow(toHold: total) }
    }

    @usableFromInline
    mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: used)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Forgets everything written (the memory stays, for the next round).
    public mutating func removeAll() { used = 0 }

    /// Forgets the bytes from `range.lowerBound` on.
    public mutating func removeSubrange(_ range: PartialRangeFrom<Int>) {
        precondition(range.lowerBound >= 0 && range.lowerBound <= used, "ByteSink: index out of range")
        used = range.lowerBound
    }

    /// Calls `body` with the bytes written (valid only during the call).
    @inlinable
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: used))
    }

    /// A copy of the bytes written.
    public var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: used)) }
}
