@testable import Aggregator
import TestSupport
import XCTest

/// The sources file: format, errors with line numbers, editing that keeps the rest intact.
final class SourcesFileTests: XCTestCase {
    func testParsesURLsOptionsAndComments() throws {
        let text = """
        # my feeds

        https://example.org/feed.xml  name="Example blog"  tags=tech,news  every=30m   # trailing comment
        http://plain.example/rss
        samples/local.rss keep-days=30 keep-cards=200
        file:///tmp/x.xml name=X every=2h
        """
        let entries = try SourcesFile.parse(text)
        XCTAssertEqual(entries.count, 4)
        XCTAssertEqual(entries[0], SourceEntry(url: "https://example.org/feed.xml", name: "Example blog", tags: ["tech", "news"],
                                               everySeconds: 1800, line: 3))
        XCTAssertEqual(entries[1].url, "http://plain.example/rss")
        XCTAssertEqual(entries[2].keepDays, 30)
        XCTAssertEqual(entries[2].keepCount, 200)
        XCTAssertTrue(entries[2].isFile)
        XCTAssertEqual(entries[3].everySeconds, 7200)
        XCTAssertEqual(entries[3].name, "X")
    }

    func testBadLinesNameTheLineAndTheProblem() {
        let cases: [(String, Int, String)] = [
            ("https://a.example/f\nhttps://b.example/f every=soon", 2, "every=soon is not a duration: write 90s, 30m, 2h, 1d or 2w"),
            ("# c\nhttps://a.example/f colour=red", 2, "unknown option 'colour'"),
            ("https://a.example/f name=\"unclosed", 1, "unclosed quote"),
            ("ftp://a.example/f", 1, "unsupported URL scheme 'ftp'"),
            ("https://a.example/f\n\nhttps://a.example/f", 3, "already listed on line 1"),
            ("https://a.example/f oops", 1, "expected key=value"),
            ("https:///nohost", 1, "has no host name"),
            ("https://a.example/f keep-days=-1", 1, "keep-days=-1"),
        ]
        for (text, line, fragment) in cases {
            XCTAssertThrowsError(try SourcesFile.parse(text, path: "/h/sources"), text) { error in
                guard case .sourcesFile(let path, let n, _) = error as? AggregatorError else { return XCTFail("\(error)") }
                XCTAssertEqual(path, "/h/sources")
                XCTAssertEqual(n, line, text)
                let message = error.localizedDescription
                XCTAssertTrue(message.hasPrefix("/h/sources:\(line): "), message)
                XCTAssertTrue(message.contains(fragment), "\(message) lacks \(fragment)")
                XCTAssertFalse(message.contains("\n"))
            }
        }
    }

    func testIntervals() {
        XCTAssertEqual(Interval.parse("45s"), 45)
        XCTAssertEqual(Interval.parse("30m"), 1800)
        XCTAssertEqual(Interval.parse("30"), 1800)
        XCTAssertEqual(Interval.parse("2H"), 7200)
        XCTAssertEqual(Interval.parse("1d"), 86_400)
        XCTAssertEqual(Interval.parse("1w"), 604_800)
        for bad in ["", "m", "0m", "-5m", "1.5h", "10y", "١٠m"] { XCTAssertNil(Interval.parse(bad), bad) }
        XCTAssertEqual(Interval.format(1800), "30m")
        XCTAssertEqual(Interval.format(90), "90s")
    }

    func testFormattedLinesReadBackTheSame() throws {
        let entry = SourceEntry(url: "https://example.org/f", name: "A \"quoted\" name #1", tags: ["a", "b"],
                                everySeconds: 5400, keepDays: 3, keepCount: 10)
        var back = try XCTUnwrap(SourcesFile.parse(entry.formatted).first)
        back.line = 0
        XCTAssertEqual(back, entry)
    }

    func testRelativePathsResolveAgainstTheFilesFolder() {
        XCTAssertEqual(SourceEntry(url: "samples/a b.rss").requestURL(relativeTo: "/home/u/feeds"), "file:///home/u/feeds/samples/a%20b.rss")
        XCTAssertEqual(SourceEntry(url: "/abs/x.rss").requestURL(relativeTo: "/h"), "file:///abs/x.rss")
        XCTAssertEqual(SourceEntry(url: "file:///abs/x.rss").requestURL(relativeTo: "/h"), "file:///abs/x.rss")
        XCTAssertEqual(SourceEntry(url: "https://e.org/x").requestURL(relativeTo: "/h"), "https://e.org/x")
    }

    func testAppendAndRemoveKeepOtherLinesAndComments() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("sources").path
        try "# keep me\nhttps://a.example/f name=A\n".write(toFile: path, atomically: false, encoding: .utf8)
        try SourcesFile.append([SourceEntry(url: "https://b.example/f", tags: ["x"])], to: path)
        XCTAssertEqual(try SourcesFile.read(path: path).map(\.url), ["https://a.example/f", "https://b.example/f"])
        try SourcesFile.remove(urls: ["https://a.example/f"], from: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("# keep me\n"), text)
        XCTAssertEqual(try SourcesFile.read(path: path).map(\.url), ["https://b.example/f"])
    }

    func testMissingFileIsNoSources() throws {
        XCTAssertEqual(try SourcesFile.read(path: TemporaryDirectory().file("none").path), [])
    }

    func testPathsUnderHomeAndXDG() throws {
        let home = try FeedsPaths.resolve(home: "/h", environment: [:])
        XCTAssertEqual(home.sourcesFile, "/h/sources")
        XCTAssertEqual(home.database, "/h/feeds.db")
        XCTAssertEqual(home.lockFile, "/h/feeds.lock")
        let xdg = try FeedsPaths.resolve(home: nil, environment: ["HOME": "/u", "XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "relative"])
        XCTAssertEqual(xdg.sourcesFile, "/u/.config/feeds/sources", "a relative XDG path is ignored")
        XCTAssertEqual(xdg.database, "/d/feeds/feeds.db")
        XCTAssertEqual(xdg.cacheDirectory, "/u/.cache/feeds")
        XCTAssertThrowsError(try FeedsPaths.resolve(home: nil, environment: [:]))
    }

    /// Found by fuzzing: a first word with a quoted part holding spaces was written back unquoted
    /// and read back as several words.
    func testAURLWithSpacesIsWrittenQuoted() throws {
        let entries = try SourcesFile.parse("samples/a=\"b c\" tags=web\n")
        XCTAssertEqual(entries.map(\.url), ["samples/a=b c"])
        let again = try SourcesFile.parse(entries.map(\.formatted).joined(separator: "\n"))
        XCTAssertEqual(again.map(\.url), ["samples/a=b c"])
        XCTAssertEqual(again.map(\.tags), [["web"]])
    }

    /// A file saved with CRLF line ends: "\r\n" is one Character in Swift, so splitting lines on
    /// Characters read the whole file as one line.
    func testCRLFLineEnds() throws {
        let entries = try SourcesFile.parse("https://a.example/feed name=A\r\nhttps://b.example/feed\r\n")
        XCTAssertEqual(entries.map(\.url), ["https://a.example/feed", "https://b.example/feed"])
        XCTAssertEqual(entries.first?.name, "A")
        let dir = TemporaryDirectory("feeds-sources-crlf")
        let path = dir.file("sources").path
        try "https://a.example/feed name=A\r\nhttps://b.example/feed\r\n".write(toFile: path, atomically: false, encoding: .utf8)
        try SourcesFile.remove(urls: ["https://a.example/feed"], from: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "https://b.example/feed\r\n")
    }

    /// Found by fuzzing: a quoted "\r" in a URL was written back bare, where it splits words.
    func testCarriageReturnInAQuotedWordIsWrittenQuoted() throws {
        let entries = try SourcesFile.parse("\"a\rb\" tags=x")
        XCTAssertEqual(entries.map(\.url), ["a\rb"])
        XCTAssertEqual(try SourcesFile.parse(entries[0].formatted).map(\.url), ["a\rb"])
    }

    /// Found by fuzzing: a quoted tag with "#" (or a carriage return) was written back bare,
    /// where "#" starts a comment.
    func testTagsWithACommentSignAreWrittenQuoted() throws {
        let entries = try SourcesFile.parse("samples/a.rss tags=dev,\"c#\" every=1h")
        XCTAssertEqual(entries.first?.tags, ["dev", "c#"])
        let again = try SourcesFile.parse(entries[0].formatted)
        XCTAssertEqual(again.first?.url, "samples/a.rss")
        XCTAssertEqual(again.first?.tags, ["dev", "c#"])
        XCTAssertEqual(again.first?.everySeconds, 3600)
    }

    /// Found by fuzzing: a word starting with a combining mark and holding "#" was written in
    /// quotes, and the opening quote joined the mark into one Character that was not read as a quote.
    func testCombiningMarksDoNotHideQuotes() throws {
        let entries = try SourcesFile.parse("\u{05AB}#> name=\"\u{0301}\\\"x\"")
        XCTAssertEqual(entries.map(\.url), ["\u{05AB}#>"])
        XCTAssertEqual(entries.first?.name, "\u{0301}\"x")
        let again = try SourcesFile.parse(entries[0].formatted)
        XCTAssertEqual(again.map(\.url), ["\u{05AB}#>"])
        XCTAssertEqual(again.first?.name, "\u{0301}\"x")
    }
}
