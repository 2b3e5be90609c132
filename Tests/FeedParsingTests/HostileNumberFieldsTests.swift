import FeedModel
import FeedParsing
import TestSupport
import XCTest

/// Every numeric field of every format the parser reads, filled with every class of hostile
/// number (`HostileNumbers`): the parse never traps, and each value is its number when that is
/// a decimal integer in the field's range, else no value (with a warning where the XML side has
/// one). The scheduler hint and the lengths stay in their ranges whatever the input.
final class HostileNumberFieldsTests: XCTestCase {
    static let maxHint = 10 * 365 * 24 * 3600

    func testRSSTtl() throws {
        for (name, raw) in HostileNumbers.all() {
            let text = written(raw)
            let parsed = try parseText(rss("<item><title>a</title></item>", channel: "<title>T</title><ttl>\(xml(text))</ttl>"))
            let expected = HostileNumbers.expected(text, in: 0...(10 * 365 * 24 * 60)).flatMap { $0 > 0 ? Int($0) * 60 : nil }
            XCTAssertEqual(parsed.feed.refreshHintSeconds, expected, "\(name) '\(text)'")
            let ignored = parsed.warnings.contains { $0.contains("<ttl>") }
            let valid = HostileNumbers.expected(text, in: 0...(10 * 365 * 24 * 60)) != nil
            XCTAssertEqual(ignored, !valid && !text.allSatisfy(\.isWhitespace), "\(name): a warning exactly when refused")
            XCTAssertEqual(parsed.cards.count, 1)
        }
    }

    func testSyndicationUpdateFrequencyAndPeriod() throws {
        let periods = ["hourly", "daily", "weekly", "monthly", "yearly", "HOURLY", "fortnightly", ""]
        for (name, text) in HostileNumbers.all(randomCount: 40) {
            for period in periods {
                let channel = "<title>T</title><sy:updatePeriod>\(period)</sy:updatePeriod><sy:updateFrequency>\(xml(text))</sy:updateFrequency>"
                let doc = "<?xml version=\"1.0\"?><rss version=\"2.0\" xmlns:sy=\"http://purl.org/rss/1.0/modules/syndication/\"><channel>\(channel)<item><title>a</title></item></channel></rss>"
                let hint = try parseText(doc).feed.refreshHintSeconds
                if let hint { XCTAssertTrue((1...Self.maxHint).contains(hint), "\(name) \(period): \(hint)") }
            }
        }
    }

    func testEnclosureLengthsInRSSAndAtom() throws {
        for (name, raw) in HostileNumbers.all() {
            let text = written(raw)
            let expected = HostileNumbers.expected(text, in: Enclosure.lengthRange)
            let r = try parseText(rss("<item><title>a</title><enclosure url=\"https://example.com/a.mp3\" type=\"audio/mpeg\" length=\"\(xml(text))\"/></item>"))
            XCTAssertEqual(r.cards.first?.enclosures.first?.length, expected, "RSS \(name) '\(text)'")
            let atom = """
                <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><title>a</title><id>x</id>\
                <link rel="enclosure" href="https://example.com/a.mp3" length="\(xml(text))"/></entry></feed>
                """
            let a = try parseText(atom)
            XCTAssertEqual(a.cards.first?.enclosures.first?.length, expected, "Atom \(name) '\(text)'")
        }
        let warned = try parseText(rss("<item><title>a</title><enclosure url=\"https://example.com/a.mp3\" length=\"9223372036854775807\"/></item>"
                                       + "<item><title>b</title><enclosure url=\"https://example.com/b.mp3\" length=\"-1\"/></item>"))
        XCTAssertEqual(warned.warnings.filter { $0.contains("enclosure length") }.count, 1, "one warning per document")
    }

    func testJSONFeedSizesAndDurations() throws {
        for (name, token) in HostileNumbers.jsonTokens {
            let doc = """
                {"version":"https://jsonfeed.org/version/1.1","title":"T","items":[{"id":"1","title":"a",
                "attachments":[{"url":"https://example.com/a.mp3","mime_type":"audio/mpeg","size_in_bytes":\(token),"duration_in_seconds":\(token)}]}]}
                """
            let parsed = try parseText(doc)
            let length = parsed.cards.first?.enclosures.first?.length
            if let length { XCTAssertTrue(Enclosure.lengthRange.contains(length), "\(name): \(length)") }
            if token == "9223372036854775807" || token.contains("e300") { XCTAssertNil(length, name) }
        }
    }

    func testJSONFeedDatesOutsideTheRangeAreNoDate() throws {
        for date in ["-292277022657-01-27T08:29:52Z", "1969-12-31T23:59:59Z", "2101-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z"] {
            let parsed = try parseText("""
                {"version":"https://jsonfeed.org/version/1.1","items":[{"id":"1","title":"a","date_published":"\(date)","date_modified":"\(date)"}]}
                """)
            XCTAssertNil(parsed.cards.first?.published, date)
            XCTAssertNil(parsed.cards.first?.updated, date)
        }
    }

    func testHackerNewsCreatedAtAndPoints() throws {
        for (name, token) in HostileNumbers.jsonTokens {
            let doc = """
                {"query":"q","nbHits":\(token),"hits":[{"objectID":"1","title":"a","url":"https://example.com/a","author":"x",
                "points":\(token),"num_comments":\(token),"created_at_i":\(token)}]}
                """
            let result = try SearchReader.read(Array(doc.utf8), engine: .hn)
            XCTAssertEqual(result.cards.count, 1, name)
            if let date = result.cards.first?.published {
                XCTAssertTrue(Timestamp.plausibleRange.contains(date.secondsSince1970), "\(name): \(date)")
            }
            if let total = result.totalResults { XCTAssertGreaterThanOrEqual(total, 0, name) }
        }
        let minimum = try SearchReader.read(Array("""
            {"hits":[{"objectID":"1","title":"a","url":"https://example.com/a","created_at_i":-9223372036854775808},
                     {"objectID":"2","title":"b","url":"https://example.com/b","created_at_i":1e300},
                     {"objectID":"3","title":"c","url":"https://example.com/c","created_at_i":1764500000}]}
            """.utf8), engine: .hn)
        XCTAssertEqual(minimum.cards.map { $0.published?.secondsSince1970 }, [nil, nil, 1_764_500_000])
    }

    func testOpenSearchTotalsAndOffsets() throws {
        for (name, raw) in HostileNumbers.all(randomCount: 40) {
            let text = written(raw)
            let results = """
                <?xml version="1.0"?><rss version="2.0" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"><channel><title>T</title>\
                <opensearch:totalResults>\(xml(text))</opensearch:totalResults><item><title>a</title><link>https://example.com/a</link></item></channel></rss>
                """
            let r = try SearchReader.read(Array(results.utf8), engine: .opensearch)
            XCTAssertEqual(r.totalResults.map(Int64.init), HostileNumbers.expected(text, in: 0...Int64.max), "\(name) '\(text)'")
            let description = """
                <?xml version="1.0"?><OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">\
                <Url type="application/rss+xml" template="https://example.com/s?q={searchTerms}&amp;i={startIndex}&amp;p={startPage}" \
                indexOffset="\(xml(text))" pageOffset="\(xml(text))"/></OpenSearchDescription>
                """
            let d = try SearchReader.read(Array(description.utf8), engine: .opensearch, query: "q")
            guard case .fetch(let url)? = d.followUp else { return XCTFail("\(name): no follow-up") }
            let offset = HostileNumbers.expected(text, in: 0...1_000_000) ?? 1
            XCTAssertTrue(url.hasSuffix("&i=\(offset)&p=\(offset)"), "\(name): \(url)")
        }
    }

    /// A date from the far past or future in any format is no date (the card contract).
    func testDatesOutside1970To2100AreNoDateInXML() throws {
        for date in ["Mon, 01 Jan 1900 00:00:00 GMT", "Fri, 31 Dec 2100 23:59:59 GMT", "Sat, 01 Jan 2101 00:00:00 GMT",
                     "1969-12-31T23:59:59Z", "9999-12-31T23:59:59Z"] {
            let parsed = try parseText(rss("<item><title>a</title><pubDate>\(date)</pubDate></item>"))
            let expectValue = date.contains("2100")
            XCTAssertEqual(parsed.cards.first?.published != nil, expectValue, date)
        }
    }

    /// NUL cannot be written in XML at all: the number as it can be written ("6" NUL "0" as "60").
    private func written(_ text: String) -> String { text.replacingOccurrences(of: "\u{0}", with: "") }

    private func xml(_ text: String) -> String {
        written(text).replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
