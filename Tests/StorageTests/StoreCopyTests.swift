import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// A home's SQLite database copied into PostgreSQL: sources with their fetch state, cards with
/// their dates and read state, the image cache's records and the page previews, counts checked.
final class StoreCopyTests: PostgresTestCase {
    private var directory: TemporaryDirectory!
    private var sqlite: FeedStore!

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = TemporaryDirectory("feeds-copy")
        sqlite = try FeedStore(path: directory.file("feeds.db").path)
    }

    override func tearDown() {
        sqlite = nil
        directory = nil
        super.tearDown()
    }

    /// Sources in every state the update path leaves, cards of every shape, some read.
    private func fillHome() throws -> [SourceID] {
        let ids = try sqlite.upsertSources([
            SourceConfiguration(url: "https://a.example/feed.xml", name: "A", tags: ["news", "tech"], keepDays: 30),
            SourceConfiguration(url: "https://b.example/feed.xml", keepCount: 100),
            SourceConfiguration(url: "search:swift", kind: .search),
            SourceConfiguration(url: "https://gone.example/feed.xml"),
            SourceConfiguration(url: "https://empty.example/feed.xml"),
        ], now: t(0))
        let cards = (0..<25).map { n in
            Card(id: "g\(n)", title: n % 5 == 0 ? nil : "Title \(n)", description: "<p>\(n) 'quoted' \"text\"</p>",
                 link: "https://a.example/\(n)", image: n % 3 == 0 ? "https://a.example/\(n).png" : nil,
                 published: n % 4 == 0 ? nil : t(n % 6), updated: n % 7 == 0 ? t(3) : nil, author: "Ann",
                 enclosures: n % 6 == 0 ? [Enclosure(url: "https://a.example/\(n).mp3", type: "audio/mpeg", length: Int64(n))] : [],
                 kind: n % 8 == 0 ? .image : .article)
        }
        try sqlite.saveFetch(sourceID: ids[0], feed: FeedInfo(title: "Feed A", link: "https://a.example/", refreshHintSeconds: 900),
                             prepared: PreparedCards(cards), validators: CacheValidators(etag: "\"e\"", lastModified: "Mon"),
                             now: t(1), nextDue: t(1, 3600), skipped: 3)
        try sqlite.saveFetch(sourceID: ids[0], feed: FeedInfo(title: "Feed A"), cards: Array(cards.prefix(5)) + [Card(id: "late", title: "Late")],
                             validators: CacheValidators(), now: t(2), nextDue: t(2, 3600))
        try sqlite.saveFetch(sourceID: ids[1], feed: FeedInfo(title: "Feed B"), cards: Array(cards.suffix(10)),
                             validators: CacheValidators(), now: t(1), nextDue: nil)
        try sqlite.updateFetchURL(sourceID: ids[1], to: "https://b.example/moved.xml")
        try sqlite.recordFailure(sourceID: ids[1], message: "HTTP 500", now: t(3), nextDue: t(4))
        try sqlite.saveFetch(sourceID: ids[2], feed: FeedInfo(), cards: [Card(id: "r1", title: "Result")],
                             keys: [CardKey(rawValue: "search:r1")], validators: CacheValidators(), now: t(1), nextDue: nil)
        try sqlite.recordFailure(sourceID: ids[3], message: "HTTP 410", now: t(2), nextDue: nil)
        try sqlite.disable(sourceID: ids[3], reason: "HTTP 410 Gone")
        try sqlite.isolate(sourceID: ids[2], reason: "stopped a run")
        try sqlite.recordDegraded(sourceID: ids[0], note: "24 of 25 items kept")
        try sqlite.markReading(sourceID: ids[4], now: t(5))
        try sqlite.markRead(.source(ids[1]))
        try sqlite.markRead(.cards(Array(try sqlite.cards(CardQuery(sourceID: ids[0]), order: .oldest).prefix(7).map(\.id))))
        // The image cache in every state: stored, failing and backing off, left out for room;
        // awkward and long URLs; and a row of an older feeds with U+0000 in its URL (saved
        // around the store's rule), which PostgreSQL cannot key: left out.
        for image in imageRows { try sqlite.saveImage(image) }
        try sqlite.db.prepare("INSERT INTO cached_images (url, file_key, fetched_at, last_used_at, expires_at) VALUES (?1, 'k', 0, 0, 0)")
            .execute([.text("https://a.example/legacy\u{0}.png")])
        try sqlite.savePagePreviews(["https://r.example/1": "https://r.example/1.png", "https://r.example/2": nil], checkedAt: t(2))
        try sqlite.savePagePreviews(["https://r.example/" + String(repeating: "p", count: 5_000): "https://r.example/p.png"], checkedAt: t(3))
        return ids
    }

    private var imageRows: [ImageRecord] {
        [ImageRecord(url: "https://a.example/0.png", fileKey: "k0", type: "png", bytes: 1234, width: 64, height: 32, etag: "\"e\"",
                     lastModified: "Mon", fetchedAt: t(1), lastUsedAt: t(2), expiresAt: t(8)),
         ImageRecord(url: "https://a.example/dead.png", fileKey: "kd", fetchedAt: t(1), lastUsedAt: t(1), expiresAt: t(1),
                     failures: 3, retryAt: t(4), lastError: "HTTP 404"),
         ImageRecord(url: "https://a.example/big.png", fileKey: "kb", bytes: 4 << 20, fetchedAt: t(1), lastUsedAt: t(1), expiresAt: t(1),
                     lastError: "left out: the image cache is full"),
         ImageRecord(url: "https://a.example/" + String(repeating: "long/", count: 2_000) + "'{\"NULL\"}'.gif", fileKey: "kl", type: "gif",
                     bytes: .max, width: .min, fetchedAt: Timestamp(secondsSince1970: .min), lastUsedAt: t(3),
                     expiresAt: Timestamp(secondsSince1970: .max))]
    }

    private func withoutIDs(_ sources: [StoredSource]) -> [StoredSource] {
        sources.map { var s = $0; s.id = SourceID(rawValue: 0); return s }
    }

    private func listing(_ store: some CardReadingStore, _ order: CardOrder) throws -> [String] {
        try store.cards(CardQuery(), order: order).map {
            "\($0.sourceName)|\($0.key.rawValue)|\($0.card)|\($0.isRead)|\($0.firstSeenAt)|\($0.changedAt)|\($0.lastSeenAt)|\($0.sortDate)"
        }
    }

    func testEverySourceAndCardArrivesAsItWas() throws {
        _ = try fillHome()
        let target = try PostgresStore(address: databaseURL)
        let counts = try StoreCopy.copy(from: sqlite, to: target)
        XCTAssertEqual(counts, StoreCopy.Counts(sources: 5, cards: 37, unread: 20, images: 4, previews: 3))
        XCTAssertEqual(counts.description, "5 sources, 37 cards (20 unread), 4 image records, 3 page previews")
        XCTAssertEqual(try target.imageRecords(), try sqlite.imageRecords().filter { URLKey.isStorable($0.url) })
        XCTAssertEqual(try target.imageRecords().count, 4)
        let pages = try sqlite.allPagePreviews().map(\.url)
        XCTAssertEqual(try target.pagePreviews(for: pages), try sqlite.pagePreviews(for: pages))
        XCTAssertEqual(try target.imagesNeverFetched(limit: 100).map(\.url), try sqlite.imagesNeverFetched(limit: 100).map(\.url))
        XCTAssertEqual(withoutIDs(try target.sources()), withoutIDs(try sqlite.sources()))
        for order in CardOrder.all { XCTAssertEqual(try listing(target, order), try listing(sqlite, order), "\(order)") }
        XCTAssertEqual(try target.fetchURLs(), try sqlite.fetchURLs())
        XCTAssertEqual(try target.interruptedSources().count, 1)
    }

    func testTheCopyGoesOnUpdatingAsTheHomeWould() throws {
        let ids = try fillHome()
        let target = try PostgresStore(address: databaseURL)
        try StoreCopy.copy(from: sqlite, to: target)
        // The content hashes agree: the same fetch saved on both counts the same.
        let again = try sqlite.cards(CardQuery(sourceID: ids[1]), order: .oldest).map(\.card)
        let copied = try XCTUnwrap(try target.source(url: "https://b.example/feed.xml")).id
        let onSQLite = try sqlite.saveFetch(sourceID: ids[1], feed: FeedInfo(title: "Feed B"), cards: again + [Card(id: "new")],
                                            validators: CacheValidators(), now: t(6), nextDue: nil)
        let onPostgres = try target.saveFetch(sourceID: copied, feed: FeedInfo(title: "Feed B"), cards: again + [Card(id: "new")],
                                              validators: CacheValidators(), now: t(6), nextDue: nil)
        XCTAssertEqual(onSQLite, SaveSummary(new: 1, updated: 0, unchanged: 10))
        XCTAssertEqual(onPostgres, onSQLite)
    }

    func testANonEmptyTargetIsRefusedUntouched() throws {
        _ = try fillHome()
        let target = try PostgresStore(address: databaseURL)
        try target.upsertSource(SourceConfiguration(url: "https://other.example/feed.xml"), now: t(0))
        XCTAssertThrowsError(try StoreCopy.copy(from: sqlite, to: target)) { error in
            XCTAssertEqual(error as? StoreCopy.Failure, .targetNotEmpty(server: target.server, sources: 1))
            XCTAssertTrue(error.localizedDescription.contains("copy into an empty database"), error.localizedDescription)
        }
        XCTAssertEqual(try target.sources().map(\.configuration.url), ["https://other.example/feed.xml"])
    }

    func testAnEmptyHomeCopiesToAnEmptyDatabase() throws {
        let target = try PostgresStore(address: databaseURL)
        let counts = try StoreCopy.copy(from: sqlite, to: target)
        XCTAssertEqual(counts, StoreCopy.Counts(sources: 0, cards: 0, unread: 0))
        XCTAssertEqual(counts.description, "0 sources, 0 cards (0 unread), 0 image records, 0 page previews")
    }
}
