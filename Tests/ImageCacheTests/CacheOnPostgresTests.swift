import FeedModel
import Fetching
import Foundation
@testable import ImageCache
import Storage
import TestSupport
import XCTest

/// The image cache's policy with its records on PostgreSQL: every scenario runs against a
/// cache on SQLite and one on PostgreSQL (a real server, one per class, a database per test),
/// with the same downloads from a loopback server, and both must end the same: the cap held
/// while downloading, least recently used images out first, left-out images remembered,
/// back-off, revalidation, prune.
final class CacheOnPostgresTests: ImageCacheTestCase {
    private var postgres: PostgresStore!
    private var postgresCache: ImageCache!
    private var caches: [ImageCache] { [cache, postgresCache] }

    override class func setUp() {
        super.setUp()
        ClassServers.start(for: self)
    }

    override class func tearDown() {
        ClassServers.stop(for: self)
        super.tearDown()
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let server = try ClassServers.server(for: Self.self)
        postgres = try PostgresStore(address: try server.makeDatabase())
        postgresCache = ImageCache(directory: directory.path + "/pg-images", store: postgres)
    }

    override func tearDown() {
        postgresCache = nil
        postgres = nil
        super.tearDown()
    }

    private func name(_ cache: ImageCache) -> String { "\(type(of: cache.store))" }

    /// `count` distinct PNGs of `bytes` bytes, the largest folder of either cache measured at
    /// every request.
    private func serve(_ count: Int, bytes: Int, peak: Locked<Int>) throws -> (LoopbackHTTPServer, [String]) {
        let server = try LoopbackHTTPServer()
        let body = png(size: bytes)
        let folders = caches.map(\.directory)
        for i in 0..<count {
            server.route("/\(i).png") { _ in
                let now = folders.map(CacheCapTests.measure).max() ?? 0
                peak.withLock { $0 = max($0, now) }
                return ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: body)
            }
        }
        return (server, (0..<count).map { server.url("/\($0).png") })
    }

    func testTheCapHoldsWhileDownloadingAndLeftOutImagesWaitUntilTheyFit() throws {
        let size = 1024
        let peak = Locked(0)
        let (server, urls) = try serve(40, bytes: size, peak: peak)
        defer { server.stop() }
        let sources = Dictionary(uniqueKeysWithValues: urls.map { ($0, server.url("/feed")) })
        let fetcher = try Fetcher(limits: FetchLimits(userAgent: "test", maxInFlight: 4, maxPerHost: 4))
        for cache in caches {
            let name = name(cache)
            cache.policy.maxTotalBytes = 12 * size
            cache.policy.maxImageBytes = size
            let first = try cache.download(urls, sources: sources, fetcher: fetcher, now: t(0))
            XCTAssertEqual(first.stored, 12, name)
            XCTAssertEqual(first.stored + first.leftOut, 40, "\(name): \(first)")
            XCTAssertEqual(try cache.stats(now: t(0)).leftOut, 28, name)
            XCTAssertLessThanOrEqual(CacheCapTests.measure(cache.directory), 12 * size, name)
            let asked = server.requests.count
            XCTAssertEqual(try cache.download(urls, sources: sources, fetcher: fetcher, now: t(1)).requested, 0, name)
            XCTAssertEqual(server.requests.count, asked, "nothing asked while nothing fits: \(name)")
            cache.policy.maxTotalBytes = 40 * size
            XCTAssertEqual(try cache.download(urls, sources: sources, fetcher: fetcher, now: t(2)).stored, 28, name)
            XCTAssertEqual(try cache.stats(now: t(2)), ImageCacheStats(images: 40, bytes: 40 * size), name)
        }
        XCTAssertLessThanOrEqual(peak.withLock { $0 }, 40 * size)
        // Which 12 came first depends on the order transfers end in; in the end both hold every one.
        XCTAssertEqual(Set(try postgres.imageRecords().filter(\.isStored).map(\.url)), Set(urls))
        XCTAssertEqual(Set(try store.imageRecords().filter(\.isStored).map(\.url)), Set(urls))
    }

    func testLeastRecentlyUsedGoFirstAndPruneDropsWhatExpired() throws {
        for cache in caches {
            let name = name(cache)
            cache.policy.maxTotalBytes = 250
            for (i, letter) in ["a", "b", "c"].enumerated() {
                try cache.record(ok(png(size: 100)), for: "https://x/" + letter, now: t(Int64(i)))
            }
            _ = try cache.images(for: ["https://x/a"], now: t(10))  // a is now the most recently used
            XCTAssertEqual(try cache.evict(now: t(10), expired: false), 1, name)
            XCTAssertEqual(Set(try cache.store.imageRecords().map(\.url)), ["https://x/a", "https://x/c"], name)
            XCTAssertFalse(FileManager.default.fileExists(atPath: cache.path(key: ImageCache.key(for: "https://x/b"), type: .png)), name)

            try cache.record(.success(FetchResponse(status: 500, finalURL: "")), for: "https://x/dead", now: t(10))
            XCTAssertEqual(try cache.stats(now: t(200)), ImageCacheStats(images: 2, bytes: 200, expired: 2, failures: 1), name)
            // c (used at 2 h) and a (10 h) expire a week after; the failure a week after its back-off.
            XCTAssertEqual(try cache.evict(now: t(2 + 168), expired: true), 1, name)
            XCTAssertEqual(try cache.evict(now: t(11 + 168 * 2), expired: true), 2, name)
            XCTAssertEqual(try cache.store.imageRecords(), [], name)
        }
    }

    func testFailuresBackOffAndExpiredImagesAreRevalidated() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.routeConditional("/a.png", etag: "\"1\"", lastModified: nil,
                                ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: png(20, 10)))
        server.route("/gone.png", ScriptedResponse(status: 404))
        let urls = ["/a.png", "/gone.png"].map(server.url)
        let sources = Dictionary(uniqueKeysWithValues: urls.map { ($0, server.url("/feed.xml")) })
        let fetcher = try Fetcher(limits: FetchLimits(userAgent: "test", maxPerHost: 2))
        for cache in caches {
            let name = name(cache)
            let first = try cache.download(urls, sources: sources, fetcher: fetcher, now: t(0))
            XCTAssertEqual([first.stored, first.failed], [1, 1], name)
            XCTAssertEqual(try cache.store.imageRecord(url: urls[1])?.retryAt, t(1), name)
            XCTAssertEqual(try cache.download(urls, sources: sources, fetcher: fetcher, now: t(0)).requested, 0, name)
            XCTAssertEqual(try cache.download(urls, sources: sources, fetcher: fetcher, now: t(1)).failed, 1, name)
            XCTAssertEqual(try cache.store.imageRecord(url: urls[1])?.retryAt, t(3), "doubled: \(name)")
            let later = try cache.download([urls[0]], sources: sources, fetcher: fetcher, now: t(24 * 8))
            XCTAssertEqual(later.notModified, 1, name)
            XCTAssertEqual(try cache.images(for: urls, now: t(24 * 8)).map(\.value.width), [20], name)
        }
        XCTAssertEqual(server.requests(path: "/a.png").filter { $0.header("If-None-Match") == "\"1\"" }.count, 2)
    }

    /// What a store may hold and a card may name, in the cache: rows of Int.max bytes (the
    /// store has no upper bound), and image URLs with U+0000 (no row can key them) among good
    /// ones. A run neither traps nor fails; the hostile URLs are not asked for.
    func testHostileRowsAndURLsNeitherTrapNorFailARun() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/ok.png", ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: png()))
        let good = server.url("/ok.png")
        let hostile = [server.url("/ok.png\u{0}"), server.url("/\u{0}x.png"), "\u{0}", "https://x/\u{0}"]
        let sources = Dictionary(uniqueKeysWithValues: ([good] + hostile).map { ($0, server.url("/feed.xml")) })
        let fetcher = try Fetcher(limits: FetchLimits(userAgent: "test", maxPerHost: 2))
        for cache in caches {
            let name = name(cache)
            for i in 0..<3 {
                try cache.store.saveImage(ImageRecord(url: "https://huge.example/\(i)", fileKey: "h\(i)", type: "png", bytes: .max,
                                                      fetchedAt: t(0), lastUsedAt: t(0), expiresAt: t(1_000)))
            }
            XCTAssertEqual(try cache.stats(now: t(0)).bytes, .max, name)
            let run = try cache.download(hostile + [good], sources: sources, fetcher: fetcher, now: t(0))
            XCTAssertEqual(run.skipped, hostile.count, "\(name): \(run)")
            XCTAssertEqual(run.requested + run.postponed, 1, "\(name): \(run)")
            // The huge rows could never fit: they went (least recently used) to make room.
            XCTAssertEqual(run.evicted, 3, "\(name): \(run)")
            XCTAssertEqual(run.stored, 1, "\(name): \(run)")
            XCTAssertEqual(try cache.images(for: hostile + [good], now: t(1)).keys.sorted(), [good], name)
            XCTAssertEqual(try cache.store.imageRecords().map(\.url), [good], name)
        }
        XCTAssertEqual(server.requests.map(\.path), ["/ok.png", "/ok.png"])
    }
}
