import FeedModel
import Foundation
import HTMLDigest
import Storage
import TestSupport
import XCTest

/// A store with a fixed set of cards (hostile strings included) and a fixed clock.
class DigestTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var store: FeedStore!
    var site: String { directory.path + "/site" }
    /// 2026-11-29T12:00:00Z.
    let now = Timestamp(secondsSince1970: 1_795_953_600)
    func hoursAgo(_ h: Int64) -> Timestamp { Timestamp(secondsSince1970: now.secondsSince1970 - h * 3_600) }
    var options: DigestOptions { DigestOptions(title: "Test digest", since: hoursAgo(7 * 24), now: now) }

    override func setUpWithError() throws {
        directory = TemporaryDirectory("feeds-digest")
        store = try FeedStore(path: directory.path + "/feeds.db")
    }

    override func tearDown() {
        store = nil
        directory = nil
    }

    /// Two feeds and a saved search; an image answer, an enclosure, hostile text and URLs.
    func fillStore() throws {
        let blog = try store.upsertSource(SourceConfiguration(url: "https://blog.example.org/feed", name: "Blog <&> \"quotes\""), now: hoursAgo(400))
        let news = try store.upsertSource(SourceConfiguration(url: "https://news.example.net/atom"), now: hoursAgo(400))
        let search = try store.upsertSource(SourceConfiguration(url: "search:searxng:cats", name: "Cats", kind: .search), now: hoursAgo(400))
        try store.saveFetch(sourceID: blog, feed: FeedInfo(title: "Blog", link: "https://blog.example.org/", description: "<p>About <b>us</b></p>"), cards: [
            Card(id: "b1", title: "Hello <script>alert(1)</script> world", description: "<p>First <b>post</b> &amp; more</p>",
                 link: "https://blog.example.org/1", image: "https://img.example.org/a.png", published: hoursAgo(2), author: "Ann"),
            Card(id: "b2", title: "Podcast episode", description: "<p>Listen</p>", link: "https://blog.example.org/2",
                 published: hoursAgo(30), enclosures: [Enclosure(url: "https://blog.example.org/ep.mp3", type: "audio/mpeg", length: 31_457_280)]),
            Card(id: "b3", title: "Old post", link: "javascript:alert(2)", published: hoursAgo(24 * 40)),
        ], validators: CacheValidators(), now: hoursAgo(1), nextDue: nil)
        try store.saveFetch(sourceID: news, feed: FeedInfo(title: "News"), cards: [
            Card(id: "n1", title: "A \"quoted\" headline", description: String(repeating: "Long text. ", count: 40),
                 link: "https://news.example.net/n1", image: "https://img.example.org/missing.jpg", published: hoursAgo(5)),
            Card(id: "n2", title: nil, description: "<p>No title here, only text that becomes the title.</p>", link: "https://news.example.net/n2", published: hoursAgo(50)),
        ], validators: CacheValidators(), now: hoursAgo(1), nextDue: nil)
        try store.saveFetch(sourceID: search, feed: FeedInfo(title: "cats"), cards: [
            Card(title: "A cat", link: "https://pics.example.com/cat", image: "https://img.example.org/cat.gif", published: hoursAgo(3), kind: .image),
        ], validators: CacheValidators(), now: hoursAgo(1), nextDue: nil)
    }

    /// Two cached images (tiny files) for the cards that have them; the third stays missing.
    func images() throws -> [String: DigestImage] {
        let png = directory.path + "/a.png", gif = directory.path + "/cat.gif"
        try Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]).write(to: URL(fileURLWithPath: png))
        try Data(Array("GIF89a".utf8) + [1, 0, 1, 0]).write(to: URL(fileURLWithPath: gif))
        return [
            "https://img.example.org/a.png": DigestImage(sourceFile: png, fileName: "aaaa.png", width: 640, height: 360),
            "https://img.example.org/cat.gif": DigestImage(sourceFile: gif, fileName: "cccc.gif", width: 400, height: 300),
        ]
    }

    @discardableResult
    func writeSite(options: DigestOptions? = nil) throws -> DigestReport {
        let options = options ?? self.options
        let model = try DigestModel.load(from: store, options: options)
        return try DigestWriter(directory: site, options: options).write(model, images: try images(), extraFiles: ["sources.opml": "<opml/>\n"])
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: site + "/" + relative, encoding: .utf8)
    }

    /// Every .html file of the site, relative paths, sorted.
    func pages() throws -> [String] {
        let e = FileManager.default.enumerator(atPath: site)!
        return (e.allObjects as! [String]).filter { $0.hasSuffix(".html") }.sorted()
    }
}
