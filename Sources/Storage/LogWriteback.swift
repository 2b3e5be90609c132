import CSQLite
import Glibc

/// Starts writing a write-ahead log's new pages to the disk while the update goes on, instead of
/// all of them at its end. With `synchronous=NORMAL` SQLite syncs a log only when it checkpoints
/// it, and an update's log (23 MB for 200 new feeds on an empty home, 45 MB on a million cards,
/// and the search index's beside it) was written out at the end, where the run waited for the
/// disk. After each commit (`start`) the system begins writing the pages out (Linux's
/// `sync_file_range`, which returns without waiting for them), so the end's sync finds most of
/// them written. Only a head start: the checkpoint's sync stays the point where the log is
/// durable, so a failure here (a file system without it, no descriptor left) changes nothing
/// but the time, and is not reported.
///
/// The descriptor is this object's own: SQLite takes no lock on a log file (its locks are on the
/// database file and the shared-memory index), so closing it cannot drop one of SQLite's.
final class LogWriteback {
    let path: String
    private var descriptor: Int32 = -1
    /// Writebacks started so far.
    private(set) var starts = 0

    /// `path`: the log file (`Database.logPath`), opened at the first `start`, once it exists.
    init(path: String) {
        self.path = path
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Starts writing out the log's pages not on their way to the disk yet; false when it could
    /// not (no such file yet, or the system would not).
    @discardableResult
    func start() -> Bool {
        if descriptor < 0 {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
        }
        guard csqlite_start_writeback(descriptor) == 0 else { return false }
        starts += 1
        return true
    }
}
