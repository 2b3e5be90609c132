/// What the builder knows about each name libxml2 hands it, by the name's address: libxml2
/// interns element names and namespace URIs in its dictionary, so one address is one name for
/// the whole document. Open addressing on the address bits, a few instructions per lookup (a
/// Dictionary hashes each pointer with SipHash, twice per element).
///
/// Bounded: a document with more distinct names than the table holds gets the rest computed
/// each time instead of cached (a hostile feed cannot make it grow).
struct PointerCache<Value> {
    private var keys: [UnsafeRawPointer?]
    private var values: [Value?]
    private var used = 0
    private static var capacity: Int { 512 }

    init() {
        keys = Array(repeating: nil, count: Self.capacity)
        values = Array(repeating: nil, count: Self.capacity)
    }

    @inline(__always)
    private static func slot(_ key: UnsafeRawPointer) -> Int {
        let bits = UInt(bitPattern: key)
        return Int(truncatingIfNeeded: (bits ^ (bits >> 9)) &* 0x9E37_79B9) & (capacity - 1)
    }

    /// The value cached for `key`, else `make()`'s (cached while there is room).
    @inline(__always)
    mutating func value(for key: UnsafeRawPointer, _ make: () -> Value) -> Value {
        var slot = Self.slot(key)
        while let k = keys[slot] {
            if k == key { return values[slot]! }
            slot = (slot + 1) & (Self.capacity - 1)
        }
        let value = make()
        // At most three quarters full, so probes stay short and always meet an empty slot.
        if used < Self.capacity * 3 / 4 {
            keys[slot] = key
            values[slot] = value
            used += 1
        }
        return value
    }

    /// Sets the value for `key` (replacing a cached one); ignored when the table is full.
    mutating func set(_ value: Value, for key: UnsafeRawPointer) {
        var slot = Self.slot(key)
        while let k = keys[slot] {
            if k == key { values[slot] = value; return }
            slot = (slot + 1) & (Self.capacity - 1)
        }
        guard used < Self.capacity * 3 / 4 else { return }
        keys[slot] = key
        values[slot] = value
        used += 1
    }
}
