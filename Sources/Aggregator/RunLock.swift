import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on a file in the data folder, held while `feeds update` runs, so an
/// overlapping cron run can tell it is not alone. The kernel drops it when the process dies,
/// `kill -9` included, so a stale lock never blocks the next run.
public final class RunLock: Sendable {
    private let fd: Int32
    public let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// The lock, or nil when another process holds it and `wait` is false.
    public static func acquire(path: String, wait: Bool) throws -> RunLock? {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw AggregatorError.lock(path: path, reason: String(cString: strerror(errno))) }
        while flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw AggregatorError.lock(path: path, reason: String(cString: strerror(code)))
        }
        return RunLock(fd: fd, path: path)
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
