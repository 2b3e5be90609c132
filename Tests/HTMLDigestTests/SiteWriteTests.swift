import FeedModel
import Foundation
import HTMLDigest
import Storage
import TestSupport
import XCTest

/// Incremental and atomic writes.
final class SiteWriteTests: DigestTestCase {
    func testRerunWithNothingChangedWritesNothing() throws {
        try fillStore()
        let first = try writeSite()
        XCTAssertEqual(first.unchanged, 0)
        XCTAssertTrue(first.written.contains("index.html"))
        let second = try writeSite()
        XCTAssertEqual(second.written, [])
        XCTAssertEqual(second.unchanged, first.written.count)
        XCTAssertEqual(second.removed, [])
    }

    func testANewCardRewritesOnlyThePagesThatShowIt() throws {
        try fillStore()
        try writeSite()
        let news = try XCTUnwrap(try store.source(url: "https://news.example.net/atom"))
        try store.saveFetch(sourceID: news.id, feed: FeedInfo(title: "News"), cards: [
            Card(id: "n3", title: "Fresh", link: "https://news.example.net/n3", published: hoursAgo(1)),
        ], validators: CacheValidators(), now: now, nextDue: nil)
        let report = try writeSite()
        XCTAssertEqual(Set(report.written), ["index.html", "sort-newest.html", "sort-oldest.html", "sort-source.html", "sort-title.html",
                                             "archive/index.html", "archive/2026-11-29.html", "sources/index.html", "sources/2.html",
                                             "digest.atom"])
    }

    func testStaleDayAndSourcePagesAreRemoved() throws {
        try fillStore()
        try writeSite()
        let blog = try XCTUnwrap(try store.source(url: "https://blog.example.org/feed"))
        XCTAssertTrue(try store.removeSource(blog.id))
        let report = try writeSite()
        XCTAssertEqual(report.removed, ["archive/2026-10-20.html", "archive/2026-11-28.html", "images/aaaa.png", "sources/1.html"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: site + "/sources/1.html"))
    }

    func testTemporariesOfADeadWriterAreSweptAndALiveOnesKept() throws {
        try fillStore()
        try writeSite()
        // A child that has exited: its pid is free (until reused, which a test cannot rule out
        // but which takes a pid wrap-around).
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = site + "/archive/.tmp-\(child.processIdentifier)-2026-11-29.html"
        let live = site + "/.tmp-1-index.html"  // pid 1 is always alive
        for path in [dead, live] { try Data("half a pa".utf8).write(to: URL(fileURLWithPath: path)) }
        try writeSite()
        XCTAssertFalse(FileManager.default.fileExists(atPath: dead))
        XCTAssertTrue(FileManager.default.fileExists(atPath: live))
    }

    func testReadersNeverSeeAHalfWrittenPage() throws {
        try fillStore()
        try writeSite()
        let path = site + "/index.html"
        let stop = ManagedAtomic()
        let bad = ManagedAtomic()
        let reads = ManagedAtomic()
        let readers = DispatchGroup()
        for _ in 0..<3 {
            readers.enter()
            DispatchQueue.global().async {
                while !stop.isSet {
                    // Every complete read is a whole page: it starts with the doctype and ends with </html>.
                    if let data = FileManager.default.contents(atPath: path) {
                        let text = String(decoding: data, as: UTF8.self)
                        if !(text.hasPrefix("<!DOCTYPE html>") && text.hasSuffix("</html>\n")) { bad.set() }
                        reads.increment()
                    } else {
                        bad.set()  // the file is never missing either
                    }
                }
                readers.leave()
            }
        }
        // Alternate between two different index pages (titles differ) many times.
        for i in 0..<60 {
            var options = self.options
            options.title = i % 2 == 0 ? "Digest A" : "A much longer title for digest B " + String(repeating: "x", count: 5000)
            try writeSite(options: options)
        }
        stop.set()
        readers.wait()
        XCTAssertFalse(bad.isSet, "a reader saw a partial or missing index.html")
        XCTAssertGreaterThan(reads.value, 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".tmp-\(getpid())") }
        XCTAssertEqual(leftovers, [])
    }
}

/// A flag and a counter shared with reader threads.
final class ManagedAtomic: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    private var count = 0
    var isSet: Bool { lock.withLock { flag } }
    var value: Int { lock.withLock { count } }
    func set() { lock.withLock { flag = true } }
    func increment() { lock.withLock { count += 1 } }
}
