import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// The update path's rules, written once against the interface (`UpdateStore`) and run on
/// each backend: SQLite (`SQLiteUpdateStoreTests`) and PostgreSQL (`PostgresUpdateStoreTests`).
struct UpdateStoreContract {
    let store: any UpdateStore

    func t(_ days: Int, _ seconds: Int = 0) -> Timestamp {
        Timestamp(secondsSince1970: 1_704_067_200 + Int64(days) * 86_400 + Int64(seconds))
    }

    func add(_ url: String = "https://example.org/feed.xml", name: String? = nil, tags: [String] = []) throws -> SourceID {
        try store.upsertSource(SourceConfiguration(url: url, name: name, tags: tags), now: t(0))
    }

    func article(_ guid: String, title: String? = nil) -> Card {
        Card(id: guid, title: title ?? "Title \(guid)", description: "<p>\(guid)</p>", link: "https://example.org/\(guid)",
             published: t(1))
    }

    func source(_ id: SourceID, file: StaticString = #filePath, line: UInt = #line) throws -> StoredSource {
        try XCTUnwrap(try store.source(id: id), file: file, line: line)
    }

    // MARK: - Sources

    func upsertKeepsWhatFetchingLearned() throws {
        let id = try add(name: "Old", tags: ["a"])
        try store.saveFetch(sourceID: id, feed: FeedInfo(title: "Blog"), cards: [article("1")],
                            validators: CacheValidators(etag: "e1"), now: t(1), nextDue: t(2))
        let again = try store.upsertSource(SourceConfiguration(url: "https://example.org/feed.xml", name: "New", tags: ["b", "c b"]),
                                           now: t(5))
        XCTAssertEqual(again, id)
        let stored = try source(id)
        XCTAssertEqual(stored.configuration.name, "New")
        XCTAssertEqual(stored.configuration.tags, ["b", "c"])
        XCTAssertEqual(stored.validators.etag, "e1")
        XCTAssertEqual(stored.feed.title, "Blog")
        XCTAssertEqual(stored.cardCount, 1)
        XCTAssertEqual(stored.createdAt, t(0))
        XCTAssertEqual(stored.nextDueAt, t(2))
    }

    func upsertsGiveIdsInOrderAndListInOrderAdded() throws {
        let urls = (0..<5).map { "https://example.org/\($0).xml" }
        let ids = try store.upsertSources(urls.reversed().map { SourceConfiguration(url: $0) }, now: t(0))
        XCTAssertEqual(ids.count, 5)
        XCTAssertEqual(Set(ids).count, 5)
        XCTAssertEqual(try store.sources().map(\.configuration.url), urls.reversed())
        XCTAssertEqual(try store.sourceConfigurations().map(\.url), urls.reversed())
        XCTAssertEqual(try store.source(url: urls[2])?.id, ids[2])
        XCTAssertNil(try store.source(url: "https://example.org/none.xml"))
        XCTAssertEqual(try store.upsertSources([], now: t(0)), [])
    }

    /// `feeds read --source NAME`: the user's name, else the feed's title, ASCII case aside
    /// only (SQLite's NOCASE): `CAFÉ` is not `café`.
    func sourcesByNameFoldASCIICaseOnly() throws {
        let cafe = try add("https://example.org/cafe.xml", name: "Café Tech")
        let titled = try add("https://example.org/titled.xml")
        try store.saveFetch(sourceID: titled, feed: FeedInfo(title: "Blog"), cards: [], validators: CacheValidators(), now: t(1), nextDue: nil)
        let named = try add("https://example.org/named.xml", name: "Other")
        try store.saveFetch(sourceID: named, feed: FeedInfo(title: "Blog"), cards: [], validators: CacheValidators(), now: t(1), nextDue: nil)
        let twin = try add("https://example.org/twin.xml", name: "café TECH")
        XCTAssertEqual(try store.sources(named: "CAFé tech").map(\.id), [cafe, twin])
        XCTAssertEqual(try store.sources(named: "CAFÉ TECH").map(\.id), [])
        XCTAssertEqual(try store.sources(named: "bLOG").map(\.id), [titled], "a name of its own wins over the feed's title")
        XCTAssertEqual(try store.sources(named: "other").map(\.id), [named])
        XCTAssertEqual(try store.sources(named: "Oth").map(\.id), [])
        XCTAssertEqual(try store.sources(named: "").map(\.id), [])
    }

    func removingASourceRemovesItsCards() throws {
        let id = try add()
        let other = try add("https://example.org/other.xml")
        try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: [article("1"), article("2")],
                            validators: CacheValidators(), now: t(1), nextDue: nil)
        XCTAssertTrue(try store.removeSource(id))
        XCTAssertFalse(try store.removeSource(id))
        XCTAssertNil(try store.source(id: id))
        XCTAssertEqual(try store.sources().map(\.id), [other])
        // Its cards are gone with it: the same URL added again starts with none.
        let back = try add()
        XCTAssertNotEqual(back, id)
        XCTAssertEqual(try source(back).cardCount, 0)
    }

    // MARK: - Saving fetches

    func savesCountNewUpdatedAndUnchanged() throws {
        let id = try add()
        var summary = try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: [article("1"), article("2"), article("1", title: "dup")],
                                          validators: CacheValidators(), now: t(1), nextDue: nil)
        XCTAssertEqual(summary, SaveSummary(new: 2, updated: 0, unchanged: 0))
        summary = try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: [article("1", title: "changed"), article("2"), article("3")],
                                      validators: CacheValidators(), now: t(2), nextDue: nil)
        XCTAssertEqual(summary, SaveSummary(new: 1, updated: 1, unchanged: 1))
        let stored = try source(id)
        XCTAssertEqual(stored.cardCount, 3)
        XCTAssertEqual(stored.unreadCount, 3)
        XCTAssertEqual(stored.itemsSeenAt, t(2))
    }

    func theSameFetchSavedTwiceAddsNoCard() throws {
        let id = try add()
        let cards = (0..<20).map { article("g\($0)") }
        XCTAssertEqual(try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: cards, validators: CacheValidators(),
                                           now: t(1), nextDue: nil).new, 20)
        XCTAssertEqual(try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: cards, validators: CacheValidators(),
                                           now: t(1), nextDue: nil), SaveSummary(new: 0, updated: 0, unchanged: 20))
        XCTAssertEqual(try source(id).cardCount, 20)
    }

    func aSuccessStoresValidatorsFeedAndScheduleAndClearsTheFailure() throws {
        let id = try add()
        XCTAssertEqual(try store.recordFailure(sourceID: id, message: "timed out", now: t(1), nextDue: t(2)), 1)
        let feed = FeedInfo(title: "Blog", link: "https://example.org/", description: "about",
                            image: "https://example.org/logo.png", refreshHintSeconds: 3600)
        try store.saveFetch(sourceID: id, feed: feed, prepared: PreparedCards([article("a")]),
                            validators: CacheValidators(etag: "\"v1\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT"),
                            now: t(3), nextDue: t(3, 3600), skipped: 4)
        var stored = try source(id)
        XCTAssertEqual(stored.feed, feed)
        XCTAssertEqual(stored.validators, CacheValidators(etag: "\"v1\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT"))
        XCTAssertEqual(stored.lastAttemptAt, t(3))
        XCTAssertEqual(stored.lastSuccessAt, t(3))
        XCTAssertEqual(stored.nextDueAt, t(3, 3600))
        XCTAssertNil(stored.lastError)
        XCTAssertEqual(stored.consecutiveFailures, 0)
        XCTAssertEqual(stored.skippedLastFetch, 4)
        XCTAssertEqual(stored.skippedTotal, 4)
        // Validators belong to the response: a 200 without them clears them. A useless hint is dropped.
        try store.saveFetch(sourceID: id, feed: FeedInfo(refreshHintSeconds: -5), prepared: PreparedCards([]),
                            validators: CacheValidators(), now: t(4), nextDue: nil, skipped: 1)
        stored = try source(id)
        XCTAssertEqual(stored.validators, CacheValidators())
        XCTAssertNil(stored.feed.refreshHintSeconds)
        XCTAssertEqual(stored.skippedLastFetch, 1)
        XCTAssertEqual(stored.skippedTotal, 5)
        XCTAssertEqual(stored.cardCount, 1)
    }

    func notModifiedKeepsOrReplacesValidatorsFieldByField() throws {
        let id = try add()
        try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: [], validators: CacheValidators(etag: "e1", lastModified: "m1"),
                            now: t(1), nextDue: nil)
        try store.recordFailure(sourceID: id, message: "HTTP 500", now: t(2), nextDue: t(3))
        try store.recordNotModified(sourceID: id, validators: CacheValidators(etag: "e2"), now: t(4), nextDue: t(5))
        var stored = try source(id)
        XCTAssertEqual(stored.validators, CacheValidators(etag: "e2", lastModified: "m1"))
        XCTAssertEqual(stored.lastSuccessAt, t(4))
        XCTAssertEqual(stored.nextDueAt, t(5))
        XCTAssertEqual(stored.consecutiveFailures, 0)
        XCTAssertNil(stored.lastError)
        try store.recordNotModified(sourceID: id, now: t(6), nextDue: nil)
        stored = try source(id)
        XCTAssertEqual(stored.validators, CacheValidators(etag: "e2", lastModified: "m1"))
        XCTAssertNil(stored.nextDueAt)
    }

    func failuresCountUpAndKeepCardsAndValidators() throws {
        let id = try add()
        try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: [article("a")], validators: CacheValidators(etag: "e1"),
                            now: t(1), nextDue: nil)
        XCTAssertEqual(try store.recordFailure(sourceID: id, message: "HTTP 500", now: t(2), nextDue: t(2, 600)), 1)
        XCTAssertEqual(try store.recordFailure(sourceID: id, message: "HTTP 503", now: t(3), nextDue: t(3, 1200)), 2)
        let stored = try source(id)
        XCTAssertEqual(stored.lastError, "HTTP 503")
        XCTAssertEqual(stored.consecutiveFailures, 2)
        XCTAssertEqual(stored.lastAttemptAt, t(3))
        XCTAssertEqual(stored.lastSuccessAt, t(1))
        XCTAssertEqual(stored.validators.etag, "e1")
        XCTAssertEqual(stored.cardCount, 1)
    }

    func aMissingSourceIsNoSuchSourceAndWritesNothing() throws {
        let missing = SourceID(rawValue: 4242)
        let calls: [(String, () throws -> Void)] = [
            ("saveFetch", { _ = try store.saveFetch(sourceID: missing, feed: FeedInfo(), cards: [article("a")],
                                                    validators: CacheValidators(), now: t(1), nextDue: nil) }),
            ("recordFailure", { _ = try store.recordFailure(sourceID: missing, message: "x", now: t(1), nextDue: nil) }),
            ("recordNotModified", { try store.recordNotModified(sourceID: missing, now: t(1), nextDue: nil) }),
            ("recordDegraded", { try store.recordDegraded(sourceID: missing, note: "x") }),
            ("markReading", { try store.markReading(sourceID: missing, now: t(1)) }),
            ("isolate", { try store.isolate(sourceID: missing, reason: "x") }),
            ("disable", { try store.disable(sourceID: missing, reason: "x") }),
            ("enable", { try store.enable(sourceID: missing) }),
            ("updateFetchURL", { try store.updateFetchURL(sourceID: missing, to: "https://example.org/x") }),
        ]
        for (name, call) in calls {
            XCTAssertThrowsError(try call(), name) { error in
                XCTAssertEqual(error as? StorageError, .noSuchSource(id: missing), name)
            }
        }
        XCTAssertEqual(try store.sources().count, 0)
    }

    // MARK: - Schedule and states

    func dueSourcesFollowTheScheduleAndDisabling() throws {
        let never = try add("https://example.org/never.xml")
        let past = try add("https://example.org/past.xml")
        let future = try add("https://example.org/future.xml")
        let gone = try add("https://example.org/gone.xml")
        try store.recordNotModified(sourceID: past, now: t(1), nextDue: t(2))
        try store.recordNotModified(sourceID: future, now: t(1), nextDue: t(9))
        try store.recordFailure(sourceID: gone, message: "HTTP 410", now: t(1), nextDue: nil)
        try store.disable(sourceID: gone, reason: "HTTP 410 Gone")
        XCTAssertEqual(try store.dueSources(at: t(3)).map(\.id), [never, past])
        XCTAssertEqual(try store.dueSources(at: t(2)).map(\.id), [never, past], "due at the exact second")
        XCTAssertEqual(try store.dueSources(at: t(9)).map(\.id), [never, past, future])
        XCTAssertEqual(try source(gone).disabledReason, "HTTP 410 Gone")
        try store.enable(sourceID: gone)
        let enabled = try source(gone)
        XCTAssertNil(enabled.disabledReason)
        XCTAssertEqual(enabled.consecutiveFailures, 0)
        XCTAssertNil(enabled.nextDueAt)
        XCTAssertEqual(try store.dueSources(at: t(3)).map(\.id), [never, past, gone])
    }

    func readingMarksIsolationAndDegradedNotes() throws {
        let id = try add()
        let other = try add("https://example.org/other.xml")
        try store.markReading(sourceID: id, now: t(1))
        try store.markReading(sourceID: other, now: t(1))
        XCTAssertEqual(try store.interruptedSources(), [id, other])
        XCTAssertEqual(try source(id).readingSince, t(1))
        try store.isolate(sourceID: id, reason: "stopped a run")
        XCTAssertEqual(try store.interruptedSources(), [other])
        XCTAssertEqual(try source(id).isolatedReason, "stopped a run")
        try store.recordFailure(sourceID: other, message: "x", now: t(2), nextDue: nil)
        XCTAssertEqual(try store.interruptedSources(), [])
        try store.recordDegraded(sourceID: id, note: "37 of 40 items kept")
        XCTAssertEqual(try source(id).degraded, "37 of 40 items kept")
        // A success ends the isolation; the degraded note is the caller's to clear.
        try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: [], validators: CacheValidators(), now: t(3), nextDue: nil)
        XCTAssertNil(try source(id).isolatedReason)
        try store.recordDegraded(sourceID: id, note: nil)
        XCTAssertNil(try source(id).degraded)
    }

    func redirectsAreRecordedAndDropTheValidators() throws {
        let id = try add()
        try store.saveFetch(sourceID: id, feed: FeedInfo(), cards: [], validators: CacheValidators(etag: "e", lastModified: "m"),
                            now: t(1), nextDue: nil)
        try store.updateFetchURL(sourceID: id, to: "https://example.com/moved.xml")
        var stored = try source(id)
        XCTAssertEqual(stored.fetchURL, "https://example.com/moved.xml")
        XCTAssertEqual(stored.effectiveURL, "https://example.com/moved.xml")
        XCTAssertEqual(stored.validators, CacheValidators())
        XCTAssertEqual(try store.fetchURLs(), ["https://example.org/feed.xml": "https://example.com/moved.xml"])
        // Back to the configured address: no target at all.
        try store.updateFetchURL(sourceID: id, to: "https://example.org/feed.xml")
        stored = try source(id)
        XCTAssertNil(stored.fetchURL)
        XCTAssertEqual(try store.fetchURLs(), [:])
    }

    // MARK: - Hostile values

    /// Classes of awkward text in every text field the update path writes, and extreme numbers
    /// in every number: what goes in comes out (SQL quoting, placeholders, escapes, unicode,
    /// long text), on each backend.
    func awkwardValuesRoundTrip() throws {
        let texts = ["'", "''; DROP TABLE sources; --", "\"quoted\"", "back\\slash", "$1 $2 ?1 %s %n", "{1,2}", "\u{202E}rtl",
                     "emoji 🧪👩‍💻", "e\u{301} composed", "tab\tnew\nline\r", String(repeating: "long ", count: 20_000), " ", "null", "NULL"]
        for (index, text) in texts.enumerated() {
            let url = "https://example.org/\(index)?q=\(text.prefix(40))"
            let id = try store.upsertSource(SourceConfiguration(url: url, name: text, tags: [text]), now: t(index))
            let feed = FeedInfo(title: text, link: text, description: text, image: text, refreshHintSeconds: Int.max)
            try store.saveFetch(sourceID: id, feed: feed, cards: [Card(id: text, title: text, description: text, link: text, author: text)],
                                validators: CacheValidators(etag: text, lastModified: text), now: t(index), nextDue: Timestamp(secondsSince1970: .max))
            var stored = try source(id)
            XCTAssertEqual(stored.configuration.url, url)
            XCTAssertEqual(stored.configuration.name, text)
            XCTAssertEqual(stored.configuration.tags, TagList.decode(TagList.encode([text])), "tags are words")
            XCTAssertEqual(stored.feed, StoredBounds.feed(feed), "the title as both stores keep it")
            XCTAssertEqual(stored.validators, CacheValidators(etag: text, lastModified: text))
            XCTAssertEqual(stored.nextDueAt, Timestamp(secondsSince1970: .max))
            XCTAssertEqual(stored.cardCount, 1)
            XCTAssertEqual(try store.recordFailure(sourceID: id, message: text, now: Timestamp(secondsSince1970: .min), nextDue: nil), 1)
            try store.updateFetchURL(sourceID: id, to: text)
            stored = try source(id)
            XCTAssertEqual(stored.lastError, text)
            XCTAssertEqual(stored.lastAttemptAt, Timestamp(secondsSince1970: .min))
            XCTAssertEqual(stored.fetchURL, text)
        }
        XCTAssertEqual(try store.sources().count, texts.count)
    }
}

/// `UpdateStoreContract` on SQLite.
final class SQLiteUpdateStoreTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var contract: UpdateStoreContract!

    override func setUpWithError() throws {
        directory = TemporaryDirectory("feeds-contract")
        contract = UpdateStoreContract(store: try FeedStore(path: directory.file("feeds.db").path))
    }

    override func tearDown() {
        contract = nil
        directory = nil
    }

    func testUpsertKeepsWhatFetchingLearned() throws { try contract.upsertKeepsWhatFetchingLearned() }
    func testUpsertsGiveIdsInOrder() throws { try contract.upsertsGiveIdsInOrderAndListInOrderAdded() }
    func testRemovingASourceRemovesItsCards() throws { try contract.removingASourceRemovesItsCards() }
    func testSourcesByName() throws { try contract.sourcesByNameFoldASCIICaseOnly() }
    func testSavesCount() throws { try contract.savesCountNewUpdatedAndUnchanged() }
    func testTheSameFetchSavedTwiceAddsNoCard() throws { try contract.theSameFetchSavedTwiceAddsNoCard() }
    func testSuccess() throws { try contract.aSuccessStoresValidatorsFeedAndScheduleAndClearsTheFailure() }
    func testNotModified() throws { try contract.notModifiedKeepsOrReplacesValidatorsFieldByField() }
    func testFailures() throws { try contract.failuresCountUpAndKeepCardsAndValidators() }
    func testMissingSource() throws { try contract.aMissingSourceIsNoSuchSourceAndWritesNothing() }
    func testDueSources() throws { try contract.dueSourcesFollowTheScheduleAndDisabling() }
    func testReadingMarks() throws { try contract.readingMarksIsolationAndDegradedNotes() }
    func testRedirects() throws { try contract.redirectsAreRecordedAndDropTheValidators() }
    func testAwkwardValues() throws { try contract.awkwardValuesRoundTrip() }
}

/// `UpdateStoreContract` on PostgreSQL (a real server, a database per test).
final class PostgresUpdateStoreTests: PostgresTestCase {
    private var contract: UpdateStoreContract!

    override func setUpWithError() throws {
        try super.setUpWithError()
        contract = UpdateStoreContract(store: try PostgresStore(address: databaseURL))
    }

    override func tearDown() {
        contract = nil
        super.tearDown()
    }

    func testUpsertKeepsWhatFetchingLearned() throws { try contract.upsertKeepsWhatFetchingLearned() }
    func testUpsertsGiveIdsInOrder() throws { try contract.upsertsGiveIdsInOrderAndListInOrderAdded() }
    func testRemovingASourceRemovesItsCards() throws { try contract.removingASourceRemovesItsCards() }
    func testSourcesByName() throws { try contract.sourcesByNameFoldASCIICaseOnly() }
    func testSavesCount() throws { try contract.savesCountNewUpdatedAndUnchanged() }
    func testTheSameFetchSavedTwiceAddsNoCard() throws { try contract.theSameFetchSavedTwiceAddsNoCard() }
    func testSuccess() throws { try contract.aSuccessStoresValidatorsFeedAndScheduleAndClearsTheFailure() }
    func testNotModified() throws { try contract.notModifiedKeepsOrReplacesValidatorsFieldByField() }
    func testFailures() throws { try contract.failuresCountUpAndKeepCardsAndValidators() }
    func testMissingSource() throws { try contract.aMissingSourceIsNoSuchSourceAndWritesNothing() }
    func testDueSources() throws { try contract.dueSourcesFollowTheScheduleAndDisabling() }
    func testReadingMarks() throws { try contract.readingMarksIsolationAndDegradedNotes() }
    func testRedirects() throws { try contract.redirectsAreRecordedAndDropTheValidators() }
    func testAwkwardValues() throws { try contract.awkwardValuesRoundTrip() }
}
