import XCTest
import TestSupport
@testable import Storage

/// A contract test of the two backends: a new SQLite file and a new PostgreSQL database per
/// test, to be filled the same way and compared.
class TwoBackendsTestCase: PostgresTestCase {
    var directory: TemporaryDirectory!
    var sqlite: FeedStore!
    var postgres: PostgresStore!

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = TemporaryDirectory("feeds-\(type(of: self))")
        sqlite = try FeedStore(path: directory.file("feeds.db").path)
        postgres = try PostgresStore(address: databaseURL)
    }

    override func tearDown() {
        sqlite = nil
        postgres = nil
        directory = nil
        super.tearDown()
    }
}
