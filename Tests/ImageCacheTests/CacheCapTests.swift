import FeedModel
import Fetching
import Foundation
@testable import ImageCache
import Storage
import TestSupport
import XCTest

/// The image cache cap while downloading (issue 15): 150 images of 4 KiB against a cap of
/// 64 of them (the 150 × 4 MB against 256 MB of the report, scaled down a thousand times). The
/// folder never holds more than the cap, what had to be left out is remembered and not
/// downloaded again, until it fits.
final class CacheCapTests: ImageCacheTestCase {
    static let imageBytes = 4096
    static let cap = 64 * imageBytes

    func bytesOnDisk() -> Int { Self.measure(cache.directory) }

    /// A server of `count` distinct PNGs that measures the cache folder at every request.
    func serve(_ count: Int, peak: Locked<Int>) throws -> (LoopbackHTTPServer, [String]) {
        let server = try LoopbackHTTPServer()
        let body = png(size: Self.imageBytes)
        let folder = cache.directory
        for i in 0..<count {
            server.route("/\(i).png") { _ in
                let now = Self.measure(folder)
                peak.withLock { $0 = max($0, now) }
                return ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: body)
            }
        }
        return (server, (0..<count).map { server.url("/\($0).png") })
    }

    static func measure(_ folder: String) -> Int {
        guard let e = FileManager.default.enumerator(atPath: folder) else { return 0 }
        var total = 0
        for case let name as String in e {
            var info = stat()
            if lstat(folder + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { total += Int(info.st_size) }
        }
        return total
    }

    func testTheCapHoldsWhileDownloadingAndLeftOutImagesAreNotFetchedAgain() throws {
        cache.policy.maxTotalBytes = Self.cap
        cache.policy.maxImageBytes = Self.imageBytes
        let peak = Locked(0)
        let (server, urls) = try serve(150, peak: peak)
        defer { server.stop() }
        let sources = Dictionary(uniqueKeysWithValues: urls.map { ($0, server.url("/feed")) })
        let fetcher = try Fetcher(limits: FetchLimits(userAgent: "test", maxInFlight: 8, maxPerHost: 8))

        let first = try cache.download(urls, sources: sources, fetcher: fetcher, now: t(0))
        XCTAssertEqual(first.stored, 64)
        XCTAssertEqual(first.stored + first.leftOut, 150, "\(first)")
        XCTAssertLessThanOrEqual(bytesOnDisk(), Self.cap)
        XCTAssertLessThanOrEqual(peak.withLock { $0 }, Self.cap, "never past the cap on disk")
        let asked = server.requests.count
        XCTAssertLessThan(asked, 150, "downloads stop once the cache is full")
        XCTAssertEqual(try cache.stats(now: t(0)).leftOut, 150 - 64, "each one left out is remembered, downloaded or not")

        // The next run asks for nothing: the kept ones are fresh, the left-out ones do not fit.
        let second = try cache.download(urls, sources: sources, fetcher: fetcher, now: t(1))
        XCTAssertEqual(second.requested, 0, "\(second)")
        XCTAssertEqual(server.requests.count, asked)

        // Room for them again (the cap raised): they are fetched, within the new cap.
        cache.policy.maxTotalBytes = 200 * Self.imageBytes
        let third = try cache.download(urls, sources: sources, fetcher: fetcher, now: t(2))
        XCTAssertEqual(third.stored, 86, "\(third)")
        XCTAssertEqual(try cache.stats(now: t(2)).images, 150)
        XCTAssertEqual(try cache.stats(now: t(2)).leftOut, 0)
        XCTAssertLessThanOrEqual(bytesOnDisk(), 200 * Self.imageBytes)
    }

    /// Images no card wants any more make room for new ones, least recently used first, and are
    /// remembered: wanted again while the cache is full, they are not downloaded.
    func testUnwantedImagesMakeRoomAndAreRemembered() throws {
        cache.policy.maxTotalBytes = 10 * Self.imageBytes
        cache.policy.maxImageBytes = Self.imageBytes
        let peak = Locked(0)
        let (server, urls) = try serve(20, peak: peak)
        defer { server.stop() }
        let sources = Dictionary(uniqueKeysWithValues: urls.map { ($0, server.url("/feed")) })
        let fetcher = try Fetcher(limits: FetchLimits(userAgent: "test", maxInFlight: 4, maxPerHost: 4))
        let old = Array(urls[0..<10]), new = Array(urls[10..<14])
        XCTAssertEqual(try cache.download(old, sources: sources, fetcher: fetcher, now: t(0)).stored, 10)
        _ = try cache.images(for: Array(old[4...]), now: t(1))  // 4...9 used later: 0...3 are least recently used

        let run = try cache.download(new, sources: sources, fetcher: fetcher, now: t(2))
        XCTAssertEqual(run.stored, 4)
        XCTAssertEqual(run.evicted, 4)
        XCTAssertEqual(Set(try cache.images(for: urls, now: t(2)).keys), Set(old[4...] + new))
        XCTAssertLessThanOrEqual(peak.withLock { $0 }, 10 * Self.imageBytes)
        XCTAssertEqual(try cache.stats(now: t(2)).leftOut, 4)

        let before = server.requests.count
        let again = try cache.download(Array(old[0..<4]) + new, sources: sources, fetcher: fetcher, now: t(3))
        XCTAssertEqual(again.requested, 0, "\(again)")
        XCTAssertEqual(server.requests.count, before)

        // Forgotten by a prune an expiry after they were last wanted.
        XCTAssertGreaterThan(try cache.evict(now: t(3 + 24 * 8), expired: true), 0)
        XCTAssertEqual(try cache.stats(now: t(3 + 24 * 8)).leftOut, 0)
    }

    func testTheRememberedRowIsPureState() {
        let row = ImageRecord.leftOutForRoom(url: "https://e.org/a.png", fileKey: "k", bytes: 100, now: t(0))
        XCTAssertTrue(row.isLeftOutForRoom)
        XCTAssertFalse(row.isStored)
        XCTAssertFalse(cache.policy.shouldFetch(row, now: t(5), freeBytes: 99))
        XCTAssertTrue(cache.policy.shouldFetch(row, now: t(5), freeBytes: 100))
        var failure = row
        failure.failures = 1
        XCTAssertFalse(failure.isLeftOutForRoom, "a failure is not a left-out image")
    }
}
