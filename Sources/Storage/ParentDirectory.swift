#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates the folder that will hold the database, with its missing parents (`mkdir -p`), so a
/// first `feeds update` works with a fresh `~/.local/share/feeds`. POSIX directly: it is four
/// calls, and errno gives the exact reason ("Permission denied").
enum ParentDirectory {
    static func create(for databasePath: String) throws {
        guard let slash = databasePath.lastIndex(of: "/") else { return }  // current folder
        let folder = String(databasePath[..<slash])
        guard !folder.isEmpty else { return }  // "/feeds.db"
        try makeDirectories(folder)
    }

    private static func makeDirectories(_ path: String) throws {
        if isDirectory(path) { return }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try makeDirectories(String(path[..<slash]))
        }
        // 0o700: the reading history is the user's own business.
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw StorageError.cannotCreateDirectory(path: path, reason: String(cString: strerror(errno)))
        }
        guard isDirectory(path) else {
            throw StorageError.cannotCreateDirectory(path: path, reason: "a file of that name is in the way")
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
