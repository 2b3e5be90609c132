import Foundation

/// Loosely typed access to parsed JSON: real-world APIs put numbers where strings belong and
/// the other way round, so every accessor converts what it reasonably can and never traps.
struct JSONValue {
    let raw: Any?

    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        do {
            return JSONValue(raw: try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]))
        } catch {
            throw FeedParseError.invalidJSON(Self.describe(error))
        }
    }

    private static func describe(_ error: Error) -> String {
        let ns = error as NSError
        if let detail = ns.userInfo[NSDebugDescriptionErrorKey] as? String { return detail }
        return "the JSON is malformed or truncated"
    }

    subscript(key: String) -> JSONValue { JSONValue(raw: (raw as? [String: Any])?[key]) }
    subscript(index: Int) -> JSONValue {
        guard let a = raw as? [Any], index >= 0, index < a.count else { return JSONValue(raw: nil) }
        return JSONValue(raw: a[index])
    }

    var isObject: Bool { raw is [String: Any] }
    var array: [JSONValue] { (raw as? [Any])?.map { JSONValue(raw: $0) } ?? [] }
    var isNull: Bool { raw == nil || raw is NSNull }

    /// Strings as they are; numbers written out; nil for null, objects, arrays.
    var string: String? {
        switch raw {
        case let s as String: return s
        case let n as NSNumber:
            let d = n.doubleValue
            if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
            return n.stringValue
        default: return nil
        }
    }

    /// Integers from numbers or numeric strings.
    var int: Int? {
        switch raw {
        case let n as NSNumber: return n.intValue
        case let s as String: return Int(s.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }
}
