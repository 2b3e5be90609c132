import FeedModel
import Foundation
import HTMLDigest
import Storage
import TestSupport
import XCTest

/// The site writer and a person's own files (issue 15): it deletes only what its manifest says
/// it wrote, and a planted symbolic link is never written through.
final class SiteOwnFilesTests: DigestTestCase {
    /// A person's files with every name the old suffix-matching clean-up would have taken.
    static let ownFiles = ["notes.html", "sort-mine.html", "archive/2019-01-01.html", "archive/mine.html", "sources/99.html",
                           "sources/me.html", "images/me.png", "images/me.jpg", "images/x.gif", "images/y.webp", "images/z.avif",
                           "images/.hidden.png", "archive/.tmp-1-keep.html", "archive/.tmp-999999999-mine.html", ".tmp-2-x"]

    func plantOwnFiles() throws {
        for name in Self.ownFiles {
            let path = site + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("mine: \(name)".utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    func assertOwnFilesIntact(file: StaticString = #filePath, line: UInt = #line) {
        for name in Self.ownFiles {
            XCTAssertEqual(FileManager.default.contents(atPath: site + "/" + name), Data("mine: \(name)".utf8), name, file: file, line: line)
        }
    }

    func testAFolderWithoutAManifestLosesNothingAndLaterRunsOnlyTheirOwn() throws {
        try fillStore()
        try plantOwnFiles()
        let first = try writeSite()
        XCTAssertEqual(first.removed, [])
        assertOwnFilesIntact()
        let manifest = try read(".feeds-site")
        XCTAssertTrue(manifest.contains("\nindex.html\n") && manifest.contains("\nsources/1.html\n"), manifest)
        for name in Self.ownFiles { XCTAssertFalse(manifest.contains("\n" + name + "\n"), name) }

        // A source goes: its pages go, the person's files stay.
        let blog = try XCTUnwrap(try store.source(url: "https://blog.example.org/feed"))
        XCTAssertTrue(try store.removeSource(blog.id))
        let second = try writeSite()
        XCTAssertTrue(second.removed.contains("sources/1.html"), "\(second.removed)")
        XCTAssertFalse(try read(".feeds-site").contains("sources/1.html"))
        assertOwnFilesIntact()
        XCTAssertEqual(try writeSite().removed, [])
    }

    func testATamperedManifestCannotReachOutside() throws {
        try fillStore()
        try writeSite()
        let victim = directory.path + "/victim.txt"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
        let manifest = try read(".feeds-site") + "../victim.txt\n" + victim + "\n./x\narchive/../../victim.txt\n.feeds-site\n"
        try manifest.write(toFile: site + "/.feeds-site", atomically: false, encoding: .utf8)
        _ = try writeSite()
        XCTAssertEqual(FileManager.default.contents(atPath: victim), Data("keep".utf8))
        XCTAssertTrue(FileManager.default.fileExists(atPath: site + "/.feeds-site"))
    }

    func testAPlantedLinkAtATemporaryNameIsNotWrittenThrough() throws {
        try fillStore()
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        let target = directory.path + "/target.txt"
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: target))
        // The names this process's writer uses for its temporaries, and the final names.
        for name in ["index.html", "style.css", "digest.atom"] {
            XCTAssertEqual(symlink(target, site + "/.tmp-\(getpid())-" + name), 0)
        }
        XCTAssertEqual(symlink(target, site + "/sources.opml.link"), 0)
        XCTAssertEqual(symlink(target, site + "/index.html"), 0)
        _ = try writeSite()
        XCTAssertEqual(FileManager.default.contents(atPath: target), Data("untouched".utf8))
        var info = stat()
        XCTAssertEqual(lstat(site + "/index.html", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG, "the link was replaced, not followed")
        XCTAssertTrue(try read("index.html").contains("<html"))
    }

    func testAFolderOfTheSiteThatIsALinkIsRefused() throws {
        try fillStore()
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        let elsewhere = directory.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        XCTAssertEqual(symlink(elsewhere, site + "/archive"), 0)
        XCTAssertThrowsError(try writeSite()) { error in
            XCTAssertTrue("\(error.localizedDescription)".contains("archive"), error.localizedDescription)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), [])
    }

    /// The same through the CLI, where a person meets it.
    func testFeedsHTMLIntoAFolderOfOwnFiles() throws {
        try plantOwnFiles()
        let home = directory.path + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try "<rss><channel><title>T</title><item><guid>1</guid><title>x</title></item></channel></rss>"
            .write(toFile: home + "/f.rss", atomically: false, encoding: .utf8)
        try "f.rss\n".write(toFile: home + "/sources", atomically: false, encoding: .utf8)
        XCTAssertEqual(try FeedsCommand.run(["--home", home, "update", "--all"]).status, 0)
        for _ in 0..<2 {
            let run = try FeedsCommand.run(["--home", home, "html", "--out", site, "--no-images"])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        assertOwnFilesIntact()
        try "".write(toFile: home + "/sources", atomically: false, encoding: .utf8)
        _ = try FeedsCommand.run(["--home", home, "update", "--all"])
        XCTAssertEqual(try FeedsCommand.run(["--home", home, "html", "--out", site, "--no-images"]).status, 0)
        assertOwnFilesIntact()
    }
}
