import FeedModel
import FeedParsing
import TestSupport
import XCTest

/// Parses a fixture under Tests/Fixtures/feeds.
func parseFixture(_ name: String, options: ParseOptions = ParseOptions(),
                  file: StaticString = #filePath, line: UInt = #line) throws -> ParsedFeed {
    let bytes = [UInt8](try Fixtures.data("feeds/" + name))
    return try FeedParser.parse(bytes, options: options)
}

/// Parses a document given as text.
func parseText(_ text: String, options: ParseOptions = ParseOptions()) throws -> ParsedFeed {
    try FeedParser.parse(Array(text.utf8), options: options)
}

/// A minimal RSS 2.0 document around `items` (already XML).
func rss(_ items: String, channel: String = "<title>T</title>") -> String {
    "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel>\(channel)\(items)</channel></rss>"
}
