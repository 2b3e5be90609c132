import Aggregator
import Foundation
import TestSupport
import XCTest

/// The update lock: one holder at a time, released on release (and by the kernel on death).
final class RunLockTests: XCTestCase {
    func testSecondAcquireFailsWhileHeldAndSucceedsAfter() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("data/feeds.lock").path
        var first = try RunLock.acquire(path: path, wait: false)
        XCTAssertNotNil(first, "creates the folder and takes the lock")
        XCTAssertNil(try RunLock.acquire(path: path, wait: false), "flock is per open file: a second open is refused")
        first = nil
        XCTAssertNotNil(try RunLock.acquire(path: path, wait: false))
    }

    func testWaitBlocksUntilReleased() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("feeds.lock").path
        var held = try RunLock.acquire(path: path, wait: false)
        XCTAssertNotNil(held)
        let acquired = expectation(description: "waiting lock acquired")
        let start = Date()
        Thread.detachNewThread {
            if (try? RunLock.acquire(path: path, wait: true)) != nil { acquired.fulfill() }
        }
        Thread.sleep(forTimeInterval: 0.3)
        held = nil
        wait(for: [acquired], timeout: 5)
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 0.25, "it waited for the holder")
    }
}
