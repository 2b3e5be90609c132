import FeedModel
import Fetching
import Foundation
@testable import ImageCache
import Storage
import XCTest

/// Caps, eviction, expiry and the negative cache, with the clock in the test's hand.
final class CachePolicyTests: ImageCacheTestCase {
    func testAStoredImageIsAFileNamedByItsKeyWithMetadataInTheDatabase() throws {
        let url = "https://img.example/a"
        XCTAssertEqual(try cache.record(ok(png(640, 360), etag: "\"v1\""), for: url, now: t(0)), .stored)
        let key = ImageCache.key(for: url)
        let path = directory.path + "/images/" + key.prefix(2) + "/" + key + ".png"
        XCTAssertEqual(FileManager.default.contents(atPath: path).map { [UInt8]($0) }, png(640, 360))
        let record = try XCTUnwrap(try store.imageRecord(url: url))
        XCTAssertEqual(record.type, "png")
        XCTAssertEqual(record.width, 640)
        XCTAssertEqual(record.height, 360)
        XCTAssertEqual(record.etag, "\"v1\"")
        XCTAssertEqual(record.expiresAt, t(7 * 24))
        let images = try cache.images(for: [url, "https://img.example/none"], now: t(1))
        XCTAssertEqual(images[url]?.path, path)
        XCTAssertEqual(images[url]?.fileName, key + ".png")
        XCTAssertNil(images["https://img.example/none"])
    }

    func testNotAnImageOrTooLargeIsAFailure() throws {
        cache.policy.maxImageBytes = 100
        XCTAssertEqual(try cache.record(ok(Array("<html>oops</html>".utf8)), for: "https://a/1", now: t(0)),
                       .failed("not a JPEG, PNG, GIF, WebP or AVIF image (no type)"))
        XCTAssertEqual(try cache.record(ok(png(size: 101)), for: "https://a/2", now: t(0)), .failed("image larger than 100 bytes"))
        XCTAssertEqual(try cache.record(ok(png(size: 100)), for: "https://a/3", now: t(0)), .stored)
        XCTAssertTrue(try cache.images(for: ["https://a/1", "https://a/2"], now: t(0)).isEmpty)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path + "/images/" + ImageCache.key(for: "https://a/1").prefix(2)))
    }

    func testFailuresBackOffExponentiallyAndAreRetriedAfterwards() throws {
        let url = "https://img.example/dead"
        let notFound: Result<FetchResponse, FetchError> = .success(FetchResponse(status: 404, finalURL: url))
        XCTAssertEqual(try cache.requests(for: [url], now: t(0)).map(\.url), [url])
        try cache.record(notFound, for: url, now: t(0))
        XCTAssertEqual(try store.imageRecord(url: url)?.retryAt, t(1))
        XCTAssertEqual(try cache.requests(for: [url], now: t(0)), [], "inside the back-off: not asked again")
        XCTAssertEqual(try cache.requests(for: [url], now: t(1)).count, 1)
        try cache.record(.failure(.couldNotResolveHost("img.example")), for: url, now: t(1))
        XCTAssertEqual(try store.imageRecord(url: url)?.retryAt, t(3))
        try cache.record(notFound, for: url, now: t(3))
        XCTAssertEqual(try store.imageRecord(url: url)?.retryAt, t(7))
        XCTAssertEqual(try store.imageRecord(url: url)?.failures, 3)
        XCTAssertEqual(cache.policy.retryAt(failures: 30, now: t(0)), t(7 * 24), "capped at the longest back-off")
        // A later success clears the failure.
        try cache.record(ok(png()), for: url, now: t(7))
        let record = try XCTUnwrap(try store.imageRecord(url: url))
        XCTAssertEqual(record.failures, 0)
        XCTAssertNil(record.retryAt)
        XCTAssertEqual(try cache.stats(now: t(7)).images, 1)
    }

    func testExpiryIsRenewedByUseAndExpiredImagesAreRevalidated() throws {
        let url = "https://img.example/a"
        try cache.record(ok(png(), etag: "\"e\""), for: url, now: t(0))
        XCTAssertEqual(try cache.requests(for: [url], now: t(100)), [], "fresh: not asked for")
        _ = try cache.images(for: [url], now: t(100))  // used: expiry moves to 100 h + 7 days
        XCTAssertEqual(try store.imageRecord(url: url)?.expiresAt, t(100 + 168))
        XCTAssertEqual(try cache.requests(for: [url], now: t(267)), [])
        let requests = try cache.requests(for: [url], now: t(268))
        XCTAssertEqual(requests.first?.etag, "\"e\"", "an expired image is revalidated with a conditional GET")
        XCTAssertEqual(try cache.record(.success(FetchResponse(status: 304, finalURL: url)), for: url, now: t(268)), .notModified)
        XCTAssertEqual(try store.imageRecord(url: url)?.expiresAt, t(268 + 168))
    }

    func testPruneDropsExpiredImagesAndOldFailures() throws {
        try cache.record(ok(png()), for: "https://a/old", now: t(0))
        try cache.record(ok(png()), for: "https://a/new", now: t(100))
        try cache.record(.success(FetchResponse(status: 500, finalURL: "")), for: "https://a/dead", now: t(0))
        XCTAssertEqual(try cache.stats(now: t(200)), ImageCacheStats(images: 2, bytes: 128, expired: 1, failures: 1, backingOff: 0))
        XCTAssertEqual(try cache.evict(now: t(200), expired: true), 2)
        XCTAssertEqual(try store.imageRecords().map(\.url), ["https://a/new"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.path(key: ImageCache.key(for: "https://a/old"), type: .png)))
    }

    func testTotalCapEvictsLeastRecentlyUsedFirst() throws {
        cache.policy.maxTotalBytes = 250
        for (i, name) in ["a", "b", "c"].enumerated() { try cache.record(ok(png(size: 100)), for: "https://x/" + name, now: t(Int64(i))) }
        _ = try cache.images(for: ["https://x/a"], now: t(10))  // a is now the most recently used
        XCTAssertEqual(try cache.evict(now: t(10), expired: false), 1)
        XCTAssertEqual(Set(try store.imageRecords().map(\.url)), ["https://x/a", "https://x/c"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.path(key: ImageCache.key(for: "https://x/b"), type: .png)))
    }

    func testAFileDeletedByHandIsFetchedAgain() throws {
        let url = "https://img.example/a"
        try cache.record(ok(png()), for: url, now: t(0))
        try FileManager.default.removeItem(atPath: cache.path(key: ImageCache.key(for: url), type: .png))
        XCTAssertTrue(try cache.images(for: [url], now: t(1)).isEmpty)
        XCTAssertEqual(try cache.requests(for: [url], now: t(1)).map(\.url), [url])
    }

    func testClearRemovesEverything() throws {
        try cache.record(ok(png()), for: "https://a/1", now: t(0))
        try cache.record(.success(FetchResponse(status: 404, finalURL: "")), for: "https://a/2", now: t(0))
        XCTAssertEqual(try cache.clear(), 2)
        XCTAssertEqual(try store.imageRecords(), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.directory))
    }
}
