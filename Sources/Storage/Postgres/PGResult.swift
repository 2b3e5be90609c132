import CLibPQShim
import FeedModel

/// One result of a statement, owned by this object and cleared when it is released.
/// Values are read in libpq's text format and checked as they are read: a column that should
/// hold a number and does not is a typed error, never a trap.
final class PGResult {
    private let handle: OpaquePointer
    /// For error messages: the server and what the statement was doing.
    let server: String
    let context: String

    /// Takes ownership of `handle` (freed in deinit, whatever the caller does next).
    init(handle: OpaquePointer, server: String, context: String) {
        self.handle = handle
        self.server = server
        self.context = context
    }

    deinit { cpq_clear(handle) }

    var status: ExecStatusType { cpq_result_status(handle) }
    var rowCount: Int { Int(cpq_ntuples(handle)) }
    /// Rows an INSERT, UPDATE or DELETE changed (0 when the command reports none).
    var changedRows: Int { Int(String(cString: cpq_cmd_tuples(handle))) ?? 0 }

    /// The server's SQLSTATE and message of a failed statement.
    var failure: (sqlState: String, message: String) {
        let state = cpq_result_error_field(handle, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? "?????"
        let primary = cpq_result_error_field(handle, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
        let message = primary ?? String(cString: cpq_result_error_message(handle))
        return (state, PGText.oneLine(message))
    }

    func isNull(_ row: Int, _ column: Int) -> Bool { cpq_getisnull(handle, Int32(row), Int32(column)) != 0 }

    func string(_ row: Int, _ column: Int) -> String? {
        guard !isNull(row, column), let value = cpq_getvalue(handle, Int32(row), Int32(column)) else { return nil }
        return String(cString: value)
    }

    func optionalInt64(_ row: Int, _ column: Int) throws -> Int64? {
        guard let text = string(row, column) else { return nil }
        guard let value = Int64(text) else { throw unreadable(column) }
        return value
    }

    func int64(_ row: Int, _ column: Int) throws -> Int64 {
        guard let value = try optionalInt64(row, column) else { throw unreadable(column) }
        return value
    }

    func int(_ row: Int, _ column: Int) throws -> Int {
        // Int is 64 bits on every platform feeds builds for.
        Int(try int64(row, column))
    }

    func optionalInt(_ row: Int, _ column: Int) throws -> Int? {
        try optionalInt64(row, column).map { Int($0) }
    }

    func optionalTimestamp(_ row: Int, _ column: Int) throws -> Timestamp? {
        try optionalInt64(row, column).map { Timestamp(secondsSince1970: $0) }
    }

    func timestamp(_ row: Int, _ column: Int) throws -> Timestamp {
        Timestamp(secondsSince1970: try int64(row, column))
    }

    func bool(_ row: Int, _ column: Int) throws -> Bool {
        switch string(row, column) {
        case "t": return true
        case "f": return false
        default: throw unreadable(column)
        }
    }

    /// Every row through `map`, in order.
    func rows<T>(_ map: (Int) throws -> T) throws -> [T] {
        try (0..<rowCount).map(map)
    }

    private func unreadable(_ column: Int) -> PostgresError {
        let name = cpq_fname(handle, Int32(column)).map { String(cString: $0) } ?? "column \(column)"
        return .unreadableValue(server: server, column: name, context: context)
    }
}

/// Text to and from libpq.
enum PGText {
    /// libpq's messages span lines ("...failed: Connection refused\n\tIs the server running...");
    /// one line for a person's terminal.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline)
            .map { line in String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
    }

    /// A parameter as libpq's text format takes it. PostgreSQL text cannot hold U+0000 (and a C
    /// string would end there, cutting the value short), so it becomes U+FFFD, as the
    /// transcoder does with any other character that cannot be kept.
    static func parameter(_ value: SQLValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let n): return String(n)
        case .real(let x): return String(x)
        case .text(let s): return withoutNUL(s)
        case .utf8(let t): return withoutNUL(t.string)
        }
    }
}

extension PGText {
    static func withoutNUL(_ s: String) -> String {
        guard s.utf8.contains(0) else { return s }
        var scalars = String.UnicodeScalarView()
        for scalar in s.unicodeScalars { scalars.append(scalar == "\u{0}" ? "\u{FFFD}" : scalar) }
        return String(scalars)
    }
}
