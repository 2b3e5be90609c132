import CLibPQShim

/// One PostgreSQL session, owned by this object and closed (`PQfinish`) when it is released.
///
/// Not `Sendable`: a session runs one statement at a time, so each thread (and each worker
/// process) opens its own; the server's row locks keep them apart. Every statement goes through
/// `execute`, its parameters always bound ($1, $2 ...), never written into the SQL text.
final class PGConnection {
    private let handle: OpaquePointer
    /// `postgresql://user@host:port/database` as libpq resolved it: what every message names.
    /// Never the password, which is not kept at all.
    let server: String
    /// Statements sent (each `execute`, `executeScript`, BEGIN and COMMIT): each one round trip
    /// to the server, what a worker's cost per feed is counted in (`PostgresStore.statementsSent`).
    private(set) var statementsSent = 0

    /// Opens a session to `address`, a `postgres://` or `postgresql://` URL or a libpq
    /// `key=value` string. The URL may override the connect timeout (10 s when not given);
    /// the client encoding is always UTF-8, whatever the environment says.
    init(address: String) throws {
        let secrets = PGAddress.secrets(in: address)
        // Later keywords override earlier ones, and the expanded address overrides those before it.
        let keywords = ["connect_timeout", "application_name", "dbname", "client_encoding"]
        let values = ["10", "feeds", address, "UTF8"]
        let opened: OpaquePointer? = withCStrings(keywords) { keys in
            withCStrings(values) { vals in cpq_connectdb_params(keys, vals, 1) }
        }
        guard let opened else {
            let reason = cpq_load() == 0
                ? "libpq could not be loaded (\(String(cString: cpq_load_error()))); install Debian's libpq5"
                : "out of memory"
            throw PostgresError.cannotConnect(server: PGAddress.redacted(address, secrets), reason: reason)
        }
        let server = PGConnection.describe(opened)
        guard cpq_status(opened) == CONNECTION_OK else {
            let message = PGAddress.redact(PGText.oneLine(String(cString: cpq_error_message(opened))), secrets)
            cpq_finish(opened)
            // libpq reads a malformed address before it connects: say so rather than "cannot connect".
            if message.hasPrefix("invalid ") || message.contains("connection info string") || message.contains("URI") {
                throw PostgresError.badAddress(reason: message)
            }
            throw PostgresError.cannotConnect(server: server, reason: message)
        }
        handle = opened
        self.server = server
        cpq_silence_notices(handle)
    }

    deinit { cpq_finish(handle) }

    /// `postgresql://user@host:port/database` of a session (open or failed).
    private static func describe(_ conn: OpaquePointer) -> String {
        func text(_ value: UnsafeMutablePointer<CChar>?) -> String { value.map { String(cString: $0) } ?? "" }
        let host = text(cpq_host(conn))
        // A socket folder (a path) reads better in brackets than glued to the user name.
        let shownHost = host.hasPrefix("/") ? "[\(host)]" : host
        return "postgresql://\(text(cpq_user(conn)))@\(shownHost):\(text(cpq_port(conn)))/\(text(cpq_db(conn)))"
    }

    /// Runs one statement with `parameters` bound to $1, $2 ... in text format; `context` says
    /// what it was doing, for the error. Returns the rows (or the command's status).
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue] = [], context: @autoclosure () -> String) throws -> PGResult {
        let texts = parameters.map(PGText.parameter)
        statementsSent += 1
        let raw: OpaquePointer? = withOptionalCStrings(texts) { values in
            cpq_exec_params(handle, sql, Int32(texts.count), values)
        }
        return try check(raw, context: context())
    }

    /// Runs a script of statements without parameters (a migration): libpq's simple protocol,
    /// the only one that takes several statements in one call.
    func executeScript(_ sql: String, context: @autoclosure () -> String) throws {
        statementsSent += 1
        _ = try check(cpq_exec(handle, sql), context: context())
    }

    /// Runs `body` in a transaction and commits it, or rolls back when `body` throws. Inside
    /// another transaction (a batch of outcomes: `PostgresStore.inOneTransaction`) `body` joins
    /// it; should it throw there, the outer transaction rolls back everything and throws
    /// `PostgresError.batchRolledBack` even if its own body caught the error, since what the
    /// inner one wrote before throwing cannot be taken back alone. So does a statement that
    /// failed on the server inside it (the server refuses every later one until the end).
    func transaction<T>(_ context: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        guard cpq_transaction_status(handle) == PQTRANS_IDLE else {
            do { return try body() } catch { innerFailure = innerFailure ?? error; throw error }
        }
        try execute("BEGIN", context: context())
        innerFailure = nil
        let result: T
        do {
            result = try body()
            if let failed = innerFailure ?? (cpq_transaction_status(handle) == PQTRANS_INERROR ? PostgresError.server(
                server: server, sqlState: "25P02", message: "a statement failed", context: context()) : nil) {
                throw PostgresError.batchRolledBack(server: server, reason: failed.localizedDescription, context: context())
            }
            try execute("COMMIT", context: context())
        } catch {
            innerFailure = nil
            // The first error is the one worth reporting; a broken session rolls back by itself.
            if cpq_transaction_status(handle) != PQTRANS_IDLE { _ = try? execute("ROLLBACK", context: "rolling back") }
            throw error
        }
        return result
    }

    /// The first error a joined transaction threw (see `transaction`).
    private var innerFailure: Error?

    /// The result as a success, or the typed error of its failure.
    private func check(_ raw: OpaquePointer?, context: String) throws -> PGResult {
        guard let raw else {
            throw connectionError(context: context)
        }
        let result = PGResult(handle: raw, server: server, context: context)
        switch result.status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return result
        case PGRES_FATAL_ERROR where cpq_status(handle) != CONNECTION_OK:
            throw connectionError(context: context)
        default:
            let failure = result.failure
            if failure.sqlState.hasPrefix("23") {
                throw PostgresError.constraintViolated(server: server, message: failure.message, context: context)
            }
            throw PostgresError.server(server: server, sqlState: failure.sqlState, message: failure.message, context: context)
        }
    }

    private func connectionError(context: String) -> PostgresError {
        let message = PGText.oneLine(String(cString: cpq_error_message(handle)))
        return .connectionLost(server: server, reason: message.isEmpty ? "no answer" : message, context: context)
    }
}

/// `body` with the strings as a C array of C strings, valid only during the call.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    withOptionalCStrings(strings, body)
}

/// The same, a nil string becoming a NULL pointer (SQL NULL for `PQexecParams`).
private func withOptionalCStrings<T>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { string in
        guard let string else { return nil }
        let utf8 = Array(string.utf8CString)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
        copy.initialize(from: utf8, count: utf8.count)
        return copy
    }
    defer { for copy in copies { copy?.deallocate() } }
    // One more NULL: the keyword arrays of PQconnectdbParams end with one.
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// What an address holds that no message may repeat.
enum PGAddress {
    /// The password of `postgres://user:password@host/...` and of `password=...` in a
    /// `key=value` string (or as a URL parameter), as written.
    static func secrets(in address: String) -> [String] {
        var found: [String] = []
        if let scheme = address.range(of: "://") {
            let rest = address[scheme.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" }
            if let at = authority.lastIndex(of: "@") {
                let userInfo = authority[..<at]
                if let colon = userInfo.firstIndex(of: ":") {
                    found.append(String(userInfo[userInfo.index(after: colon)...]))
                }
            }
        }
        // password=... in a key=value string or a URL's query: up to the next space or &.
        var search = address[...]
        while let key = search.range(of: "password=") {
            let value = search[key.upperBound...].prefix { $0 != " " && $0 != "&" }
            found.append(String(value.hasPrefix("'") ? value.dropFirst().prefix { $0 != "'" } : value))
            search = search[key.upperBound...]
        }
        return found.filter { !$0.isEmpty }
    }

    static func redact(_ message: String, _ secrets: [String]) -> String {
        var message = message
        for secret in secrets {
            while let range = message.range(of: secret) { message.replaceSubrange(range, with: "***") }
        }
        return message
    }

    static func redacted(_ address: String, _ secrets: [String]) -> String { redact(address, secrets) }
}

private extension String {
    /// The first range of `other` (Storage does without Foundation here).
    func range(of other: String) -> Range<String.Index>? { self[...].range(of: other) }
}

private extension Substring {
    func range(of other: String) -> Range<String.Index>? {
        guard !other.isEmpty else { return nil }
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(other) {
                return index..<self.index(index, offsetBy: other.count)
            }
            index = self.index(after: index)
        }
        return nil
    }
}
