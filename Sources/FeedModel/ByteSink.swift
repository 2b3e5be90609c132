/// A growable buffer of bytes for the writers that run over every byte of a feed (the XML
/// prepass; the sanitizer and JSON writer may follow).
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
        (base + used).update(from: start, count: n)
        used += n
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
