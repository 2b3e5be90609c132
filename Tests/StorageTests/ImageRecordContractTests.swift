import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// `ImageRecordStore` on both backends: what goes in comes out, the same lookups, touches,
/// deletes and eviction order, and the same hostile rows refused with each backend's
/// constraint error and nothing written.
final class ImageRecordContractTests: TwoBackendsTestCase {
    private var stores: [any ImageRecordStore] { [sqlite, postgres] }

    private func record(_ url: String, type: String? = "png", bytes: Int = 100, used: Int = 0) -> ImageRecord {
        ImageRecord(url: url, fileKey: "k-" + String(url.utf8.count), type: type, bytes: bytes, width: 640, height: 360,
                    etag: "\"e\"", lastModified: "Mon, 02 Jan 2006 15:04:05 GMT", fetchedAt: t(0), lastUsedAt: t(used),
                    expiresAt: t(used + 7))
    }

    func testRowsRoundTripAndAreLookedUpTouchedAndDeletedAlike() throws {
        let failure = ImageRecord(url: "https://img.example/dead", fileKey: "dead", fetchedAt: t(1), lastUsedAt: t(1), expiresAt: t(1),
                                  failures: 3, retryAt: t(2), lastError: "HTTP 404")
        let bare = ImageRecord(url: "https://img.example/bare", fileKey: "bare", type: "gif", fetchedAt: t(0), lastUsedAt: t(0),
                               expiresAt: t(0))
        let rows = [record("https://img.example/b", used: 3), record("https://img.example/a", used: 3), failure, bare,
                    record("https://img.example/c", type: "webp", used: 1)]
        for store in stores {
            for row in rows { try store.saveImage(row) }
            let name = "\(type(of: store))"
            XCTAssertEqual(try store.imageRecord(url: failure.url), failure, name)
            XCTAssertEqual(try store.imageRecord(url: bare.url), bare, name)
            XCTAssertNil(try store.imageRecord(url: "https://img.example/none"), name)
            // Least recently used first, ties by URL.
            XCTAssertEqual(try store.imageRecords().map(\.url),
                           [bare.url, "https://img.example/c", failure.url, "https://img.example/a", "https://img.example/b"], name)
            let some = try store.imageRecords(urls: ["https://img.example/a", "https://img.example/none", failure.url, "https://img.example/a"])
            XCTAssertEqual(some, ["https://img.example/a": rows[1], failure.url: failure], name)
            XCTAssertEqual(try store.imageRecords(urls: []), [:], name)

            // Replacing: the row is the new one, whole.
            var replaced = rows[0]
            (replaced.type, replaced.width, replaced.etag, replaced.failures) = ("jpeg", nil, nil, 0)
            try store.saveImage(replaced)
            XCTAssertEqual(try store.imageRecord(url: replaced.url), replaced, name)

            // Touching renews stored images only, and never shortens an expiry.
            try store.touchImages(["https://img.example/a", failure.url, "https://img.example/c", "https://img.example/none"],
                                  now: t(5), expiresAt: t(6))
            XCTAssertEqual(try store.imageRecord(url: "https://img.example/a")?.lastUsedAt, t(5), name)
            XCTAssertEqual(try store.imageRecord(url: "https://img.example/a")?.expiresAt, t(10), name)
            XCTAssertEqual(try store.imageRecord(url: "https://img.example/c")?.expiresAt, t(8), name)
            XCTAssertEqual(try store.imageRecord(url: failure.url), failure, "a failure keeps its times: \(name)")
            try store.touchImages([], now: t(9), expiresAt: t(9))

            XCTAssertEqual(try store.deleteImages(["https://img.example/a", "https://img.example/none", failure.url]), 2, name)
            XCTAssertEqual(try store.deleteImages([]), 0, name)
            XCTAssertEqual(try store.imageRecords().count, 3, name)
            XCTAssertEqual(try store.clearImages(), 3, name)
            XCTAssertEqual(try store.imageRecords(), [], name)
            XCTAssertEqual(try store.clearImages(), 0, name)
        }
    }

    /// URLs of every awkward class: quoting of the bound arrays, placeholders, braces, the word
    /// NULL, unicode (U+FFFD itself too), and URLs far past a B-tree entry's 2,704 bytes
    /// (random, so no compression saves them). All are kept and found, as they went in.
    func testAwkwardAndHugeURLsAreKeptAndFoundOnBothBackends() throws {
        var generator = SplitMix64(seed: 22)
        func random(_ count: Int) -> String {
            String((0..<count).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x21...0x7E, using: &generator))) })
        }
        let urls = ["NULL", "null", "{1,2}", "{\"a\",NULL}", "\"", "\\", "\\\"", "'; DROP TABLE cached_images; --", "$1 ?1 %s",
                    "a,b", " ", "tab\tnew\nline", "emoji 🧪", "e\u{301}", "\u{202E}rtl", "\u{FFFD}", "https://x/\u{FFFD}",
                    "https://img.example/" + random(6_400), "https://img.example/" + random(100_000),
                    "https://img.example/" + String(repeating: "long/", count: 20_000)]
        for store in stores {
            let name = "\(type(of: store))"
            for (index, url) in urls.enumerated() { try store.saveImage(record(url, used: index)) }
            // Compared by short names: a failure message of 100 KB URLs says nothing.
            func short(_ list: [String]) -> [String] { list.map { "\($0.prefix(30))…\($0.utf8.count)" } }
            XCTAssertEqual(short(try store.imageRecords().map(\.url)), short(urls), name)
            XCTAssertEqual(try store.imageRecords(urls: urls).count, urls.count, name)
            for url in urls { XCTAssertTrue(try store.imageRecord(url: url)?.url == url, "\(name): \(short([url]))") }
            try store.touchImages(urls, now: t(100), expiresAt: t(200))
            XCTAssertEqual(Set(try store.imageRecords().map(\.lastUsedAt)), [t(100)], name)
            XCTAssertEqual(try store.deleteImages(Array(urls.prefix(10))), 10, name)
            // All used at one time now: in the URLs' byte order (SQLite's BINARY, PostgreSQL's "C").
            let byBytes = urls.dropFirst(10).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            XCTAssertEqual(short(try store.imageRecords().map(\.url)), short(byBytes), name)
        }
    }

    /// Rows no cache writes, in every field with a rule: each backend refuses the same ones
    /// with its constraint error and keeps what it had; the rest (extreme but allowed) read
    /// back as written on both.
    func testHostileRowsAreRefusedAlikeAndNothingIsWritten() throws {
        let base = record("https://img.example/x")
        var cases: [(name: String, row: ImageRecord, refused: Bool)] = []
        func add(_ name: String, refused: Bool, _ change: (inout ImageRecord) -> Void) {
            var row = base
            change(&row)
            cases.append((name, row, refused))
        }
        for url in ["", "\u{0}", "https://img.example/\u{0}", "\u{0}https://img.example/x", "https://img.example/x\u{0}.png"] {
            add("url \(url.debugDescription)", refused: true) { $0.url = url }
        }
        for bytes in [Int.min, -1, -(1 << 40)] { add("bytes \(bytes)", refused: true) { $0.bytes = bytes } }
        for bytes in [0, 1, Int.max, Int.max - 1] { add("bytes \(bytes)", refused: false) { $0.bytes = bytes } }
        for failures in [Int.min, -1] { add("failures \(failures)", refused: true) { $0.failures = failures } }
        for failures in [0, Int.max] { add("failures \(failures)", refused: false) { $0.failures = failures } }
        for type in ["", "svg", "PNG", "png ", "jpg", "html", "png\u{0}"] { add("type \(type.debugDescription)", refused: true) { $0.type = type } }
        for type in ImageTypeNames.all { add("type \(type)", refused: false) { $0.type = type } }
        // No rule on sizes or times (the cache checks what it writes): extremes kept as they are.
        for size in [Int.min, -1, 0, Int.max] {
            add("width and height \(size)", refused: false) { ($0.width, $0.height) = (size, size) }
        }
        for time in [Int64.min, -1, Int64.max] {
            add("times \(time)", refused: false) {
                let t = Timestamp(secondsSince1970: time)
                ($0.fetchedAt, $0.lastUsedAt, $0.expiresAt, $0.retryAt) = (t, t, t, t)
            }
        }
        add("long texts", refused: false) { ($0.etag, $0.lastModified, $0.lastError, $0.fileKey) = (String(repeating: "e", count: 50_000), "", "'\"\\", "") }

        let kept = ImageRecord(url: "https://img.example/kept", fileKey: "kept", type: "png", bytes: 5, fetchedAt: t(0),
                               lastUsedAt: t(0), expiresAt: t(1))
        for store in stores {
            try store.saveImage(kept)
            for item in cases {
                let label = "\(type(of: store)): \(item.name)"
                do {
                    try store.saveImage(item.row)
                    XCTAssertFalse(item.refused, "accepted: \(label)")
                    XCTAssertEqual(try store.imageRecord(url: item.row.url), item.row, label)
                    XCTAssertEqual(try store.deleteImages([item.row.url]), 1, label)
                } catch let error as StorageError {
                    guard case .constraintViolated = error else { XCTFail("\(label): \(error)"); continue }
                    XCTAssertTrue(item.refused, "refused: \(label): \(error)")
                } catch let error as PostgresError {
                    guard case .constraintViolated = error else { XCTFail("\(label): \(error)"); continue }
                    XCTAssertTrue(item.refused, "refused: \(label): \(error)")
                }
                XCTAssertEqual(try store.imageRecords(), [kept], "nothing else written: \(label)")
            }
            // A URL no row can have is found nowhere, touches and deletes nothing; not even the
            // row of the URL before its U+0000 (SQLite's json_each ends a string there).
            for nul in ["https://img.example/kept\u{0}", "https://img.example/kept\u{0}.png", "\u{0}"] {
                let label = "\(type(of: store)): \(nul.debugDescription)"
                XCTAssertNil(try store.imageRecord(url: nul), label)
                XCTAssertEqual(try store.imageRecords(urls: [nul]), [:], label)
                try store.touchImages([nul], now: t(9), expiresAt: t(9))
                XCTAssertEqual(try store.deleteImages([nul, ""]), 0, label)
                XCTAssertEqual(try store.imageRecords(), [kept], label)
            }
        }
    }

    /// The image URLs of cards never asked for, newest card first (dated and undated cards
    /// together, by sort date then id), each once with its first card's source, `limit` cards read.
    func testImagesNeverFetchedListTheSameOnBothBackends() throws {
        for store in [sqlite as any UpdateStore, postgres as any UpdateStore] {
            let a = try store.upsertSource(SourceConfiguration(url: "https://a.example/feed.xml"), now: t(0))
            let b = try store.upsertSource(SourceConfiguration(url: "https://b.example/feed.xml"), now: t(0))
            let cards = (0..<30).map { n in
                Card(id: "c\(n)", title: "\(n)", image: n % 7 == 0 ? nil : n % 5 == 0 ? "" : "https://img.example/\(n % 11).png",
                     published: n % 4 == 0 ? nil : t(n % 9))
            }
            try store.saveFetch(sourceID: a, feed: FeedInfo(), cards: Array(cards.prefix(18)), validators: CacheValidators(),
                                now: t(3), nextDue: nil)
            try store.saveFetch(sourceID: b, feed: FeedInfo(), cards: Array(cards.suffix(12)), validators: CacheValidators(),
                                now: t(4), nextDue: nil)
        }
        func list(_ store: any ImageRecordStore, _ limit: Int) throws -> [String] {
            try store.imagesNeverFetched(limit: limit).map { "\($0.url) \(($0.sourceID == SourceID(rawValue: 1)) ? "a" : "b")" }
        }
        for limit in [0, 1, 3, 10, 100] {
            XCTAssertEqual(try list(postgres, limit), try list(sqlite, limit), "limit \(limit)")
        }
        XCTAssertEqual(try list(sqlite, 100).count, 10)
        for store in stores {
            try store.saveImage(record("https://img.example/3.png"))
            try store.saveImage(record("https://img.example/4.png", type: nil))
        }
        XCTAssertEqual(try list(postgres, 100), try list(sqlite, 100))
        XCTAssertFalse(try list(sqlite, 100).contains { $0.hasPrefix("https://img.example/3.png") || $0.hasPrefix("https://img.example/4.png") })
        XCTAssertEqual(try list(sqlite, 100).count, 8)
    }

    /// A database from before migration 5 (feeds with no image cache on PostgreSQL) gets the
    /// tables when it is opened, everything it held kept.
    func testADatabaseFromBeforeMigration5GetsTheTablesWhenOpened() throws {
        let id = try postgres.upsertSource(SourceConfiguration(url: "https://a.example/feed.xml"), now: t(0))
        try postgres.saveFetch(sourceID: id, feed: FeedInfo(), cards: [Card(id: "1", title: "One", image: "https://a.example/1.png")],
                               validators: CacheValidators(), now: t(1), nextDue: nil)
        try postgres.connection.executeScript("""
            DROP TABLE cached_images; DROP TABLE page_previews; DROP FUNCTION feeds_text_digest(text);
            DROP INDEX cards_stamps; DROP STATISTICS cards_days;
            DROP TABLE card_changes; DROP FUNCTION feeds_note_card_change() CASCADE;
            ALTER TABLE sources DROP COLUMN lease_takeovers; DROP FUNCTION feeds_take_host_slot;
            DELETE FROM feeds_schema WHERE version >= 5
            """, context: "test")
        postgres = try PostgresStore(address: databaseURL)
        XCTAssertEqual(try postgres.databaseSchemaVersion(), PostgresStore.schemaVersion)
        XCTAssertEqual(try postgres.cardCount(CardQuery()), 1)
        XCTAssertEqual(try postgres.imagesNeverFetched(limit: 10).map(\.url), ["https://a.example/1.png"])
        try postgres.saveImage(record("https://a.example/1.png"))
        try postgres.savePagePreviews(["https://a.example/1": nil], checkedAt: t(2))
        XCTAssertEqual(try postgres.imagesNeverFetched(limit: 10).count, 0)
        XCTAssertEqual(try postgres.pagePreviews(for: ["https://a.example/1"]).count, 1)
    }

    /// PostgreSQL finds a URL's row by its digest's index, whatever the number of rows.
    func testLookupsUseTheDigestIndexOnPostgres() throws {
        let plan = try postgres.connection.execute("""
            EXPLAIN SELECT url FROM cached_images WHERE url_digest = ANY (SELECT feeds_text_digest(u) FROM unnest($1::text[]) AS u)
            """, [PGArray.texts(["https://a", "https://b"])], context: "test")
        let text = try plan.rows { plan.string($0, 0) ?? "" }.joined(separator: "\n")
        XCTAssertTrue(text.contains("cached_images_pkey"), text)
    }
}

/// The type names the schema accepts (`ImageType` is the cache's, which Storage does not import).
private enum ImageTypeNames {
    static let all = ["jpeg", "png", "gif", "webp", "avif"]
}
