import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// A connection hands out a compiled statement again once it is let go (`Database.giveBack`):
/// a statement in use is never handed out twice (a query of the same text inside another's
/// rows gets its own), one let go mid-way or after an error starts afresh, its bindings gone,
/// and the pool stays bounded whatever texts come.
final class StatementReuseTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: Database!

    override func setUpWithError() throws {
        directory = TemporaryDirectory("feeds-statements")
        db = try Database(path: directory.file("t.db").path)
        try db.execute("CREATE TABLE t (n INTEGER NOT NULL); INSERT INTO t VALUES (1), (2), (3)")
    }

    override func tearDown() {
        db = nil
        directory = nil
    }

    let sql = "SELECT n FROM t WHERE n >= ?1 ORDER BY n"

    func testAQueryOfTheSameTextInsideAnothersRowsGetsItsOwnStatement() throws {
        var pairs: [String] = []
        try db.prepare(sql).each([.integer(2)]) { outer in
            let inner = try db.prepare(sql).query([.integer(1)]) { $0.int64(0) }
            pairs.append("\(outer.int64(0)):" + inner.map(String.init).joined(separator: ","))
        }
        XCTAssertEqual(pairs, ["2:1,2,3", "3:1,2,3"])
        XCTAssertEqual(try db.prepare(sql).query([.integer(3)]) { $0.int64(0) }, [3])
    }

    func testAStatementLetGoMidWayOrAfterAnErrorStartsAfresh() throws {
        struct Stop: Error {}
        XCTAssertThrowsError(try db.prepare(sql).each([.integer(1)]) { _ in throw Stop() })
        XCTAssertEqual(try db.prepare(sql).query([.integer(1)]) { $0.int64(0) }, [1, 2, 3])
        // A failed step (a constraint), then the same text again: it runs and writes.
        let insert = "INSERT INTO t VALUES (?1)"
        XCTAssertThrowsError(try db.prepare(insert).execute([.null]))
        try db.prepare(insert).execute([.integer(4)])
        XCTAssertEqual(try db.prepare("SELECT count(*) FROM t").queryOne { $0.int64(0) }, 4)
        // The schema changed under a kept statement: SQLite compiles it again.
        let count = "SELECT * FROM t"
        XCTAssertEqual(try db.prepare(count).query([]) { _ in 1 }.count, 4)
        try db.execute("ALTER TABLE t ADD COLUMN m INTEGER NOT NULL DEFAULT 7")
        XCTAssertEqual(try db.prepare(count).queryOne { $0.int64(1) }, 7)
    }

    func testThePoolStaysBoundedAndKeepsServing() throws {
        for i in 0..<(Database.maxIdleStatements * 3) {
            XCTAssertEqual(try db.prepare("SELECT \(i)").queryOne { $0.int64(0) }, Int64(i))
        }
        for _ in 0..<3 { XCTAssertEqual(try db.prepare(sql).query([.integer(2)]) { $0.int64(0) }, [2, 3]) }
        XCTAssertLessThanOrEqual(db.idleStatements, Database.maxIdleStatements)
    }
}
