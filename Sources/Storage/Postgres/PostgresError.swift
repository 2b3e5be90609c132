// Foundation only for `LocalizedError` (as `StorageError`).
import Foundation

/// Everything that can go wrong talking to PostgreSQL, each case naming the server as
/// `postgresql://user@host:port/database` (never a password) and what was being done.
public enum PostgresError: Error, Equatable, Sendable {
    /// The address is not one libpq understands (`reason` is libpq's, any password blanked).
    case badAddress(reason: String)
    /// No session could be opened: server down, refused, wrong database or user, no permission.
    case cannotConnect(server: String, reason: String)
    /// The session broke while `context` was being done.
    case connectionLost(server: String, reason: String, context: String)
    /// The server refused a statement: SQLSTATE `sqlState` and its message.
    case server(server: String, sqlState: String, message: String, context: String)
    /// A NOT NULL, UNIQUE, CHECK or FOREIGN KEY constraint refused a write (SQLSTATE class 23).
    case constraintViolated(server: String, message: String, context: String)
    /// The database holds tables of a newer feeds's PostgreSQL schema.
    case newerSchema(server: String, found: Int, supported: Int)
    /// The database has tables, but not a feeds schema.
    case notAFeedsDatabase(server: String, reason: String)
    /// A worker's session (`PostgresStore.fence`) tried to record the outcome of a source whose
    /// lease another worker (`holder`, nil when released) has taken: nothing was written.
    case leaseLost(server: String, source: Int64, worker: String, holder: String?)
    /// A value the server returned is not what the schema allows (a column's text is no number).
    case unreadableValue(server: String, column: String, context: String)
    /// A write inside a batch's transaction failed (`reason`), so the whole batch was rolled back.
    case batchRolledBack(server: String, reason: String, context: String)
}

extension PostgresError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case let .badAddress(reason):
            return "cannot read the PostgreSQL address: \(reason); write it as postgres://user@host:port/database"
        case let .cannotConnect(server, reason):
            return "cannot connect to PostgreSQL \(server): \(reason)"
        case let .connectionLost(server, reason, context):
            return "the connection to PostgreSQL \(server) broke while \(context): \(reason)"
        case let .server(server, sqlState, message, context):
            return "PostgreSQL \(server): \(message) (SQLSTATE \(sqlState)) while \(context)"
        case let .constraintViolated(server, message, context):
            return "PostgreSQL \(server) refused a write while \(context): \(message)"
        case let .newerSchema(server, found, supported):
            return "PostgreSQL \(server) has feeds schema version \(found) but this feeds knows only up to \(supported); use a newer feeds"
        case let .notAFeedsDatabase(server, reason):
            return "PostgreSQL \(server) is not a feeds database (\(reason)); name an empty database or one feeds created"
        case let .leaseLost(server, source, worker, holder):
            let now = holder.map { "\($0) holds it now" } ?? "nobody holds it now"
            return "PostgreSQL \(server): the lease of source \(source) is no longer \(worker)'s (it expired; \(now)), so this outcome is not recorded"
        case let .unreadableValue(server, column, context):
            return "PostgreSQL \(server) returned an unreadable \(column) while \(context)"
        case let .batchRolledBack(server, reason, context):
            return "PostgreSQL \(server): nothing of the batch was saved while \(context), since one of its writes failed: \(reason)"
        }
    }
}
