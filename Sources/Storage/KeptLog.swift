import Glibc

/// The write-ahead log an update keeps for the next one (`Database.keepLogFile`,
/// `FeedStore.leaveLogForNextRun`), emptied once every connection to the database is closed.
///
/// A kept log that still holds a valid frame is a hazard SQLite documents for any database in
/// WAL mode: a copy of `feeds.db` put back from a backup beside it would get that frame's page
/// (and the newer database's size) at its next open. `clear` makes the log hold no valid frame
/// at all, by zeroing its header (SQLite then takes the file for an empty log and writes its
/// next log over it from the start), and only when that loses nothing and nobody can be
/// looking: no connection of this process is open (`Database.openConnections`), none of any
/// process has the database open (its shared lock, tested with a lock of its own on the same
/// bytes), and every valid frame's page is byte for byte the page in the database file (the
/// last connection's close copied it there).
public enum KeptLog {
    /// Empties the kept log of the database at `databasePath` when that is safe (see above);
    /// true when it was emptied, false when it was left as it is (no log, another connection,
    /// a frame not in the database file, more frames than `maxFrames` to compare, any error).
    @discardableResult
    public static func clear(databasePath: String, maxFrames: Int = 1_024) -> Bool {
        // Closing the descriptors below would release the locks of any connection this process
        // has open on the file (a statement still held keeps its connection open): none, then.
        guard Database.openConnections.load(ordering: .relaxed) == 0 else { return false }
        // Read and write: a write lock needs a file open for writing (nothing is written to it).
        let database = open(databasePath, O_RDWR | O_CLOEXEC)
        guard database >= 0 else { return false }
        defer { close(database) }
        let log = open(databasePath + "-wal", O_RDWR | O_CLOEXEC)
        guard log >= 0 else { return false }
        defer { close(log) }
        // SQLite's unix locking: a connection holds a read lock on these 510 bytes (its SHARED
        // lock) for as long as it has a database in WAL mode open; a write lock on them can be
        // had only when no connection has. An open file description lock (not a process one,
        // so that it conflicts with this process's own connections too, and closing this file
        // releases nothing of theirs), given back before returning.
        guard lockSharedRange(database, type: Int16(F_WRLCK)) else { return false }
        defer { _ = lockSharedRange(database, type: Int16(F_UNLCK)) }
        guard let header = bytes(of: log, at: 0, count: 32), header.count == 32 else { return false }
        let magic = bigEndian(header, 0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683 else { return false }  // empty already, or not a log
        let pageSize = Int(bigEndian(header, 8))
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else { return false }
        let salts = header[16..<24]
        var offset = 32
        for _ in 0...maxFrames {
            guard let frame = bytes(of: log, at: offset, count: 24 + pageSize), frame.count == 24 + pageSize,
                  frame[8..<16].elementsEqual(salts) else {
                // No more valid frames: SQLite's recovery stops at the first of another salt.
                return zeroHeader(log)
            }
            let page = Int(bigEndian(frame, 0))
            guard page > 0, let stored = bytes(of: database, at: (page - 1) * pageSize, count: pageSize),
                  stored.elementsEqual(frame[24...]) else { return false }
            offset += 24 + pageSize
        }
        return false
    }

    /// SQLite's `SHARED_FIRST` (its pending byte, at 1 GiB, plus 2) and `SHARED_SIZE`.
    private static let sharedFirst = 0x4000_0002, sharedSize = 510
    /// `F_OFD_SETLK` (Linux's value; Glibc exports it only under _GNU_SOURCE).
    private static let ofdSetLock: Int32 = 37

    private static func lockSharedRange(_ fd: Int32, type: Int16) -> Bool {
        var lock = flock()
        lock.l_type = type
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(sharedFirst)
        lock.l_len = off_t(sharedSize)
        lock.l_pid = 0  // required of open file description locks
        return fcntl(fd, ofdSetLock, &lock) == 0
    }

    private static func zeroHeader(_ log: Int32) -> Bool {
        let zeros = [UInt8](repeating: 0, count: 32)
        return zeros.withUnsafeBytes { pwrite(log, $0.baseAddress, 32, 0) } == 32
    }

    /// Up to `count` bytes of `fd` from `offset` (fewer at the end of the file), nil on an error.
    private static func bytes(of fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        guard got >= 0 else { return nil }
        return Array(bytes[0..<got])
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
