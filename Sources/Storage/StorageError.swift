// Foundation only for `LocalizedError`, so that `error.localizedDescription` in the command line
// tool prints the sentence below instead of "The operation could not be completed".
import Foundation

/// Everything that can go wrong in the store, each case carrying what a person needs to act:
/// the database path, SQLite's own message, and what was being done.
public enum StorageError: Error, Equatable, Sendable {
    /// The file could not be opened or created (missing permission, a directory in the way…).
    case cannotOpen(path: String, reason: String)
    /// The folder that should hold the database could not be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// The file exists but is not SQLite, or is an SQLite database of some other program.
    case notAFeedsDatabase(path: String, reason: String)
    /// SQLite found the file damaged.
    case corrupt(path: String, reason: String)
    /// Another connection held the write lock for longer than the busy timeout.
    case locked(path: String)
    /// The database was written by a newer `feeds` whose schema this program does not know.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The disk (or quota) is full.
    case diskFull(path: String)
    /// The file or its folder is read-only.
    case readOnly(path: String, reason: String)
    /// A NOT NULL, UNIQUE, CHECK or FOREIGN KEY constraint refused a write: a bug in the caller
    /// or in the store, reported with SQLite's wording.
    case constraintViolated(path: String, reason: String)
    /// The caller named a source id that is not (or no longer) in the database.
    case noSuchSource(id: SourceID)
    /// A search text SQLite's FTS5 cannot parse (or a blank one); `reason` is SQLite's wording.
    case badSearchQuery(query: String, reason: String)
    /// A batch of writes (`FeedStore.inOneTransaction`) was rolled back whole because one of
    /// them failed (its own error went to its caller); each is to be written again on its own.
    case batchNotCommitted(path: String)
    /// Any other SQLite failure.
    case sqlite(path: String, code: Int32, message: String, context: String)
}

extension StorageError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "cannot open database \(path): \(reason)"
        case let .cannotCreateDirectory(path, reason):
            return "cannot create the folder \(path) for the database: \(reason)"
        case let .notAFeedsDatabase(path, reason):
            return "\(path) is not a feeds database (\(reason)); move it away or choose another path"
        case let .corrupt(path, reason):
            return "database \(path) is corrupt (\(reason)); restore it from a backup, or move it away to start afresh"
        case let .locked(path):
            return "database \(path) is locked by another process; try again when the other feeds command has finished"
        case let .newerSchema(path, found, supported):
            return "database \(path) has schema version \(found) but this feeds knows only up to \(supported); use a newer feeds"
        case let .diskFull(path):
            return "cannot write database \(path): the disk is full"
        case let .readOnly(path, reason):
            return "cannot write database \(path): \(reason); check the permissions of the file and its folder"
        case let .constraintViolated(path, reason):
            return "database \(path) refused a write: \(reason)"
        case let .noSuchSource(id):
            return "no source with id \(id) in the database"
        case let .badSearchQuery(query, reason):
            return "cannot search for \(query): \(reason). Words match anywhere; \"a phrase\", prefix*, AND, OR, NOT (in capitals), parentheses and title:word are the syntax"
        case let .batchNotCommitted(path):
            return "database \(path): a batch of writes was rolled back because one of them failed; they are written again one by one"
        case let .sqlite(path, code, message, context):
            return "database \(path): \(message) (SQLite code \(code)) while \(context)"
        }
    }
}
