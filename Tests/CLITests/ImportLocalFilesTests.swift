import Foundation
import TestSupport
import XCTest

/// Local files through OPML (issue 15): an imported OPML keeps only http(s) feeds unless
/// `--allow-local`; each skipped one is named on a line of its own.
final class ImportLocalFilesTests: XCTestCase {
    /// Every way an OPML can name a local file, generated around one secret file.
    static func localForms(secret: String) -> [String] {
        let name = (secret as NSString).lastPathComponent
        return [secret, "file://" + secret, "file://localhost" + secret, "FILE://" + secret, "file:" + secret,
                "../" + name, "../../" + name, "./" + name, name, "~/" + name, "File:///etc/passwd", "/etc/passwd"]
    }

    func opml(_ urls: [String]) -> String {
        "<?xml version=\"1.0\"?><opml version=\"2.0\"><body>"
            + urls.enumerated().map { "<outline text=\"f\($0.offset)\" xmlUrl=\"\($0.element)\"/>" }.joined()
            + "</body></opml>"
    }

    func testOnlyWebFeedsAreImportedAndEachSkippedOneIsNamed() throws {
        let dir = TemporaryDirectory("feeds-cli-import-local")
        let secret = dir.path + "/secret.rss"
        try "<rss><channel><title>S</title><item><title>private</title></item></channel></rss>"
            .write(toFile: secret, atomically: false, encoding: .utf8)
        let local = Self.localForms(secret: secret)
        let web = ["https://example.org/feed.xml", "HTTP://example.net/rss"]
        try opml(web + local).write(to: dir.file("in.opml"), atomically: false, encoding: .utf8)

        let run = try FeedsCommand.run(["--home", dir.path, "import", dir.file("in.opml").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let sources = try String(contentsOf: dir.file("sources"), encoding: .utf8)
        for url in web { XCTAssertTrue(sources.contains(url), url) }
        for url in local { XCTAssertFalse(sources.contains(url + " ") || sources.contains(url + "\n"), url) }
        XCTAssertFalse(sources.contains("secret"), sources)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, local.count, run.stderr)
        for (line, url) in zip(lines, local) {
            XCTAssertTrue(line.hasPrefix("feeds: warning: skipped \"") && line.contains(url) && line.contains("--allow-local"), String(line))
        }
        XCTAssertTrue(run.stdout.hasPrefix("imported 2 sources"), run.stdout)
    }

    func testAllowLocalImportsThem() throws {
        let dir = TemporaryDirectory("feeds-cli-import-local")
        try opml(["../x.rss", "file:///tmp/y.rss"]).write(to: dir.file("in.opml"), atomically: false, encoding: .utf8)
        let run = try FeedsCommand.run(["--home", dir.path, "import", "--allow-local", dir.file("in.opml").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let sources = try String(contentsOf: dir.file("sources"), encoding: .utf8)
        XCTAssertTrue(sources.contains("../x.rss") && sources.contains("file:///tmp/y.rss"), sources)
    }

    func testAControlCharacterInASkippedURLDoesNotReachTheTerminal() throws {
        let dir = TemporaryDirectory("feeds-cli-import-local")
        try opml(["/tmp/a&#27;]0;owned&#7;.rss"]).write(to: dir.file("in.opml"), atomically: false, encoding: .utf8)
        let run = try FeedsCommand.run(["--home", dir.path, "import", dir.file("in.opml").path])
        XCTAssertFalse(run.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, run.stderr.debugDescription)
    }
}
