import CSQLite

extension StorageError {
    /// Turns an SQLite result code into the error a person can act on. `code` may be an extended
    /// code; the primary code (low byte) chooses the case. `context` says what was being done
    /// ("opening", "saving cards", the SQL text…).
    static func from(code: Int32, message: String, path: String, context: String) -> StorageError {
        switch code & 0xff {
        case SQLITE_NOTADB:
            return .notAFeedsDatabase(path: path, reason: message)
        case SQLITE_CORRUPT:
            return .corrupt(path: path, reason: message)
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .locked(path: path)
        case SQLITE_FULL:
            return .diskFull(path: path)
        case SQLITE_READONLY, SQLITE_PERM:
            return .readOnly(path: path, reason: message)
        case SQLITE_CANTOPEN:
            return .cannotOpen(path: path, reason: message)
        case SQLITE_CONSTRAINT:
            return .constraintViolated(path: path, reason: message)
        default:
            return .sqlite(path: path, code: code, message: message, context: context)
        }
    }
}
