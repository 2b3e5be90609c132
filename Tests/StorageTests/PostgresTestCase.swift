import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// A test class of the PostgreSQL store: one real server per class (`PostgresServerTestCase`),
/// one new database per test.
class PostgresTestCase: PostgresServerTestCase {
    /// The database of this test.
    var databaseURL: String!

    override func setUpWithError() throws {
        databaseURL = try server().makeDatabase()
    }

    /// A moment `days` days (and `seconds`) after 2024-01-01T00:00:00Z.
    func t(_ days: Int, _ seconds: Int = 0) -> Timestamp {
        Timestamp(secondsSince1970: 1_704_067_200 + Int64(days) * 86_400 + Int64(seconds))
    }
}
