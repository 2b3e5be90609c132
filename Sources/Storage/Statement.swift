import CSQLite
import FeedModel

/// One compiled SQL statement, owned by this object and given back to its connection when it
/// is released (kept for the next `prepare` of the same text, or finalized).
///
/// Every execution binds all parameters afresh and resets the statement when it is done, so a
/// statement never holds a read transaction open between uses and can be reused in a loop.
final class Statement {
    private let handle: OpaquePointer
    /// Kept strongly: a statement must not outlive its connection.
    let database: Database
    let sql: String

    init(handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { database.giveBack(handle, sql: sql) }

    /// Runs the statement to completion with `values` bound to ?1, ?2, …; returns nothing.
    func execute(_ values: [SQLValue] = []) throws {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs the statement with `values` bound and maps every result row.
    /// `reservingCapacity`: the rows expected, when known: an array of thousands of large
    /// values grown by doubling copies them again and again into fresh pages.
    func query<T>(_ values: [SQLValue] = [], reservingCapacity expected: Int = 0, _ map: (Row) throws -> T) throws -> [T] {
        try bind(values)
        defer { sqlite3_reset(handle) }
        var rows: [T] = []
        rows.reserveCapacity(expected)
        while try step() { rows.append(try map(Row(handle: handle))) }
        return rows
    }

    /// Calls `body` with each row in turn, holding none of them: for listings of any length.
    func each(_ values: [SQLValue] = [], _ body: (Row) throws -> Void) throws {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() { try body(Row(handle: handle)) }
    }

    /// The first row mapped, or nil when there is none.
    func queryOne<T>(_ values: [SQLValue] = [], _ map: (Row) throws -> T) throws -> T? {
        try bind(values)
        defer { sqlite3_reset(handle) }
        return try step() ? try map(Row(handle: handle)) : nil
    }

    // MARK: - Private

    private func bind(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        precondition(values.count == expected,
                     "Storage: \(values.count) values for \(expected) parameters in \(sql)")
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let v): code = sqlite3_bind_int64(handle, index, v)
            case .real(let v): code = sqlite3_bind_double(handle, index, v)
            // TRANSIENT: SQLite copies the bytes, because Swift's buffer lives only for this call.
            // The length given: SQLite need not look for the end (descriptions are kilobytes).
            case .text(var v): code = v.withUTF8 { bindText($0, at: index) }
            case .utf8(let v): code = v.withUTF8 { bindText($0, at: index) }
            }
            try database.check(code, "binding parameter \(index) of \(sql)")
        }
    }

    private func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) -> Int32 {
        bytes.withMemoryRebound(to: CChar.self) { chars in
            // An empty buffer may have no address, which SQLite would take for NULL.
            guard let start = chars.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, csqlite_transient()) }
            return sqlite3_bind_text(handle, index, start, Int32(chars.count), csqlite_transient())
        }
    }

    /// One step: true when a row is ready, false when done.
    private func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(code, context: "running \(sql)")
        }
    }
}

/// The current row of a statement; only valid inside the `query` closure.
struct Row {
    fileprivate let handle: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func isInteger(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_INTEGER }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    func int(_ column: Int32) -> Int { Int(int64(column)) }

    func optionalInt(_ column: Int32) -> Int? { optionalInt64(column).map(Int.init) }

    func bool(_ column: Int32) -> Bool { int64(column) != 0 }

    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// Text of the column; nil for NULL.
    func string(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column's text as bytes, valid only inside `body` (empty for NULL): for a test of
    /// the bytes that needs no String.
    func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeBufferPointer(start: sqlite3_column_text(handle, column), count: count))
    }

    /// The column's bytes (a blob's; empty for NULL and for an empty blob).
    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let start = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    func timestamp(_ column: Int32) -> Timestamp { Timestamp(secondsSince1970: int64(column)) }

    func optionalTimestamp(_ column: Int32) -> Timestamp? {
        optionalInt64(column).map(Timestamp.init(secondsSince1970:))
    }
}
