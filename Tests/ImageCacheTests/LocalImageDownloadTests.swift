import FeedModel
import Fetching
import Foundation
@testable import ImageCache
import Storage
import TestSupport
import XCTest

/// The cache reads a file image only for a card of a local source, and only inside that
/// source's folder (issue 18): the offline demo's pictures, never a file named by a web feed.
final class LocalImageDownloadTests: ImageCacheTestCase {
    func testAFileImageOfALocalSourceIsReadIntoTheCache() throws {
        let folder = directory.path + "/feeds"
        try FileManager.default.createDirectory(atPath: folder + "/img", withIntermediateDirectories: true)
        try Data(png(40, 20, size: 200)).write(to: URL(fileURLWithPath: folder + "/img/a.png"))
        let url = "file://" + folder + "/img/a.png"
        let fetcher = try Fetcher(limits: FetchLimits(userAgent: "test"))
        let summary = try cache.download([url], sources: [url: "file://" + folder + "/pics.rss"], fetcher: fetcher, now: t(0))
        XCTAssertEqual(summary.stored, 1, "\(summary)")
        let image = try XCTUnwrap(try cache.images(for: [url], now: t(0))[url])
        XCTAssertEqual(image.width, 40)
        XCTAssertEqual(image.bytes, 200)
    }

    func testAFileImageIsNeverReadForAWebSourceOrOutsideTheFolder() throws {
        let local = "file:///home/me/feeds/pics.rss"
        let refused: [(image: String, source: String?)] = [
            ("file:///home/me/feeds/img/a.png", "https://site.example/pics.rss"),
            ("file:///home/me/feeds/img/a.png", "http://127.0.0.1:8080/pics.rss"),
            ("file:///home/me/feeds/img/a.png", nil),
            ("file:///etc/passwd", local),
            ("file:///home/me/feeds/../../../etc/passwd", local),
            ("file:///home/me/feeds/%2e%2e/x.png", local),
            ("file:///home/me/feedsX/a.png", local),
            ("file:/home/me/feeds/a.png", local),
        ]
        for (image, source) in refused {
            let requests = try cache.requests(for: [image], sources: source.map { [image: $0] } ?? [:], now: t(0))
            XCTAssertTrue(requests.isEmpty, "\(image) of \(source ?? "no source")")
        }
        let ok = try cache.requests(for: ["file:///home/me/feeds/img/a.png"], sources: ["file:///home/me/feeds/img/a.png": local], now: t(0))
        XCTAssertEqual(ok.map(\.allowFile), [true])
        let web = try cache.requests(for: ["https://i.example/a.png"], sources: ["https://i.example/a.png": local], now: t(0))
        XCTAssertEqual(web.map(\.allowFile), [false], "a web image of a local source is an ordinary download")
    }

    /// The per-run cap: the first `maxRequests` go out, the rest is left for the next runs.
    func testDownloadsStopAtTheRunsCapAndTheNextRunGoesOn() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let body = png()
        for i in 0..<10 { server.route("/\(i).png", ScriptedResponse(status: 200, headers: [("Content-Type", "image/png")], body: body)) }
        let urls = (0..<10).map { server.url("/\($0).png") }
        let sources = Dictionary(uniqueKeysWithValues: urls.map { ($0, server.url("/feed")) })
        let fetcher = try Fetcher(limits: FetchLimits(userAgent: "test"))
        let first = try cache.download(urls, sources: sources, fetcher: fetcher, now: t(0), maxRequests: 4)
        XCTAssertEqual(first.stored, 4)
        XCTAssertEqual(first.postponed, 6)
        XCTAssertEqual(Set(try cache.images(for: urls, now: t(0)).keys), Set(urls.prefix(4)), "the first ones (newest) first")
        let second = try cache.download(urls, sources: sources, fetcher: fetcher, now: t(1), maxRequests: 4)
        XCTAssertEqual(second.stored, 4)
        XCTAssertEqual(second.postponed, 2)
        XCTAssertEqual(server.requests.count, 8, "nothing asked for twice")
    }
}
