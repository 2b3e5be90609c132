import Foundation

/// Where `feeds` keeps its files.
///
/// With a home folder (`--home DIR` or `FEEDS_HOME`) everything lives under it:
/// `DIR/sources`, `DIR/feeds.db` (and its `-wal`/`-shm`), `DIR/feeds.lock`, `DIR/cache/`.
/// Without one, the XDG base directories: `$XDG_CONFIG_HOME/feeds/sources`,
/// `$XDG_DATA_HOME/feeds/feeds.db` and `feeds.lock`, `$XDG_CACHE_HOME/feeds/`
/// (defaults `~/.config`, `~/.local/share`, `~/.cache`).
public struct FeedsPaths: Sendable, Hashable {
    public var sourcesFile: String
    public var database: String
    public var lockFile: String
    public var cacheDirectory: String

    public init(sourcesFile: String, database: String, lockFile: String, cacheDirectory: String) {
        self.sourcesFile = sourcesFile
        self.database = database
        self.lockFile = lockFile
        self.cacheDirectory = cacheDirectory
    }

    /// The paths for `home` (when given) or the XDG variables in `environment`.
    public static func resolve(home: String?, environment: [String: String]) throws -> FeedsPaths {
        if let home, !home.isEmpty {
            let dir = absolute(home, cwd: FileManager.default.currentDirectoryPath)
            return FeedsPaths(sourcesFile: dir + "/sources", database: dir + "/feeds.db",
                              lockFile: dir + "/feeds.lock", cacheDirectory: dir + "/cache")
        }
        func base(_ variable: String, _ fallback: String) throws -> String {
            // The spec says a relative XDG path is invalid and must be ignored.
            if let value = environment[variable], value.hasPrefix("/") { return value }
            guard let user = environment["HOME"], user.hasPrefix("/") else {
                throw AggregatorError.configuration("neither --home, FEEDS_HOME, \(variable) nor HOME is set: say where feeds keeps its files with --home DIR")
            }
            return user + "/" + fallback
        }
        let config = try base("XDG_CONFIG_HOME", ".config") + "/feeds"
        let data = try base("XDG_DATA_HOME", ".local/share") + "/feeds"
        let cache = try base("XDG_CACHE_HOME", ".cache") + "/feeds"
        return FeedsPaths(sourcesFile: config + "/sources", database: data + "/feeds.db",
                          lockFile: data + "/feeds.lock", cacheDirectory: cache)
    }

    static func absolute(_ path: String, cwd: String) -> String {
        if path.hasPrefix("/") { return path }
        return (cwd.hasSuffix("/") ? cwd : cwd + "/") + path
    }
}

/// Errors of the aggregator layer: one line each, saying what to do.
public enum AggregatorError: Error, LocalizedError, Equatable, Sendable {
    /// A bad line in the sources file.
    case sourcesFile(path: String, line: Int, reason: String)
    case cannotRead(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case configuration(String)
    case opml(String)
    case noSuchSource(String)
    case lock(path: String, reason: String)
    /// A page to find feeds on could not be fetched.
    case discovery(url: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case let .sourcesFile(path, line, reason): return "\(path):\(line): \(reason)"
        case let .cannotRead(path, reason): return "cannot read \(path): \(reason)"
        case let .cannotWrite(path, reason): return "cannot write \(path): \(reason)"
        case let .configuration(message): return message
        case let .opml(message): return "OPML: \(message)"
        case let .noSuchSource(what): return "no source matches '\(what)': see 'feeds sources' for the list"
        case let .lock(path, reason): return "cannot lock \(path): \(reason)"
        case let .discovery(url, reason): return "cannot fetch \(url) to find its feed: \(reason)"
        }
    }
}
