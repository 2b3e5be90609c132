import Foundation

/// A fresh directory under the system temp folder, removed when the value is released.
/// Each test makes its own, so tests never share a database or a cache.
public final class TemporaryDirectory {
    public let url: URL
    public var path: String { url.path }

    public init(_ label: String = "feeds-test") {
        let base = FileManager.default.temporaryDirectory
        url = base.appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Paths inside the repository's `Tests/` folder.
public enum Fixtures {
    /// `Tests/Fixtures`.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    public static func data(_ relative: String) throws -> Data { try Data(contentsOf: url(relative)) }

    public static func string(_ relative: String) throws -> String {
        try String(decoding: data(relative), as: UTF8.self)
    }

    /// The repository root (for the built binary and `Feeds/`).
    public static let repositoryRoot: URL = root.deletingLastPathComponent().deletingLastPathComponent()
}
