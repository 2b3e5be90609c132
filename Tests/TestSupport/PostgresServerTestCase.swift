import XCTest

/// One real PostgreSQL per test class (about a second to start), stopped with the class: the one
/// copy of this set-up for every test target (the store's, the CLI's, the digest's and the image
/// cache's tests). A class that can subclass `PostgresServerTestCase` does; one with another base
/// calls these from its own class set-up and tear-down.
public enum ClassServers {
    nonisolated(unsafe) private static var servers: [ObjectIdentifier: Result<PostgresServer, Error>] = [:]

    public static func start(for type: AnyClass) {
        servers[ObjectIdentifier(type)] = Result { try PostgresServer() }
    }

    public static func stop(for type: AnyClass) {
        if case .success(let server) = servers.removeValue(forKey: ObjectIdentifier(type)) { server.stop() }
    }

    /// The server of `type`, or why there is none.
    public static func server(for type: AnyClass) throws -> PostgresServer {
        switch servers[ObjectIdentifier(type)] {
        case .success(let server)?: return server
        // Only a person's own machine without the package; under root (`make test`, CI) the
        // Makefile installed it, so its absence is a failure.
        case .failure(PostgresServer.Failure.notInstalled(let message))? where !PostgresServer.isRoot: throw XCTSkip(message)
        case .failure(let error)?: throw error
        case nil: throw PostgresServer.Failure.failed(step: "class set-up", output: "no server was started for \(type)")
        }
    }
}

/// A test class against a real PostgreSQL: its server (`ClassServers`), a new database per test
/// from `server().makeDatabase()`.
open class PostgresServerTestCase: XCTestCase {
    override open class func setUp() {
        super.setUp()
        // The shared bases (named ...TestCase) start none: only the classes with tests do.
        guard !String(describing: self).hasSuffix("TestCase") else { return }
        ClassServers.start(for: self)
    }

    override open class func tearDown() {
        ClassServers.stop(for: self)
        super.tearDown()
    }

    /// This class's server.
    public func server() throws -> PostgresServer { try ClassServers.server(for: type(of: self)) }
}
