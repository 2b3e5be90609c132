import XCTest
import Foundation
import FeedModel
import TestSupport
@testable import Storage

/// Two connections on one file stand in for two `feeds` processes (cron update and a reader
/// marking cards read): SQLite's locks are per connection, so the behaviour is the same.
final class ConcurrencyTests: XCTestCase {
    func testConcurrentWritersBothSucceed() throws {
        let directory = TemporaryDirectory("feeds-storage")
        let path = directory.file("feeds.db").path
        let setup = try FeedStore(path: path)
        let sources = try (0..<2).map { try setup.upsertSource(SourceConfiguration(url: "https://\($0).example/feed"),
                                                                 now: Timestamp(secondsSince1970: 0)) }
        let errors = Locked<[String]>([])
        let rounds = 40
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            do {
                let store = try FeedStore(path: path)  // its own connection, on its own thread
                for round in 0..<rounds {
                    let now = Timestamp(secondsSince1970: Int64(round + 1))
                    let cards = (0..<20).map { Card(id: "w\(worker)-r\(round)-\($0)", title: "card") }
                    try store.saveFetch(sourceID: sources[worker], feed: FeedInfo(), cards: cards,
                                        validators: CacheValidators(), now: now, nextDue: nil)
                    // A read-then-write in the same transaction is where deferred locking fails.
                    try store.markRead(.source(sources[1 - worker]))
                }
            } catch {
                errors.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        XCTAssertEqual(errors.withLock { $0 }, [])
        XCTAssertEqual(try setup.sources().map(\.cardCount), [rounds * 20, rounds * 20])
    }

    /// Two commands started together on a machine without a database: one migrates, the other
    /// waits for it and then finds nothing left to do.
    func testConcurrentFirstOpensBothSucceed() throws {
        let directory = TemporaryDirectory("feeds-storage")
        let path = directory.file("new/feeds.db").path
        let errors = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            do {
                let store = try FeedStore(path: path)
                try store.upsertSource(SourceConfiguration(url: "https://\(worker).example/feed"),
                                       now: Timestamp(secondsSince1970: 0))
            } catch {
                errors.withLock { $0.append("opener \(worker): \(error)") }
            }
        }
        XCTAssertEqual(errors.withLock { $0 }, [])
        let store = try FeedStore(path: path)
        XCTAssertEqual(try store.databaseSchemaVersion(), FeedStore.schemaVersion)
        XCTAssertEqual(try store.sources().count, 4)
    }

    /// The pattern that fails with deferred transactions: read, then write based on what was read.
    /// With `BEGIN IMMEDIATE` the second writer waits for the lock instead of failing at once.
    func testReadThenWriteTransactionsDoNotFailUnderContention() throws {
        let directory = TemporaryDirectory("feeds-storage")
        let path = directory.file("feeds.db").path
        _ = try FeedStore(path: path)
        let errors = Locked<[String]>([])
        let rounds = 200
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            do {
                let db = try Database(path: path)
                let count = try db.prepare("SELECT count(*) FROM sources")
                let insert = try db.prepare("INSERT INTO sources (url, kind, created_at) VALUES (?1, 'feed', 0)")
                for round in 0..<rounds {
                    try db.writeTransaction {
                        let before = try count.queryOne { $0.int(0) } ?? 0
                        try insert.execute([.text("https://\(worker).example/\(round)?after=\(before)")])
                    }
                }
            } catch {
                errors.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        XCTAssertEqual(errors.withLock { $0 }, [])
        let check = try Database(path: path)
        XCTAssertEqual(try check.prepare("SELECT count(*) FROM sources").queryOne { $0.int(0) }, 2 * rounds)
    }

    func testWriterWaitsForAnotherConnectionsTransaction() throws {
        let directory = TemporaryDirectory("feeds-storage")
        let path = directory.file("feeds.db").path
        let store = try FeedStore(path: path)
        let source = try store.upsertSource(SourceConfiguration(url: "https://example.org/feed"),
                                            now: Timestamp(secondsSince1970: 0))
        let holder = try Database(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        try holder.execute("UPDATE sources SET name = 'held'")

        let outcome = Locked<String?>(nil)
        let writerDone = DispatchSemaphore(value: 0)
        let writer = Thread {
            do {
                let other = try FeedStore(path: path)
                let summary = try other.saveFetch(sourceID: source, feed: FeedInfo(), cards: [Card(id: "a")],
                                                  validators: CacheValidators(), now: Timestamp(secondsSince1970: 1),
                                                  nextDue: nil)
                outcome.withLock { $0 = "saved \(summary.new)" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
            writerDone.signal()
        }
        writer.start()
        XCTAssertEqual(writerDone.wait(timeout: .now() + 0.5), .timedOut, "the writer must wait for the lock")
        try holder.execute("COMMIT")
        XCTAssertEqual(writerDone.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(outcome.withLock { $0 }, "saved 1")
        XCTAssertEqual(try store.source(id: source)?.configuration.name, "held")
    }
}
