import XCTest
import TestSupport
@testable import Storage

/// Sessions with a real server: what a person sees when the address, the server or a
/// statement is wrong, and that values go in as bound parameters.
final class PostgresConnectionTests: PostgresTestCase {
    func testOpensASessionAndBindsParametersAsValues() throws {
        let connection = try PGConnection(address: databaseURL)
        // Text that would break out of a spliced statement is just a value when bound.
        let hostile = "'); DROP TABLE x; --"
        let result = try connection.execute("SELECT $1::text, $2::bigint, $3::text IS NULL", [.text(hostile), .integer(-42), .null],
                                            context: "echoing values")
        XCTAssertEqual(result.string(0, 0), hostile)
        XCTAssertEqual(try result.int64(0, 1), -42)
        XCTAssertEqual(try result.bool(0, 2), true)
        XCTAssertTrue(connection.server.hasPrefix("postgresql://feeds@127.0.0.1:"), connection.server)
    }

    func testTextWithNULIsKeptWithAReplacementCharacter() throws {
        let connection = try PGConnection(address: databaseURL)
        let result = try connection.execute("SELECT $1::text", [.text("a\u{0}b")], context: "echoing")
        XCTAssertEqual(result.string(0, 0), "a\u{FFFD}b")
    }

    func testNoServerOnThePortIsACannotConnectNamingTheServer() throws {
        // The server's own port with nothing on it once it is stopped is racy; port 1 on
        // loopback never has a PostgreSQL.
        XCTAssertThrowsError(try PGConnection(address: "postgresql://feeds@127.0.0.1:1/feeds?connect_timeout=5")) { error in
            guard case PostgresError.cannotConnect(let server, let reason)? = error as? PostgresError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(server, "postgresql://feeds@127.0.0.1:1/feeds")
            XCTAssertTrue(reason.contains("refused"), reason)
            XCTAssertFalse(error.localizedDescription.contains("\n"), error.localizedDescription)
            XCTAssertTrue(error.localizedDescription.hasPrefix("cannot connect to PostgreSQL postgresql://feeds@127.0.0.1:1/feeds: "),
                          error.localizedDescription)
        }
    }

    func testAMissingDatabaseIsNamed() throws {
        let url = try server().url(database: "no_such_database")
        XCTAssertThrowsError(try PGConnection(address: url)) { error in
            XCTAssertTrue(error.localizedDescription.contains("no_such_database"), error.localizedDescription)
            XCTAssertTrue(error.localizedDescription.contains("does not exist"), error.localizedDescription)
        }
    }

    func testNoMessageRepeatsThePassword() throws {
        let secret = "s3cr%zzet"
        // A bad percent escape in the password, a wrong port, a key=value string: libpq's
        // messages echo parts of the address; the password never shows.
        let addresses = [
            "postgresql://feeds:\(secret)@127.0.0.1:1/feeds",
            "postgresql://feeds:\(secret)@127.0.0.1:1/feeds?bogus_option=1",
            "host=127.0.0.1 port=1 user=feeds password=\(secret) dbname=feeds",
            "host=127.0.0.1 port=1 user=feeds password='\(secret)' dbname",
            "postgresql://feeds@127.0.0.1:1/feeds?password=\(secret)&sslmode=nonsense",
        ]
        for address in addresses {
            XCTAssertThrowsError(try PGConnection(address: address), address) { error in
                let message = error.localizedDescription
                XCTAssertFalse(message.contains(secret), message)
                XCTAssertFalse(message.contains("s3cr"), message)
                XCTAssertFalse(message.isEmpty)
            }
        }
    }

    func testAMalformedAddressIsABadAddress() throws {
        XCTAssertThrowsError(try PGConnection(address: "postgresql://feeds@127.0.0.1:1/feeds?bogus_option=1")) { error in
            guard case PostgresError.badAddress(let reason)? = error as? PostgresError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("bogus_option"), reason)
        }
    }

    func testAStatementTheServerRefusesNamesItsStateAndWhatWasBeingDone() throws {
        let connection = try PGConnection(address: databaseURL)
        XCTAssertThrowsError(try connection.execute("SELECT * FROM no_such_table", context: "reading the missing table")) { error in
            guard case PostgresError.server(_, let state, let message, let context)? = error as? PostgresError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(state, "42P01")
            XCTAssertTrue(message.contains("no_such_table"), message)
            XCTAssertEqual(context, "reading the missing table")
        }
        // The session is still usable after a refused statement.
        XCTAssertEqual(try connection.execute("SELECT 1", context: "after").int(0, 0), 1)
    }

    func testAConstraintViolationIsTyped() throws {
        let connection = try PGConnection(address: databaseURL)
        try connection.executeScript("CREATE TABLE t (v integer NOT NULL CHECK (v > 0))", context: "creating t")
        XCTAssertThrowsError(try connection.execute("INSERT INTO t VALUES ($1)", [.integer(-1)], context: "inserting")) { error in
            guard case PostgresError.constraintViolated? = error as? PostgresError else { return XCTFail("\(error)") }
        }
    }

    func testATransactionRollsBackWhenItsBodyThrows() throws {
        let connection = try PGConnection(address: databaseURL)
        try connection.executeScript("CREATE TABLE t (v integer)", context: "creating t")
        struct Stop: Error {}
        XCTAssertThrowsError(try connection.transaction("inserting") {
            try connection.execute("INSERT INTO t VALUES (1)", context: "inserting")
            throw Stop()
        })
        XCTAssertEqual(try connection.execute("SELECT count(*) FROM t", context: "counting").int(0, 0), 0)
        _ = try connection.transaction("inserting") { try connection.execute("INSERT INTO t VALUES (2)", context: "inserting") }
        XCTAssertEqual(try connection.execute("SELECT count(*) FROM t", context: "counting").int(0, 0), 1)
    }

    func testAServerThatGoesAwayIsAConnectionLost() throws {
        let connection = try PGConnection(address: databaseURL)
        let other = try PGConnection(address: databaseURL)
        let pid = try connection.execute("SELECT pg_backend_pid()", context: "asking the pid").int(0, 0)
        try other.execute("SELECT pg_terminate_backend($1::int)", [.integer(Int64(pid))], context: "terminating")
        XCTAssertThrowsError(try connection.execute("SELECT 1", context: "asking again")) { error in
            guard case PostgresError.connectionLost(_, _, let context)? = error as? PostgresError else { return XCTFail("\(error)") }
            XCTAssertEqual(context, "asking again")
        }
    }
}
