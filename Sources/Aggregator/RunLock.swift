import FeedModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on a file in the data folder, held while `feeds update` runs, so an
/// overlapping cron run can tell it is not alone. The kernel drops it when the process dies,
/// `kill -9` included, so a lock held by a dead process never blocks the next run: it is simply
/// taken (there is no pid file to go stale).
///
/// A live holder can still be stuck (before local sources were checked, a FIFO named by an
/// imported OPML file blocked a run in open(2) forever, and every later run exited 0 doing
/// nothing). So the holder writes its pid and start time into the file, and a run that finds
/// the lock taken reads them back (`holder`) to tell how long the other run has been going.
public final class RunLock: Sendable {
    private let fd: Int32
    public let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Who holds the lock, as the holder wrote it.
    public struct Holder: Sendable, Equatable {
        public var pid: Int32
        public var since: Timestamp

        public init(pid: Int32, since: Timestamp) {
            self.pid = pid
            self.since = since
        }

        /// Whether a run that started at `since` is past what its limits allow at `now`:
        /// `bound` seconds (see `stuckBound`).
        public func isStuck(now: Timestamp, bound: Int64) -> Bool {
            now.secondsSince1970 - since.secondsSince1970 > bound
        }
    }

    /// Longest a healthy run holds the lock: every transfer is bounded by the total timeout, and
    /// a run does a few rounds of them (feeds, then searches' follow-ups and previews) plus its
    /// parsing and saving; an hour at least, or a hundred times the transfer timeout.
    public static func stuckBound(transferTimeoutSeconds: Double) -> Int64 {
        max(3_600, Int64(min(transferTimeoutSeconds, 1e9) * 100))
    }

    /// The lock, or nil when another process holds it and `wait` is false. `now` is written
    /// into the file with this process's pid.
    public static func acquire(path: String, wait: Bool, now: Timestamp? = nil) throws -> RunLock? {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw AggregatorError.lock(path: path, reason: String(cString: strerror(errno))) }
        while flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw AggregatorError.lock(path: path, reason: String(cString: strerror(code)))
        }
        let stamp = now ?? Timestamp(secondsSince1970: Int64(time(nil)))
        // Best effort: the lock is the flock; the text only tells others who holds it.
        let text = Array("\(getpid()) \(stamp.secondsSince1970)\n".utf8)
        if ftruncate(fd, 0) == 0 { _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
        return RunLock(fd: fd, path: path)
    }

    /// The holder the lock file names (pid and start), nil when it names none (a file written
    /// by an older version, or none at all).
    public static func holder(path: String) -> Holder? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let words = String(decoding: buffer[..<n], as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count >= 2, let pid = Int32(words[0]), pid > 0, let since = Int64(words[1]) else { return nil }
        return Holder(pid: pid, since: Timestamp(secondsSince1970: since))
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
