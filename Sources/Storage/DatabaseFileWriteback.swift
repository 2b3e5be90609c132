import CSQLite
import Glibc

/// Starts writing a database file's dirty pages to the disk, through SQLite's own descriptor of
/// it, and returns without waiting (see `LogWriteback` for the logs).
///
/// Why: the checkpoint that ends an update (`FeedStore.finishBulkWrites`) copies the log's pages
/// into the database file while the search index thread does its last refresh, but that thread
/// reads the cards in a snapshot taken before the title order's last write, so the copy stops
/// short and SQLite syncs the file only at the next checkpoint, once the thread is done
/// (`leaveLogForNextRun`): the run waited for all the pages copied then, scattered over the
/// file (on a million cards 60-90 ms, on an empty home 30 ms). Started here, they are written
/// while the index thread works, and that sync finds most of them on the disk.
///
/// Why SQLite's descriptor and not one of our own: closing any descriptor of a database file
/// drops every POSIX lock the process holds on it, SQLite's included. The descriptor is read
/// out of SQLite's unix VFS (`csqlite_database_descriptor`, which checks the VFS), checked here
/// to be the file's (same device and inode as the path), and never closed. Only a head start:
/// SQLite's sync stays the point where the pages are durable, so when any check fails or the
/// system will not, nothing happens but the wait.
enum DatabaseFileWriteback {
    /// Starts the writeback of `database`'s file of `schema`; false when it could not.
    @discardableResult
    static func start(_ database: Database, schema: String = "main") -> Bool {
        guard database.path != ":memory:",
              let name = sqlite3_db_filename(database.handleForExtensions, schema), name.pointee != 0 else { return false }
        let descriptor = csqlite_database_descriptor(database.handleForExtensions, schema)
        guard descriptor >= 0 else { return false }
        var opened = stat(), named = stat()
        guard fstat(descriptor, &opened) == 0, stat(name, &named) == 0,
              opened.st_dev == named.st_dev, opened.st_ino == named.st_ino else { return false }
        return csqlite_start_writeback(descriptor) == 0
    }
}
