#if canImport(Glibc)
import Glibc
#endif

/// What writing to a reader (a pipe, a pager, a terminal, a file) achieved.
public struct WriteOutcome: Equatable, Sendable {
    /// Bytes the reader took: for a pipe, written minus what was still unread in the pipe
    /// when its reader went away; for anything else, what write(2) accepted.
    public var delivered: Int
    /// The reader closed before taking everything (EPIPE, or a pipe left with unread bytes).
    public var closedEarly: Bool
    /// errno of a write error other than EPIPE (ENOSPC on /dev/full, EIO...).
    public var error: Int32?

    public init(delivered: Int = 0, closedEarly: Bool = false, error: Int32? = nil) {
        self.delivered = delivered
        self.closedEarly = closedEarly
        self.error = error
    }
}

/// Writes to a descriptor, counting what the reader actually took. SIGPIPE must be ignored
/// (feeds does at start) so a closed reader is an EPIPE here rather than the end of feeds.
public enum DeliveredWrite {
    /// Writes `bytes[0..<count]` whole (retrying short writes and EINTR); stops at the first
    /// error. Returns the bytes accepted and the errno that stopped it, if any.
    public static func writeAll(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) -> (accepted: Int, errno: Int32?) {
        var offset = 0
        while offset < count {
            let n = Glibc.write(fd, base + offset, count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return (offset, errno)
            }
            if n == 0 { return (offset, EIO) }
            offset += n
        }
        return (offset, nil)
    }

    /// Writes all of `bytes` to `fd`. With `settle` and a pipe, then waits until the reader has
    /// read everything or gone away, so bytes left in the pipe's buffer when the reader quit
    /// (`| head -3`, `q` in a pager) are not counted as delivered.
    public static func write(_ bytes: [UInt8], to fd: Int32, settle: Bool) -> WriteOutcome {
        let (accepted, failure) = bytes.withUnsafeBytes { raw in
            raw.count == 0 ? (0, nil) : writeAll(fd, raw.baseAddress!, raw.count)
        }
        var outcome = WriteOutcome(delivered: accepted)
        if let failure, failure != EPIPE { outcome.error = failure; return outcome }
        guard isPipe(fd) else {
            outcome.closedEarly = failure == EPIPE
            return outcome
        }
        if failure == EPIPE || settle {
            let unread = settle && failure == nil ? unreadWhenSettled(fd) : unreadBytes(fd)
            outcome.delivered = max(0, accepted - unread)
            outcome.closedEarly = failure == EPIPE || unread > 0
        }
        return outcome
    }

    public static func isPipe(_ fd: Int32) -> Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
    }

    /// Bytes written to the pipe that its reader has not read (they stay counted on Linux
    /// after the reader closed, until the last writer closes too).
    static func unreadBytes(_ fd: Int32) -> Int {
        var count: Int32 = 0
        return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    /// Waits until the pipe is empty (the reader took all) or has no reader (POLLERR); the bytes
    /// left unread. A pipe gives no "empty" event, so this looks every 20 ms: it only runs for
    /// the last pipeful, while a person reads the pager's screen or the reader finishes.
    static func unreadWhenSettled(_ fd: Int32) -> Int {
        while true {
            let unread = unreadBytes(fd)
            if unread == 0 { return 0 }
            var watch = pollfd(fd: fd, events: 0, revents: 0)
            let ready = poll(&watch, 1, 20)
            if ready < 0 && errno != EINTR { return unread }
            if ready > 0 && watch.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return unreadBytes(fd) }
        }
    }
}
