import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// A test class of the PostgreSQL store: one real server per class (started by the first
/// test's class set-up, about a second), one new database per test.
class PostgresTestCase: XCTestCase {
    /// Servers by test class, started in `setUp()` of the class and stopped in its `tearDown()`.
    nonisolated(unsafe) private static var servers: [ObjectIdentifier: Result<PostgresServer, Error>] = [:]

    /// The database of this test.
    var databaseURL: String!

    override class func setUp() {
        super.setUp()
        guard self != PostgresTestCase.self else { return }
        servers[ObjectIdentifier(self)] = Result { try PostgresServer() }
    }

    override class func tearDown() {
        if case .success(let server) = servers.removeValue(forKey: ObjectIdentifier(self)) { server.stop() }
        super.tearDown()
    }

    var server: PostgresServer {
        get throws {
            switch Self.servers[ObjectIdentifier(type(of: self))] {
            case .success(let server)?: return server
            case .failure(PostgresServer.Failure.notInstalled(let message))? where !PostgresServer.isRoot:
                // Only a person's own machine without the package; under root (`make test`, CI)
                // the Makefile installed it, so its absence is a failure.
                throw XCTSkip(message)
            case .failure(let error)?: throw error
            case nil: throw PostgresServer.Failure.failed(step: "class set-up", output: "no server was started for \(type(of: self))")
            }
        }
    }

    override func setUpWithError() throws {
        databaseURL = try server.makeDatabase()
    }

    /// A moment `days` days (and `seconds`) after 2024-01-01T00:00:00Z.
    func t(_ days: Int, _ seconds: Int = 0) -> Timestamp {
        Timestamp(secondsSince1970: 1_704_067_200 + Int64(days) * 86_400 + Int64(seconds))
    }
}
