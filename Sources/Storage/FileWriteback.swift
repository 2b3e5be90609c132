import CSQLite
import Glibc

/// Starts writing one of SQLite's files to the disk, its pages written since the last time, and
/// returns without waiting (Linux's `sync_file_range`): the update's head start on the syncs
/// that make its writes durable, which it otherwise waited for at its end.
///
/// - The write-ahead logs, after each commit (the cards' batches, the index thread's
///   refreshes): with `synchronous=NORMAL` SQLite syncs a log only when it checkpoints it, and
///   an update's log (23 MB for 200 new feeds on an empty home, 45 MB on a million cards, and
///   the search index's beside it) was written out at the end, where the run waited for the disk.
/// - The database file, after `FeedStore.finishBulkWrites`' checkpoint: that copy runs while
///   the index thread does its last refresh, but stops short of the frames the thread's
///   snapshot cannot see, so SQLite syncs the file only at the last checkpoint, after the
///   thread: the run waited for every page copied (scattered over the file: on a million cards
///   60-90 ms, on an empty home 30 ms). Started here, they are written while the thread works.
///
/// Through SQLite's own descriptor of the file, read out of its unix VFS
/// (`csqlite_file_descriptor`, which checks the VFS), checked here to be the file's (same device
/// and inode as its path), and never closed: closing any descriptor of a database file drops
/// every POSIX lock the process holds on it, SQLite's included. Only a head start: SQLite's
/// syncs stay the points of durability, so when a check fails or the system will not, nothing
/// happens but the wait, and nothing is reported.
enum FileWriteback {
    enum File {
        case database, log
    }

    /// Starts the writeback of `file` of `database`'s schema `schema`; false when it could not
    /// (in memory, no such schema, a log not opened yet, another VFS).
    @discardableResult
    static func start(_ database: Database, _ file: File, schema: String = "main") -> Bool {
        guard database.path != ":memory:",
              let name = sqlite3_db_filename(database.handleForExtensions, schema), name.pointee != 0,
              let path = file == .log ? sqlite3_filename_wal(name) : name else { return false }
        let descriptor = csqlite_file_descriptor(database.handleForExtensions, schema, file == .log ? 1 : 0)
        guard descriptor >= 0 else { return false }
        var opened = stat(), named = stat()
        guard fstat(descriptor, &opened) == 0, stat(path, &named) == 0,
              opened.st_dev == named.st_dev, opened.st_ino == named.st_ino else { return false }
        return csqlite_start_writeback(descriptor) == 0
    }
}
