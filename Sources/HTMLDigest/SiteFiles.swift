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
///
/// The folder may hold a person's own files too: the writer deletes only what it wrote, as
/// listed in its manifest (`.feeds-site`, one relative path a line, rewritten at the end of
/// each run). A folder without a manifest (the first run, or someone else's folder) loses
/// nothing. Temporary files are created with `O_EXCL | O_NOFOLLOW` and folders inside the site
/// must not be symbolic links, so a link planted there is never written through.
final class SiteFiles {
    static let manifestName = ".feeds-site"
    static let manifestHeader = "# written by feeds html: the files it may replace or delete here; edit at your peril"
    /// The writer's own files in the site's root: never a page, never deleted.
    static let ownFiles: Set<String> = [manifestName, PageManifest.fileName, ExcerptCache.fileName, IndexSections.fileName]

    let root: String
    private(set) var written: [String] = []
    private(set) var unchanged = 0
    /// Every relative path this run produced (written or unchanged).
    private(set) var produced = Set<String>()
    /// What the last run's manifest listed.
    private let previous: [String]
    private var checkedFolders = Set<String>()

    init(root: String) throws {
        self.root = root
        previous = Self.readManifest(root + "/" + Self.manifestName)
        try makeFolder(root)
        for folder in ["", "archive", "sources", "tags", "images"] { removeOrphanedTemporaries(in: folder) }
    }

    /// The manifest's paths, each checked to stay inside the folder (a tampered line naming
    /// `../x` or `/x` is ignored).
    static func readManifest(_ path: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let relative = String(line)
            return isSafeRelative(relative) ? relative : nil
        }
    }

    static func isSafeRelative(_ relative: String) -> Bool {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.hasPrefix("#"), !ownFiles.contains(relative) else { return false }
        return relative.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// Deletes `.tmp-PID-NAME` files whose writer is gone (killed between writing and
    /// renaming) and whose NAME the manifest lists (a temporary of one of the writer's files);
    /// those of a live process (another `feeds html` writing here now) stay.
    private func removeOrphanedTemporaries(in folder: String) {
        let dir = folder.isEmpty ? root : root + "/" + folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        let ours = Set(previous)
        for name in names where name.hasPrefix(".tmp-") {
            let pidText = name.dropFirst(5).prefix { $0.isNumber }
            let rest = name.dropFirst(5 + pidText.count)
            guard rest.hasPrefix("-") else { continue }
            let target = String(rest.dropFirst())
            guard ours.contains(folder.isEmpty ? target : folder + "/" + target) || (folder.isEmpty && Self.ownFiles.contains(target)),
                  let pid = Int32(pidText), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(dir + "/" + name)
        }
    }

    /// Puts `bytes` at `relative` unless the file already holds exactly them (`differs`: the
    /// caller read the file and knows it does not, so it is not read again to compare).
    func write(_ relative: String, _ bytes: [UInt8], differs: Bool = false) throws {
        produced.insert(relative)
        try put(relative, bytes, differs: differs)
    }

    /// Counts the file at `relative` as this run's, left as it is (a page whose inputs did not
    /// change: `PageManifest`).
    func keep(_ relative: String) {
        produced.insert(relative)
        unchanged += 1
    }

    /// Writes one of the writer's own files (`PageManifest`): like the site manifest, neither
    /// in `written` nor counted unchanged, never deleted.
    func writeOwn(_ name: String, _ bytes: [UInt8]) throws {
        let before = written.count
        try put(name, bytes)
        if written.count > before { written.removeLast() } else { unchanged -= 1 }
    }

    private func put(_ relative: String, _ bytes: [UInt8], differs: Bool = false) throws {
        let path = root + "/" + relative
        if !differs, Self.holds(path, bytes) {
            unchanged += 1
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        try makeFolder(folder)
        try refuseLinks(inFoldersOf: relative)
        let temporary = folder + "/.tmp-\(getpid())-" + (path as NSString).lastPathComponent
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        var fd = open(temporary, flags, 0o644)
        if fd < 0 && errno == EEXIST {
            // Our own name from an earlier attempt, or something planted: unlinking removes a
            // link itself, never its target; then the name must be created afresh.
            unlink(temporary)
            fd = open(temporary, flags, 0o644)
        }
        guard fd >= 0 else { throw DigestError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        let ok = bytes.withUnsafeBytes { raw -> Bool in
            defer { close(fd) }
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        // rename replaces whatever is at `path` (a link included) without following it.
        guard ok, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw DigestError.cannotWrite(path: path, reason: reason)
        }
        written.append(relative)
    }

    /// A folder inside the site that is a symbolic link would take the write elsewhere.
    private func refuseLinks(inFoldersOf relative: String) throws {
        var folder = ""
        for part in relative.split(separator: "/").dropLast() {
            folder += (folder.isEmpty ? "" : "/") + part
            guard checkedFolders.insert(folder).inserted else { continue }
            var info = stat()
            let path = root + "/" + folder
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                checkedFolders.remove(folder)
                throw DigestError.cannotWrite(path: path, reason: "not a folder (a symbolic link?); feeds writes only into real folders of the site")
            }
        }
    }

    func write(_ relative: String, _ text: String) throws { try write(relative, Array(text.utf8)) }

    /// Copies the file at `source` to `relative` (incremental and atomic like `write`).
    func copy(from source: String, to relative: String) throws {
        guard let data = FileManager.default.contents(atPath: source) else {
            throw DigestError.cannotRead(path: source, reason: "missing or unreadable")
        }
        try write(relative, [UInt8](data))
    }

    /// Deletes the files the last run's manifest lists that this run did not produce (days and
    /// sources that no longer exist, images no card shows), then writes the new manifest.
    /// Only regular files are deleted, and nothing that was never in a manifest. Returns the
    /// paths removed.
    func finish() throws -> [String] {
        var removed: [String] = []
        var kept: [String] = []
        for relative in previous where !produced.contains(relative) {
            let path = root + "/" + relative
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }  // gone already
            if (info.st_mode & S_IFMT) == S_IFREG, (try? refuseLinks(inFoldersOf: relative)) != nil, unlink(path) == 0 {
                removed.append(relative)
            } else {
                kept.append(relative)  // still ours to retry next time
            }
        }
        let lines = [Self.manifestHeader] + (Array(produced) + kept).sorted()
        try put(Self.manifestName, Array((lines.joined(separator: "\n") + "\n").utf8))
        if written.last == Self.manifestName { written.removeLast() } else { unchanged -= 1 }
        return removed
    }

    /// The bytes of a regular file (not a link, a device or a pipe) of at most `limit` bytes,
    /// read straight into an array (no `Data` to copy from: 31 MB of index.html).
    static func readRegularFile(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size >= 0, info.st_size <= limit else { return nil }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + offset, size - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            offset += n
        }
        return bytes
    }

    /// True when the file at `path` is a regular file (not a link to one) with exactly these
    /// bytes (size first: cheap).
    static func holds(_ path: String, _ bytes: [UInt8]) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == bytes.count,
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
