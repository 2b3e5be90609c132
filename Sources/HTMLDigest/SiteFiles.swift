import Foundation

/// Errors writing the site: one line each, naming the file.
public enum DigestError: Error, LocalizedError, Equatable, Sendable {
    case cannotWrite(path: String, reason: String)
    case cannotRead(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case let .cannotWrite(path, reason): return "cannot write \(path): \(reason); check the output folder's permissions and free space"
        case let .cannotRead(path, reason): return "cannot read \(path): \(reason)"
        }
    }
}

/// The site's files on disk: atomic (each file is written to a temporary name in its folder and
/// renamed into place, so a web server serving the folder meanwhile sends the old page or the
/// new one, never half of one) and incremental (a file whose bytes would not change is left
/// alone: its date stays, caches and rsync see nothing new).
final class SiteFiles {
    let root: String
    private(set) var written: [String] = []
    private(set) var unchanged = 0
    /// Every relative path this run produced (written or unchanged).
    private(set) var produced = Set<String>()

    init(root: String) throws {
        self.root = root
        try makeFolder(root)
        for folder in ["", "archive", "sources", "images"] { removeOrphanedTemporaries(in: folder) }
    }

    /// Deletes `.tmp-PID-NAME` files whose writer is gone (killed between writing and
    /// renaming); those of a live process (another `feeds html` writing here now) stay.
    private func removeOrphanedTemporaries(in folder: String) {
        let dir = folder.isEmpty ? root : root + "/" + folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        for name in names where name.hasPrefix(".tmp-") {
            let pid = name.dropFirst(5).prefix { $0.isNumber }
            guard let pid = Int32(pid), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(dir + "/" + name)
        }
    }

    /// Puts `bytes` at `relative` unless the file already holds exactly them.
    func write(_ relative: String, _ bytes: [UInt8]) throws {
        produced.insert(relative)
        let path = root + "/" + relative
        if Self.holds(path, bytes) {
            unchanged += 1
            return
        }
        try makeFolder((path as NSString).deletingLastPathComponent)
        let temporary = (path as NSString).deletingLastPathComponent + "/.tmp-\(getpid())-" + (path as NSString).lastPathComponent
        let ok = bytes.withUnsafeBytes { raw -> Bool in
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        guard ok, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw DigestError.cannotWrite(path: path, reason: reason)
        }
        written.append(relative)
    }

    func write(_ relative: String, _ text: String) throws { try write(relative, Array(text.utf8)) }

    /// Copies the file at `source` to `relative` (incremental and atomic like `write`).
    func copy(from source: String, to relative: String) throws {
        guard let data = FileManager.default.contents(atPath: source) else {
            throw DigestError.cannotRead(path: source, reason: "missing or unreadable")
        }
        try write(relative, [UInt8](data))
    }

    /// Deletes files in `folder` (relative) that this run did not produce and whose names end
    /// in one of `suffixes`: archive days and sources that no longer exist, images no card
    /// shows. Only names the writer itself makes are touched. Returns the paths removed.
    func removeStale(in folder: String, prefix: String = "", suffixes: [String]) -> [String] {
        let dir = folder.isEmpty ? root : root + "/" + folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        var removed: [String] = []
        for name in names.sorted() where name.hasPrefix(prefix) && suffixes.contains(where: { name.hasSuffix($0) }) {
            let relative = folder.isEmpty ? name : folder + "/" + name
            if !produced.contains(relative) && unlink(dir + "/" + name) == 0 { removed.append(relative) }
        }
        return removed
    }

    /// True when the file at `path` exists with exactly these bytes (size first: cheap).
    static func holds(_ path: String, _ bytes: [UInt8]) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == bytes.count,
              let data = FileManager.default.contents(atPath: path), data.count == bytes.count else { return false }
        // memcmp: a generic element-by-element compare of 11 MB was slower than writing it.
        if bytes.isEmpty { return true }
        return data.withUnsafeBytes { old in bytes.withUnsafeBytes { new in memcmp(old.baseAddress!, new.baseAddress!, new.count) == 0 } }
    }

    private func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw DigestError.cannotWrite(path: path, reason: error.localizedDescription)
        }
    }
}
