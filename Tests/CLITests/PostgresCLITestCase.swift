import TestSupport
import XCTest

/// A class of CLI tests against a real PostgreSQL: one server per class (started in the class's
/// set-up, about a second, stopped in its tear-down), a new database per test (`server()`).
class PostgresCLITestCase: XCTestCase {
    /// Servers by test class.
    nonisolated(unsafe) private static var servers: [ObjectIdentifier: Result<PostgresServer, Error>] = [:]

    override class func setUp() {
        super.setUp()
        guard self != PostgresCLITestCase.self else { return }
        servers[ObjectIdentifier(self)] = Result { try PostgresServer() }
    }

    override class func tearDown() {
        if case .success(let server) = servers.removeValue(forKey: ObjectIdentifier(self)) { server.stop() }
        super.tearDown()
    }

    func server() throws -> PostgresServer {
        switch Self.servers[ObjectIdentifier(type(of: self))] {
        case .success(let server)?: return server
        // Only a person's own machine without the package; under root (`make test`, CI) the
        // Makefile installed it, so its absence is a failure.
        case .failure(PostgresServer.Failure.notInstalled(let message))? where !PostgresServer.isRoot: throw XCTSkip(message)
        case .failure(let error)?: throw error
        case nil: throw PostgresServer.Failure.failed(step: "class set-up", output: "no server was started for \(type(of: self))")
        }
    }
}
