/// One parsed JSON document: the input bytes and one 12-byte node per value, in document order
/// (a container's node comes before its elements; an object's members are key, value, key,
/// value...). Strings and numbers are byte ranges of the input, decoded when asked for
/// (`JSONValue`), so the memory a document costs is its bytes plus 12 bytes per value, bounded
/// by `JSONLimits.maxValues` (Foundation's `JSONSerialization` built an object graph of 150 to
/// 200 times the input on arrays of small values).
final class JSONTape: Sendable {
    let bytes: [UInt8]
    let nodes: [JSONNode]

    init(bytes: [UInt8], nodes: [JSONNode]) {
        self.bytes = bytes
        self.nodes = nodes
    }
}

struct JSONNode: Sendable {
    enum Kind: UInt8 { case null, bool, number, string, array, object }

    var kind: Kind
    /// string: `hasEscapes`; number: `isInteger`; bool: `isTrue`.
    var flag: Bool
    /// string, number: first byte (after the quote); array, object: number of elements (members).
    var a: UInt32
    /// string, number: length in bytes; array, object: index of the first node after the
    /// container's last descendant.
    var b: UInt32
}

/// Bounds on one document, as the XML side has (a depth limit and a budget); exceeding one is an
/// error naming it. The input's size is bounded before this (by the fetcher, `ParseOptions`).
public struct JSONLimits: Sendable {
    /// Nesting of arrays and objects (512, as `JSONSerialization` allowed).
    public var maxDepth: Int
    /// Values (keys included) in one document: 4,194,304 is 48 MB of nodes, ~10 times the values
    /// of the largest real JSON Feeds and search answers seen (a 28 MB JSON Feed holds ~310,000).
    public var maxValues: Int

    public static let standard = JSONLimits(maxDepth: 512, maxValues: 1 << 22)

    public init(maxDepth: Int, maxValues: Int) {
        self.maxDepth = maxDepth
        self.maxValues = maxValues
    }
}

/// The single-pass parser into a `JSONTape`: RFC 8259 JSON, with what `JSONSerialization`
/// accepted besides (a trailing comma before `]` or `}`, a scalar at the top level, a UTF-8 byte
/// order mark). Strings are checked here (escapes, control characters, UTF-8) and decoded later;
/// numbers are checked against the grammar. Iterative: the depth limit bounds a small stack,
/// never the call stack.
struct JSONParser {
    private let limits: JSONLimits
    private var nodes: [JSONNode] = []
    /// The open containers: node index and elements so far.
    private var open: [(node: Int, count: Int)] = []

    static func parse(_ bytes: [UInt8], limits: JSONLimits = .standard) throws(JSONSyntaxError) -> JSONTape {
        guard bytes.count < Int(UInt32.max) else { throw .tooLarge }
        var parser = JSONParser(limits: limits)
        // Space for the most values the input can hold (two bytes each), within the budget: one
        // allocation, and pages never written cost no memory.
        parser.nodes.reserveCapacity(min(limits.maxValues, bytes.count / 2 + 1) + 1)
        try bytes.withUnsafeBufferPointer { (p) throws(JSONSyntaxError) in try parser.run(p) }
        return JSONTape(bytes: bytes, nodes: parser.nodes)
    }

    private init(limits: JSONLimits) { self.limits = limits }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    private mutating func run(_ p: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) {
        let n = p.count
        var i = 0
        if n >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF { i = 3 }
        var wantValue = true
        while true {
            while i < n, Self.isSpace(p[i]) { i += 1 }
            if wantValue {
                guard i < n else { throw .truncated }
                switch p[i] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = p[i] == UInt8(ascii: "{")
                    guard open.count < limits.maxDepth else { throw .tooDeep(limits.maxDepth) }
                    try append(JSONNode(kind: isObject ? .object : .array, flag: false, a: 0, b: 0), counted: true)
                    open.append((nodes.count - 1, 0))
                    i += 1
                    while i < n, Self.isSpace(p[i]) { i += 1 }
                    guard i < n else { throw .truncated }
                    if p[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        i += 1
                        close()
                        wantValue = false
                    } else if isObject {
                        try key(p, &i)
                    }
                    continue
                case UInt8(ascii: "\""):
                    try string(p, &i, counted: true)
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    try number(p, &i)
                case UInt8(ascii: "t"):
                    try literal("true", p, &i)
                    try append(JSONNode(kind: .bool, flag: true, a: 0, b: 0), counted: true)
                case UInt8(ascii: "f"):
                    try literal("false", p, &i)
                    try append(JSONNode(kind: .bool, flag: false, a: 0, b: 0), counted: true)
                case UInt8(ascii: "n"):
                    try literal("null", p, &i)
                    try append(JSONNode(kind: .null, flag: false, a: 0, b: 0), counted: true)
                default:
                    throw .unexpected(what: "a value", at: i, found: p[i])
                }
                wantValue = false
                continue
            }
            guard let top = open.last else {
                guard i == n else { throw .unexpected(what: "the end of the document", at: i, found: p[i]) }
                return
            }
            let isObject = nodes[top.node].kind == .object
            let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            guard i < n else { throw .truncated }
            if p[i] == UInt8(ascii: ",") {
                i += 1
                while i < n, Self.isSpace(p[i]) { i += 1 }
                guard i < n else { throw .truncated }
                if p[i] == closer {  // a trailing comma, as JSONSerialization accepted
                    i += 1
                    close()
                } else {
                    if isObject { try key(p, &i) }
                    wantValue = true
                }
            } else if p[i] == closer {
                i += 1
                close()
            } else {
                throw .unexpected(what: isObject ? "',' or '}'" : "',' or ']'", at: i, found: p[i])
            }
        }
    }

    private mutating func append(_ node: JSONNode, counted: Bool) throws(JSONSyntaxError) {
        guard nodes.count < limits.maxValues else { throw .tooManyValues(limits.maxValues) }
        nodes.append(node)
        if counted, !open.isEmpty { open[open.count - 1].count += 1 }
    }

    private mutating func close() {
        let top = open.removeLast()
        nodes[top.node].a = UInt32(top.count)
        nodes[top.node].b = UInt32(nodes.count)
    }

    /// An object member's key and its colon; `i` is at the key's quote (else an error).
    private mutating func key(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) throws(JSONSyntaxError) {
        guard p[i] == UInt8(ascii: "\"") else { throw .unexpected(what: "a key in quotes", at: i, found: p[i]) }
        try string(p, &i, counted: false)
        while i < p.count, Self.isSpace(p[i]) { i += 1 }
        guard i < p.count else { throw .truncated }
        guard p[i] == UInt8(ascii: ":") else { throw .unexpected(what: "':'", at: i, found: p[i]) }
        i += 1
    }

    private mutating func literal(_ word: StaticString, _ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) throws(JSONSyntaxError) {
        let start = i
        for k in 0..<word.utf8CodeUnitCount {
            guard i < p.count else { throw .truncated }
            guard p[i] == word.utf8Start[k] else { throw .unexpected(what: "a value", at: start, found: p[start]) }
            i += 1
        }
    }

    /// A string from its opening quote; `i` ends after the closing quote.
    private mutating func string(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, counted: Bool) throws(JSONSyntaxError) {
        i += 1
        let start = i, n = p.count
        var escapes = false
        while true {
            // ASCII without quotes, backslashes or controls: the common case, one test per byte.
            while i < n, p[i] >= 0x20, p[i] < 0x80, p[i] != UInt8(ascii: "\""), p[i] != UInt8(ascii: "\\") { i += 1 }
            guard i < n else { throw .truncated }
            let c = p[i]
            if c == UInt8(ascii: "\"") { break }
            if c == UInt8(ascii: "\\") {
                escapes = true
                guard i + 1 < n else { throw .truncated }
                switch p[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                     UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 5 < n else { throw .truncated }
                    for k in 2...5 where JSONScalars.hexValue(p[i + k]) == nil { throw .badEscape(at: i) }
                    i += 6
                default:
                    throw .badEscape(at: i)
                }
            } else if c < 0x20 {
                throw .controlCharacter(at: i)
            } else {
                guard let length = Self.utf8SequenceLength(p, at: i) else { throw .badUTF8(at: i) }
                i += length
            }
        }
        try append(JSONNode(kind: .string, flag: escapes, a: UInt32(start), b: UInt32(i - start)), counted: counted)
        i += 1
    }

    /// The length of the well-formed UTF-8 sequence starting at `i` (a byte >= 0x80), or nil
    /// (Unicode's table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF).
    static func utf8SequenceLength(_ p: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        let n = p.count
        func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool { k < n && p[k] >= lo && p[k] <= hi }
        switch p[i] {
        case 0xC2...0xDF: return cont(i + 1) ? 2 : nil
        case 0xE0: return cont(i + 1, 0xA0) && cont(i + 2) ? 3 : nil
        case 0xE1...0xEC, 0xEE, 0xEF: return cont(i + 1) && cont(i + 2) ? 3 : nil
        case 0xED: return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : nil
        case 0xF0: return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : nil
        case 0xF1...0xF3: return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : nil
        case 0xF4: return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : nil
        default: return nil
        }
    }

    /// A number by the JSON grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    private mutating func number(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) throws(JSONSyntaxError) {
        let start = i, n = p.count
        func isDigit(_ k: Int) -> Bool { k < n && p[k] >= UInt8(ascii: "0") && p[k] <= UInt8(ascii: "9") }
        func digits(_ k: inout Int) throws(JSONSyntaxError) {
            guard k < n else { throw .truncated }
            guard isDigit(k) else { throw .badNumber(at: start) }
            while isDigit(k) { k += 1 }
        }
        if p[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n else { throw .truncated }
        if p[i] == UInt8(ascii: "0") {
            i += 1
            if isDigit(i) { throw .leadingZero(at: start) }
        } else {
            try digits(&i)
        }
        var integer = true
        if i < n, p[i] == UInt8(ascii: ".") {
            integer = false
            i += 1
            try digits(&i)
        }
        if i < n, p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E") {
            integer = false
            i += 1
            if i < n, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") { i += 1 }
            try digits(&i)
        }
        try append(JSONNode(kind: .number, flag: integer, a: UInt32(start), b: UInt32(i - start)), counted: true)
    }
}

/// Why bytes are not JSON, or not JSON this reader takes: one line naming the place (a byte
/// offset) or the limit.
enum JSONSyntaxError: Error, Equatable {
    case truncated
    case unexpected(what: String, at: Int, found: UInt8)
    case badEscape(at: Int)
    case controlCharacter(at: Int)
    case badUTF8(at: Int)
    case badNumber(at: Int)
    case leadingZero(at: Int)
    case tooDeep(Int)
    case tooManyValues(Int)
    case tooLarge

    var message: String {
        switch self {
        case .truncated: return "the JSON ends early (truncated?)"
        case .unexpected(let what, let at, let found):
            return "expected \(what) at byte \(at), found \(Self.describe(found))"
        case .badEscape(let at): return "invalid escape sequence in a string at byte \(at)"
        case .controlCharacter(let at): return "unescaped control character in a string at byte \(at)"
        case .badUTF8(let at): return "invalid UTF-8 in a string at byte \(at)"
        case .badNumber(let at): return "malformed number at byte \(at)"
        case .leadingZero(let at): return "number with a leading zero at byte \(at)"
        case .tooDeep(let limit): return "the JSON nests deeper than \(limit) levels"
        case .tooManyValues(let limit): return "the JSON has more than \(limit) values"
        case .tooLarge: return "the JSON is larger than 4 GB"
        }
    }

    private static func describe(_ c: UInt8) -> String {
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x" + String(c, radix: 16, uppercase: true)
    }
}
