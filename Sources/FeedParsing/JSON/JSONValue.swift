import Foundation

/// Loosely typed access to parsed JSON: real-world APIs put numbers where strings belong and
/// the other way round, so every accessor converts what it reasonably can and never traps. A
/// value is a view into a `JSONTape` (the document and a node index): nothing is built until a
/// reader asks for it, and a missing member or element is a value too (`isNull`).
struct JSONValue {
    let tape: JSONTape?
    /// The node, or -1 for "not there".
    let node: Int

    init(tape: JSONTape?, node: Int) {
        self.tape = tape
        self.node = node
    }

    private static let missing = JSONValue(tape: nil, node: -1)

    /// Parses a whole document within `limits`; a syntax error or an exceeded limit is a
    /// `FeedParseError.invalidJSON` naming it.
    static func parse(_ bytes: [UInt8], limits: JSONLimits = .standard) throws -> JSONValue {
        do {
            let tape = try JSONParser.parse(bytes, limits: limits)
            return JSONValue(tape: tape, node: 0)
        } catch {
            throw FeedParseError.invalidJSON(error.message)
        }
    }

    private var kind: JSONNode.Kind? {
        guard let tape, node >= 0 else { return nil }
        return tape.nodes[node].kind
    }

    /// The member named `key` (the last one when the key is repeated, as JSONSerialization kept).
    subscript(key: String) -> JSONValue {
        guard let tape, kind == .object else { return .missing }
        let container = tape.nodes[node]
        var found = -1
        var k = node + 1
        let end = Int(container.b)
        var wanted = key
        wanted.withUTF8 { want in
            tape.bytes.withUnsafeBufferPointer { bytes in
                while k < end {
                    let keyNode = tape.nodes[k]
                    let value = k + 1
                    if Self.keyMatches(keyNode, want, bytes) { found = value }
                    k = Self.next(after: value, in: tape)
                }
            }
        }
        return found < 0 ? .missing : JSONValue(tape: tape, node: found)
    }

    private static func keyMatches(_ key: JSONNode, _ want: UnsafeBufferPointer<UInt8>,
                                   _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(key.a)..<Int(key.a + key.b)])
        guard key.flag else { return raw.elementsEqual(want) }
        return JSONScalars.unescaped(raw).elementsEqual(want)
    }

    /// The node after `i` and all of its descendants.
    static func next(after i: Int, in tape: JSONTape) -> Int {
        let n = tape.nodes[i]
        return n.kind == .array || n.kind == .object ? Int(n.b) : i + 1
    }

    subscript(index: Int) -> JSONValue {
        guard index >= 0, kind == .array else { return .missing }
        var count = 0
        for element in array {
            if count == index { return element }
            count += 1
        }
        return .missing
    }

    var isObject: Bool { kind == .object }
    var isArray: Bool { kind == .array }
    /// Null, or not there at all.
    var isNull: Bool { kind == nil || kind == .null }

    /// The elements of an array; none for anything else.
    var array: Elements {
        guard let tape, kind == .array else { return Elements(tape: nil, start: 0, end: 0, count: 0) }
        let n = tape.nodes[node]
        return Elements(tape: tape, start: node + 1, end: Int(n.b), count: Int(n.a))
    }

    /// An array's elements, walked in order without building anything.
    struct Elements: Collection {
        fileprivate let tape: JSONTape?
        let startIndex: Int
        let endIndex: Int
        let count: Int

        fileprivate init(tape: JSONTape?, start: Int, end: Int, count: Int) {
            self.tape = tape
            startIndex = start
            endIndex = end
            self.count = count
        }

        subscript(position: Int) -> JSONValue { JSONValue(tape: tape, node: position) }
        func index(after i: Int) -> Int { JSONValue.next(after: i, in: tape!) }
        var isEmpty: Bool { count == 0 }
    }

    private func scalarText() -> String? {
        guard let tape, node >= 0 else { return nil }
        let n = tape.nodes[node]
        guard n.kind == .string || n.kind == .number else { return nil }
        return tape.bytes.withUnsafeBufferPointer { bytes in
            let raw = UnsafeBufferPointer(rebasing: bytes[Int(n.a)..<Int(n.a + n.b)])
            return n.kind == .string ? JSONScalars.string(raw, hasEscapes: n.flag) : String(decoding: raw, as: UTF8.self)
        }
    }

    /// Strings as they are; numbers written out (`JSONScalars.numberString`); true and false
    /// as "1" and "0" (what JSONSerialization's NSNumber gave); nil for null, objects, arrays.
    var string: String? {
        guard let tape, node >= 0 else { return nil }
        let n = tape.nodes[node]
        switch n.kind {
        case .string: return scalarText()
        case .number: return scalarText().map { JSONScalars.numberString($0, isInteger: n.flag) }
        case .bool: return n.flag ? "1" : "0"
        default: return nil
        }
    }

    /// Integers from numbers or numeric strings, when integral and within Int64 (1.5, 1e300,
    /// 2^63 and "99999999999999999999" are nil); true and false are 1 and 0.
    var int: Int? {
        guard let tape, node >= 0 else { return nil }
        let n = tape.nodes[node]
        switch n.kind {
        case .number: return scalarText().flatMap { JSONScalars.int($0, isInteger: n.flag) }
        case .string: return scalarText().flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        case .bool: return n.flag ? 1 : 0
        default: return nil
        }
    }
}
