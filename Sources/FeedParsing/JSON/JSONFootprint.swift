/// What one JSON document costs the reader, found by parsing it and reading every value back
/// through the accessors the readers use: the fuzz target `jsonMemory` checks these against the
/// input's size (the bound the reader promises), and the hostile-shape tests use it too.
public struct JSONFootprint: Sendable, Equatable {
    /// Values in the document, keys included.
    public var values = 0
    /// Bytes of the parsed form besides the input (the nodes).
    public var nodeBytes = 0
    /// Deepest nesting of arrays and objects.
    public var depth = 0
    /// Bytes of every string as written (between the quotes) and as decoded.
    public var rawStringBytes = 0
    public var decodedStringBytes = 0

    /// Bytes one value costs.
    public static let bytesPerValue = MemoryLayout<JSONNode>.stride

    /// Parses `bytes` within `limits` and reads every value; throws what the readers would see
    /// (`FeedParseError.invalidJSON`).
    public static func measure(_ bytes: [UInt8], limits: JSONLimits = .standard) throws -> JSONFootprint {
        let root = try JSONValue.parse(bytes, limits: limits)
        var f = JSONFootprint()
        var stack: [(JSONValue, Int)] = [(root, 0)]
        while let (v, depth) = stack.popLast() {
            f.values += 1
            if v.isArray || v.isObject { f.depth = max(f.depth, depth + 1) }
            if v.isArray {
                for element in v.array { stack.append((element, depth + 1)) }
            } else if v.isObject {
                for (i, (key, value)) in v.members.enumerated() {
                    f.values += 1
                    f.rawStringBytes += key.raw
                    f.decodedStringBytes += key.decoded.utf8.count
                    // The lookup by name finds this member or a later one of the same name (for
                    // the first members: each lookup walks the object).
                    if i < 64, v[key.decoded].isNull && !value.isNull { throw FeedParseError.internal("key \(key.decoded.debugDescription) not found") }
                    stack.append((value, depth + 1))
                }
            } else if let raw = v.rawStringLength {
                f.rawStringBytes += raw
                f.decodedStringBytes += v.string?.utf8.count ?? 0
            } else {
                _ = (v.string, v.int)
            }
        }
        f.nodeBytes = f.values * bytesPerValue
        return f
    }
}

extension JSONValue {
    /// An object's members in document order, keys decoded (a repeated key each time).
    var members: [(key: (decoded: String, raw: Int), value: JSONValue)] {
        guard let tape, isObject else { return [] }
        var out: [(key: (decoded: String, raw: Int), value: JSONValue)] = []
        var k = node + 1
        let end = Int(tape.nodes[node].b)
        while k < end {
            let key = tape.nodes[k]
            let decoded = tape.bytes.withUnsafeBufferPointer {
                JSONScalars.string(UnsafeBufferPointer(rebasing: $0[Int(key.a)..<Int(key.a + key.b)]), hasEscapes: key.flag)
            }
            out.append(((decoded, Int(key.b)), JSONValue(tape: tape, node: k + 1)))
            k = JSONValue.next(after: k + 1, in: tape)
        }
        return out
    }

    /// A string's length as written, between the quotes; nil for anything else.
    var rawStringLength: Int? {
        guard let tape, node >= 0, tape.nodes[node].kind == .string else { return nil }
        return Int(tape.nodes[node].b)
    }
}
