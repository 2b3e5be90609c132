#if canImport(Glibc)
import Glibc
#endif

/// Local sources (`file://` requests) before curl reads them. curl's file handler opens the
/// path with a plain blocking open(2): a FIFO without a writer (say one named by an imported
/// OPML file) blocked the whole run there, past every timeout, with the run lock held; a
/// device gives endless bytes (`/dev/zero`) or waits for a person (`/dev/tty`). So only
/// regular files are read: the path is stat'ed (symlinks followed: a link to a regular file is
/// fine) and anything else refused without being opened (opening some devices acts on them);
/// a regular file is then opened without blocking (`O_NONBLOCK`: should a FIFO have taken its
/// place meanwhile, the open returns at once) and checked again on the open descriptor.
/// Someone who can swap the file between this check and curl's own open could still do so;
/// that someone already owns the path.
enum LocalFile {
    /// Why the file at `url` cannot be read, nil when it is a regular file (or when it does not
    /// exist or is not readable: curl then says so as usual).
    static func refusal(url: String) -> FetchError? {
        let path = filePath(of: url)
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if let kind = kind(info.st_mode) { return .notARegularFile(path: path, kind: kind) }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard fstat(fd, &info) == 0 else { return nil }
        return kind(info.st_mode).map { .notARegularFile(path: path, kind: $0) }
    }

    /// What a file that is not a regular file is, nil for a regular file.
    static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a directory"
        default: return "not a regular file"
        }
    }
}
