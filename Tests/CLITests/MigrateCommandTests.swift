import XCTest
import TestSupport

/// `feeds migrate --to postgres://...`: a home's database copied into a real PostgreSQL, as a
/// person runs it.
final class MigrateCommandTests: PostgresCLITestCase {
    func testCopiesTheHomeAndRefusesToCopyTwice() throws {
        let home = try CardHome(count: 12)
        _ = try FeedsCommand.run(["--home", home.path, "mark", "read", "--all"])
        let database = try server().makeDatabase()
        let copy = try FeedsCommand.run(["--home", home.path, "migrate", "--to", database])
        XCTAssertEqual(copy.status, 0, copy.stderr)
        XCTAssertEqual(copy.stderr, "")
        XCTAssertTrue(copy.stdout.hasPrefix("copied 1 source, 12 cards (0 unread), 0 image records, 0 page previews from \(home.path)/feeds.db to postgresql://feeds@127.0.0.1:"),
                      copy.stdout)
        let again = try FeedsCommand.run(["--home", home.path, "migrate", "--to", database])
        XCTAssertEqual(again.status, 2)
        XCTAssertTrue(again.stderr.hasPrefix("feeds: PostgreSQL postgresql://feeds@127.0.0.1:"), again.stderr)
        XCTAssertTrue(again.stderr.contains("already has 1 source; copy into an empty database"), again.stderr)
    }

    func testUsageAndConnectionErrorsAreOneLineAndExitTwo() throws {
        let home = try CardHome(count: 1)
        let cases: [([String], String)] = [
            (["migrate"], "feeds: migrate needs --to postgres://user@host:port/database; see 'feeds migrate --help'\n"),
            (["migrate", "--to", "postgresql://feeds@127.0.0.1:1/x", "--from", "feeds.db"],
             "feeds: --from takes sqlite:PATH (got feeds.db); see 'feeds migrate --help'\n"),
            (["migrate", "--to", "postgresql://feeds@127.0.0.1:1/x", "--from", "sqlite:/nonexistent/feeds.db"],
             "feeds: no database at /nonexistent/feeds.db; see 'feeds migrate --help'\n"),
        ]
        for (arguments, expected) in cases {
            let result = try FeedsCommand.run(["--home", home.path] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertEqual(result.stderr, expected, "\(arguments)")
        }
        let refused = try FeedsCommand.run(["--home", home.path, "migrate", "--to", "postgresql://feeds:hunter2@127.0.0.1:1/x"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.hasPrefix("feeds: cannot connect to PostgreSQL postgresql://feeds@127.0.0.1:1/x: "), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("hunter2"), refused.stderr)
        XCTAssertEqual(refused.stderr.filter { $0 == "\n" }.count, 1, refused.stderr)
    }
}
