import FeedParsing
import XCTest

/// Issue 17: a JSON Feed item without `authors`/`author` has the feed's (the spec says so).
final class JSONFeedAuthorsTests: XCTestCase {
    func testAnItemWithoutAuthorsInheritsTheFeeds() throws {
        let f = try parseFixture("peers/jsonfeed-feed-authors.json")
        XCTAssertEqual(f.cards.map(\.author), ["Item Writer", "Ada Feed, Ben Feed", "Legacy Writer"])
        let old = try parseFixture("peers/jsonfeed10-feed-author.json")
        XCTAssertEqual(old.cards.map(\.author), ["Solo Feed"])
    }
}
