import XCTest
import FeedModel
@testable import Storage

final class FetchStateTests: StoreTestCase {
    func testSuccessStoresValidatorsFeedInfoAndSchedule() throws {
        let id = try addSource()
        try store.recordFailure(sourceID: id, message: "timed out", now: t(1), nextDue: t(2))
        let feed = FeedInfo(title: "Blog", link: "https://example.org/", description: "about",
                            image: "https://example.org/logo.png", refreshHintSeconds: 3600)
        try store.saveFetch(sourceID: id, feed: feed, cards: [article("a")],
                            validators: CacheValidators(etag: "\"v1\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT"),
                            now: t(3), nextDue: t(3, 3600))
        let source = try XCTUnwrap(try store.source(id: id))
        XCTAssertEqual(source.feed, feed)
        XCTAssertEqual(source.validators, CacheValidators(etag: "\"v1\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT"))
        XCTAssertEqual(source.lastAttemptAt, t(3))
        XCTAssertEqual(source.lastSuccessAt, t(3))
        XCTAssertEqual(source.itemsSeenAt, t(3))
        XCTAssertEqual(source.nextDueAt, t(3, 3600))
        XCTAssertNil(source.lastError)
        XCTAssertEqual(source.consecutiveFailures, 0)
        XCTAssertEqual(source.displayName, "Blog")
    }

    func testFailureKeepsCardsAndValidatorsAndCountsUp() throws {
        let id = try addSource()
        try save([article("a")], to: id, at: t(1), etag: "e1")
        XCTAssertEqual(try store.recordFailure(sourceID: id, message: "HTTP 500", now: t(2), nextDue: t(2, 600)), 1)
        XCTAssertEqual(try store.recordFailure(sourceID: id, message: "HTTP 503", now: t(3), nextDue: t(3, 1200)), 2)
        let source = try XCTUnwrap(try store.source(id: id))
        XCTAssertEqual(source.lastError, "HTTP 503")
        XCTAssertEqual(source.consecutiveFailures, 2)
        XCTAssertEqual(source.lastAttemptAt, t(3))
        XCTAssertEqual(source.lastSuccessAt, t(1))
        XCTAssertEqual(source.nextDueAt, t(3, 1200))
        XCTAssertEqual(source.validators.etag, "e1")
        XCTAssertEqual(source.cardCount, 1)
    }

    func testNotModifiedClearsFailuresAndWritesNoCard() throws {
        let id = try addSource()
        try save([article("a")], to: id, at: t(1), etag: "e1")
        try store.recordFailure(sourceID: id, message: "boom", now: t(2), nextDue: nil)
        try store.recordNotModified(sourceID: id, now: t(3), nextDue: t(4))
        let source = try XCTUnwrap(try store.source(id: id))
        XCTAssertNil(source.lastError)
        XCTAssertEqual(source.consecutiveFailures, 0)
        XCTAssertEqual(source.lastSuccessAt, t(3))
        XCTAssertEqual(source.itemsSeenAt, t(1), "a 304 delivers no items")
        XCTAssertEqual(source.nextDueAt, t(4))
        XCTAssertEqual(source.validators.etag, "e1", "nil validators keep the stored ones")
        XCTAssertEqual(try allCards().first?.lastSeenAt, t(1))

        try store.recordNotModified(sourceID: id, validators: CacheValidators(etag: "e2"), now: t(5), nextDue: nil)
        XCTAssertEqual(try store.source(id: id)?.validators.etag, "e2")
    }

    func testSuccessWithoutValidatorsDropsTheOldOnes() throws {
        let id = try addSource()
        try save([], to: id, at: t(1), etag: "e1")
        try save([], to: id, at: t(2), etag: nil)
        XCTAssertNil(try store.source(id: id)?.validators.etag)
    }

    func testDisableAndEnableControlWhatIsDue() throws {
        let gone = try addSource("https://gone.example/feed")
        let later = try addSource("https://later.example/feed")
        let fresh = try addSource("https://fresh.example/feed")
        try store.recordNotModified(sourceID: later, now: t(1), nextDue: t(10))
        try store.disable(sourceID: gone, reason: "HTTP 410 Gone")
        XCTAssertEqual(try store.dueSources(at: t(2)).map(\.id), [fresh])
        XCTAssertEqual(try store.dueSources(at: t(10)).map(\.id), [later, fresh])
        XCTAssertEqual(try store.source(id: gone)?.disabledReason, "HTTP 410 Gone")

        try store.enable(sourceID: gone)
        XCTAssertEqual(try store.dueSources(at: t(2)).map(\.id), [gone, fresh])
    }

    func testPermanentRedirectChangesFetchURLAndDropsValidators() throws {
        let id = try addSource("http://old.example/feed")
        try save([], to: id, at: t(1), etag: "e1")
        try store.updateFetchURL(sourceID: id, to: "https://new.example/feed")
        var source = try XCTUnwrap(try store.source(id: id))
        XCTAssertEqual(source.effectiveURL, "https://new.example/feed")
        XCTAssertEqual(source.configuration.url, "http://old.example/feed")
        XCTAssertNil(source.validators.etag)

        try store.updateFetchURL(sourceID: id, to: "http://old.example/feed")
        source = try XCTUnwrap(try store.source(id: id))
        XCTAssertNil(source.fetchURL, "redirecting back to the configured URL clears the override")
    }

    /// A save that fails half-way (here the second card's key breaks a CHECK) leaves neither
    /// cards nor fetch state behind: the same guarantee as a kill -9 in the middle.
    func testFailedSaveChangesNothing() throws {
        let id = try addSource()
        try save([article("a", title: "v1")], to: id, at: t(1), etag: "e1")
        XCTAssertThrowsError(try store.saveFetch(
            sourceID: id, feed: FeedInfo(title: "Changed"),
            cards: [article("a", title: "v2"), article("b")], keys: [CardKey(rawValue: "id:a"), CardKey(rawValue: "")],
            validators: CacheValidators(etag: "e2"), now: t(2), nextDue: t(3))) { error in
            guard case .constraintViolated = error as? StorageError else { return XCTFail("unexpected \(error)") }
        }
        let source = try XCTUnwrap(try store.source(id: id))
        XCTAssertEqual(source.validators.etag, "e1")
        XCTAssertEqual(source.feed.title, "Feed")
        XCTAssertEqual(source.lastSuccessAt, t(1))
        XCTAssertEqual(try allCards().map(\.card.title), ["v1"])
        // The connection is usable afterwards: no transaction was left open.
        XCTAssertEqual(try save([article("b")], to: id, at: t(4)).new, 1)
    }

    func testStateChangesOnMissingSourceAreErrors() throws {
        let missing = SourceID(rawValue: 7)
        XCTAssertThrowsError(try store.recordNotModified(sourceID: missing, now: t(1), nextDue: nil))
        XCTAssertThrowsError(try store.recordFailure(sourceID: missing, message: "x", now: t(1), nextDue: nil))
        XCTAssertThrowsError(try store.disable(sourceID: missing, reason: "x")) { error in
            XCTAssertEqual(error as? StorageError, .noSuchSource(id: missing))
        }
    }

    func testReconfiguringASourceKeepsItsState() throws {
        let id = try addSource("https://example.org/feed", name: "Old", tags: ["a"])
        try save([article("a")], to: id, at: t(1), etag: "e1")
        try store.recordFailure(sourceID: id, message: "x", now: t(2), nextDue: t(3))
        let again = try store.upsertSource(SourceConfiguration(url: "https://example.org/feed", name: "New",
                                                               tags: ["b", "c d", "b"], keepDays: 7), now: t(9))
        XCTAssertEqual(again, id)
        let source = try XCTUnwrap(try store.source(id: id))
        XCTAssertEqual(source.configuration.name, "New")
        XCTAssertEqual(source.configuration.tags, ["b", "c", "d"])
        XCTAssertEqual(source.configuration.keepDays, 7)
        XCTAssertEqual(source.createdAt, t(0))
        XCTAssertEqual(source.validators.etag, "e1")
        XCTAssertEqual(source.consecutiveFailures, 1)
        XCTAssertEqual(source.cardCount, 1)
    }

    func testFindingSourcesByURLAndName() throws {
        let named = try addSource("https://a.example/feed", name: "Alpha")
        let titled = try addSource("https://b.example/feed")
        try store.saveFetch(sourceID: titled, feed: FeedInfo(title: "Beta Blog"), cards: [],
                            validators: CacheValidators(), now: t(1), nextDue: nil)
        XCTAssertEqual(try store.source(url: "https://a.example/feed")?.id, named)
        XCTAssertNil(try store.source(url: "https://A.example/feed"))
        XCTAssertEqual(try store.sources(named: "alpha").map(\.id), [named])
        XCTAssertEqual(try store.sources(named: "beta blog").map(\.id), [titled])
        XCTAssertEqual(try store.sources(named: "gamma").count, 0)
        XCTAssertEqual(try store.sources().map(\.id), [named, titled])
    }

    /// Many sources in one call: their ids in order, an existing URL keeps its id and what
    /// fetching learned, and the configured fields are updated.
    func testUpsertSourcesKeepsOrderAndExistingState() throws {
        let existing = try addSource("https://b.example/feed", name: "Old")
        try store.recordFailure(sourceID: existing, message: "boom", now: t(1), nextDue: t(2))
        let ids = try store.upsertSources([
            SourceConfiguration(url: "https://a.example/feed", name: "A", kind: .feed),
            SourceConfiguration(url: "https://b.example/feed", name: "New", kind: .feed, tags: ["x"]),
            SourceConfiguration(url: "https://c.example/feed", name: nil, kind: .feed),
        ], now: t(3))
        XCTAssertEqual(ids.count, 3)
        XCTAssertEqual(ids[1], existing)
        XCTAssertEqual(Set(ids).count, 3)
        let stored = try XCTUnwrap(store.source(id: existing))
        XCTAssertEqual(stored.configuration.name, "New")
        XCTAssertEqual(stored.configuration.tags, ["x"])
        XCTAssertEqual(stored.lastError, "boom")
        XCTAssertEqual(try store.sources().map(\.configuration.url),
                       ["https://b.example/feed", "https://a.example/feed", "https://c.example/feed"])
        XCTAssertEqual(try store.upsertSources([], now: t(4)), [])
    }
}

