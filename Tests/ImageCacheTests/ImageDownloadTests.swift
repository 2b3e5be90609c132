import FeedModel
import Fetching
import Foundation
@testable import ImageCache
import Storage
import TestSupport
import XCTest

/// Downloads through the real fetcher against a loopback server.
final class ImageDownloadTests: ImageCacheTestCase {
    func testDownloadStoresRefusesAndRevalidates() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.routeConditional("/a.png", etag: "\"1\"", lastModified: nil, ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: png(20, 10)))
        server.route("/evil.png", ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: Array("<svg onload=alert(1)>".utf8)))
        server.route("/gone.png", ScriptedResponse(status: 404))
        let urls = ["/a.png", "/evil.png", "/gone.png"].map(server.url)
        // Images of a source on this server: on its origin a loopback address is allowed.
        let fetcher = try Fetcher(limits: FetchLimits(userAgent: "test", maxPerHost: 2))
        let sources = Dictionary(uniqueKeysWithValues: urls.map { ($0, server.url("/feed.xml")) })
        let first = try cache.download(urls + [urls[0]], sources: sources, fetcher: fetcher, now: t(0))
        XCTAssertEqual(first.requested, 3)
        XCTAssertEqual(first.stored, 1)
        XCTAssertEqual(first.failed, 2)
        XCTAssertEqual(try cache.images(for: urls, now: t(0)).keys.sorted(), [urls[0]])
        // Nothing is asked again while fresh or backing off.
        let second = try cache.download(urls, sources: sources, fetcher: fetcher, now: t(0))
        XCTAssertEqual(second.requested, 0)
        XCTAssertEqual(server.requests(path: "/a.png").count, 1)
        // After the expiry: a conditional GET, answered 304.
        let third = try cache.download([urls[0]], sources: sources, fetcher: fetcher, now: t(24 * 8))
        XCTAssertEqual(third.notModified, 1)
        XCTAssertEqual(server.requests(path: "/a.png").last?.header("If-None-Match"), "\"1\"")
        XCTAssertLessThanOrEqual(server.maxConcurrentRequests, 2)
    }
}
