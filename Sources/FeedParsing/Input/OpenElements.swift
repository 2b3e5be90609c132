#if canImport(Glibc)
import Glibc
#endif

/// The elements the prepass has seen open, by name as written, so that libxml2 only ever sees
/// end tags that close the element open in its own view:
///
/// - an end tag that matches the innermost open element passes (every end tag of a well-formed
///   document: the output is then the input);
/// - one that matches an element further out closes the elements left open inside it first
///   (`<content><div>…</content>`: a `</div>` is written before the `</content>`), so a raw tag
///   left open in one field cannot swallow the fields after it;
/// - one that matches no open element is dropped: libxml2 would close the innermost open element
///   in its place, and one end tag too many (a stray `</entry>`, `</p>`, a `]]>` that ended a
///   CDATA section early) closed the root and lost every item after it.
///
/// It also counts the items (`item`/`entry` elements, whatever their prefix) and the ones in which
/// something was repaired, for the warning a person reads.
struct OpenElements {
    /// Names longer than this are compared on their first `maxName` bytes.
    static let maxName = 128
    /// Past this depth nothing more is tracked (libxml2 and the builder's depth bound, 200 by
    /// default, take over). It also bounds the search for a stray end tag's element: a chunk
    /// of deep nesting and stray end tags costs at most this many comparisons per tag.
    static let maxDepth = 256

    /// The open elements' names one after another, and where each ends in `names` (`depth` of
    /// them). Raw storage, freed with `free()`: this runs for every tag of every document, and
    /// arrays cost a uniqueness check and a bounds check on each change.
    private var names: UnsafeMutablePointer<UInt8>
    private var namesCapacity = 1024
    private var ends: UnsafeMutablePointer<Int>
    private var endsCapacity = 64
    private var depth = 0
    /// The index in `ends` of the innermost open item, or -1.
    private var itemIndex = -1
    private var itemRepaired = false
    /// Elements opened past `maxDepth` (not tracked: their end tags pass as they are).
    private var untracked = 0
    /// Whether an element has been opened (the root), and closed again.
    private(set) var rootSeen = false
    var isEmpty: Bool { depth == 0 }

    init() {
        names = .allocate(capacity: namesCapacity + 16)   // 16 spare bytes: see `copyName`
        ends = .allocate(capacity: endsCapacity)
    }

    func free() {
        names.deallocate()
        ends.deallocate()
    }

    private var used: Int { depth == 0 ? 0 : ends[depth - 1] }

    private(set) var itemsSeen = 0
    private(set) var damagedItems = 0

    /// A start tag (not an empty-element one) named by `b[from..<to]`.
    @inline(__always)
    mutating func open(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) {
        rootSeen = true
        guard depth < Self.maxDepth, untracked == 0, b.baseAddress != nil else { untracked += 1; return }
        let length = min(to, from + Self.maxName) - from
        let start = used
        if start + length > namesCapacity { grow(&names, &namesCapacity, to: start + length) }
        if depth == endsCapacity { grow(&ends, &endsCapacity, to: depth + 1) }
        Self.copyName(to: names + start, from: b, at: from, count: length)
        ends[depth] = start + length
        depth += 1
        if Self.isItemName(b, from: from, to: to) {
            itemsSeen += 1
            itemIndex = depth - 1
            itemRepaired = false
        }
    }

    /// Undoes the last `open` (the tag turned out to end in `/>`).
    mutating func cancelOpen() {
        if untracked > 0 { untracked -= 1; return }
        guard depth > 0 else { return }
        if itemIndex == depth - 1 {
            // `<item/>`: an item all the same, with nothing in it to repair.
            itemIndex = enclosingItem(below: depth - 1)
        }
        pop()
    }

    /// What to do with an end tag named by `b[from..<to]`.
    enum EndTag: Equatable {
        /// Matches the innermost open element (popped).
        case matches
        /// Matches an element further out, or differs from one only in case: write the end tags
        /// of `inner` first (innermost first), then `name`'s. All are popped.
        case closesOpen(inner: [[UInt8]], name: [UInt8])
        /// Matches nothing open: drop it.
        case stray
    }

    /// The usual case, inlined: the end tag `b[from..<to]` closes the innermost open element
    /// (popped). False when it does not, or may not: then `close`.
    @inline(__always)
    mutating func closeIfInnermost(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
        guard depth > 0, untracked == 0, to - from <= Self.maxName, let source = b.baseAddress else { return false }
        let start = depth == 1 ? 0 : ends[depth - 2]
        guard ends[depth - 1] - start == to - from, Self.sameName(names + start, b, at: from, count: to - from) else { return false }
        pop()
        return true
    }

    mutating func close(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> EndTag {
        if untracked > 0 { untracked -= 1; return .matches }
        let end = min(to, from + Self.maxName)
        let top = depth - 1
        if top >= 0, nameEquals(top, b, from: from, to: end, caseless: false) {
            pop()
            return .matches
        }
        var found = deeper(than: top, b, from: from, to: end, caseless: false)
        if found < 0 {
            // A case-only difference with the innermost element (`<Item>…</item>`) is its end.
            if top >= 0, nameEquals(top, b, from: from, to: end, caseless: true) {
                noteRepair()
                let written = name(top)
                pop()
                return .closesOpen(inner: [], name: written)
            }
            found = deeper(than: top, b, from: from, to: end, caseless: true)
        }
        guard found >= 0 else {
            noteRepair()
            return .stray
        }
        noteRepair()
        var inner: [[UInt8]] = []
        while depth - 1 > found {
            inner.append(name(depth - 1))
            pop()
        }
        let written = name(found)
        pop()
        return .closesOpen(inner: inner, name: written)
    }

    private func deeper(than top: Int, _ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int, caseless: Bool) -> Int {
        var k = top - 1
        while k >= 0 {
            if nameEquals(k, b, from: from, to: to, caseless: caseless) { return k }
            k -= 1
        }
        return -1
    }

    /// The end tags of every element still open, innermost first (at the end of the document).
    mutating func closeAll() -> [[UInt8]] {
        var out: [[UInt8]] = []
        if depth > 0 { noteRepair() }
        while depth > 0 {
            out.append(name(depth - 1))
            pop()
        }
        return out
    }

    /// Something was repaired here: the innermost open item, if any, is damaged.
    mutating func noteRepair() {
        if itemIndex >= 0 { itemRepaired = true }
    }

    @inline(__always)
    private mutating func pop() {
        depth -= 1
        if depth == itemIndex {
            if itemRepaired { damagedItems += 1 }
            itemRepaired = false
            itemIndex = enclosingItem(below: depth)
        }
    }

    private func grow<T>(_ p: inout UnsafeMutablePointer<T>, _ capacity: inout Int, to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let q = UnsafeMutablePointer<T>.allocate(capacity: newCapacity + 16)
        q.moveInitialize(from: p, count: capacity)
        p.deallocate()
        p = q
        capacity = newCapacity
    }

    private func enclosingItem(below index: Int) -> Int {
        var k = index - 1
        while k >= 0 {
            let start = k == 0 ? 0 : ends[k - 1]
            if Self.isItemName(UnsafeBufferPointer(start: names, count: ends[k]), from: start, to: ends[k]) { return k }
            k -= 1
        }
        return -1
    }

    private func name(_ k: Int) -> [UInt8] {
        let start = k == 0 ? 0 : ends[k - 1]
        return Array(UnsafeBufferPointer(start: names + start, count: ends[k] - start))
    }

    // Names are short: two words moved or compared at once cost less than a call to memcpy or
    // memcmp (the storage has 16 bytes to spare past its capacity; the input is read past a
    // name only where it has the bytes).

    @inline(__always)
    private static func copyName(to p: UnsafeMutablePointer<UInt8>, from b: UnsafeBufferPointer<UInt8>, at from: Int, count: Int) {
        let source = b.baseAddress!
        if count <= 16 && from + 16 <= b.count {
            let raw = UnsafeMutableRawPointer(p)
            raw.storeBytes(of: UnsafeRawPointer(source + from).loadUnaligned(as: UInt64.self), as: UInt64.self)
            (raw + 8).storeBytes(of: UnsafeRawPointer(source + from + 8).loadUnaligned(as: UInt64.self), as: UInt64.self)
        } else {
            memcpy(p, source + from, count)
        }
    }

    @inline(__always)
    private static func sameName(_ p: UnsafeMutablePointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, at from: Int, count: Int) -> Bool {
        let source = b.baseAddress!
        guard count <= 16 && from + 16 <= b.count else { return memcmp(p, source + from, count) == 0 }
        let low: UInt64 = count >= 8 ? ~0 : (1 << UInt64(count * 8)) &- 1
        let high: UInt64 = count >= 16 ? ~0 : count <= 8 ? 0 : (1 << UInt64((count - 8) * 8)) &- 1
        let a = UnsafeRawPointer(p), c = UnsafeRawPointer(source + from)
        return (a.loadUnaligned(as: UInt64.self) ^ c.loadUnaligned(as: UInt64.self)) & low == 0
            && ((a + 8).loadUnaligned(as: UInt64.self) ^ (c + 8).loadUnaligned(as: UInt64.self)) & high == 0
    }

    @inline(__always)
    private func nameEquals(_ k: Int, _ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int, caseless: Bool) -> Bool {
        let start = k == 0 ? 0 : ends[k - 1]
        guard ends[k] - start == to - from else { return false }
        var i = 0
        while i < to - from {
            let x = names[start + i], y = b[from + i]
            if x != y && !(caseless && x | 0x20 == y | 0x20 && (x | 0x20) &- 0x61 < 26) { return false }
            i += 1
        }
        return true
    }

    /// `item` or `entry`, with or without a prefix.
    @inline(__always)
    static func isItemName(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
        let n = to - from
        if n >= 4, b[to - 4] == 0x69, b[to - 3] == 0x74, b[to - 2] == 0x65, b[to - 1] == 0x6D {   // item
            return n == 4 || b[to - 5] == 0x3A
        }
        if n >= 5, b[to - 5] == 0x65, b[to - 4] == 0x6E, b[to - 3] == 0x74, b[to - 2] == 0x72, b[to - 1] == 0x79 {   // entry
            return n == 5 || b[to - 6] == 0x3A
        }
        return false
    }
}
