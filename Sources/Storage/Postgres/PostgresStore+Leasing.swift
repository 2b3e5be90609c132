import FeedModel

// Leases: how update workers on any number of machines share the due sources with no
// coordinator but the database.
extension PostgresStore: SourceLeasing {
    /// `SELECT ... FOR UPDATE SKIP LOCKED` picks due, unleased (or expired) sources and the
    /// UPDATE around it writes the lease, in one statement: a row another worker is leasing at
    /// this moment is locked and skipped, and one it has just leased no longer passes the
    /// condition when PostgreSQL reads its new version (READ COMMITTED rechecks a locked row),
    /// so no two live leases ever hold the same source. The same statement reads the leased
    /// sources (as they were before the lease, which changes only lease columns), and counts a
    /// takeover for each source whose expired lease it took while its reading mark was still
    /// set: the worker before stopped while reading it (`leaseTakeovers`).
    public func leaseDueSources(batch: Int, leaseSeconds: Int, worker: String, now: Timestamp) throws -> [StoredSource] {
        precondition(!worker.isEmpty, "Storage: a lease needs a worker's name")
        precondition(leaseSeconds > 0, "Storage: a lease must last")
        let (until, overflow) = now.secondsSince1970.addingReportingOverflow(Int64(leaseSeconds))
        precondition(!overflow, "Storage: the lease's deadline overflows")
        let count = min(max(batch, 1), Self.largestBatch)
        return try PostgresSourceReader.read(connection, with: """
            WITH picked AS (
                SELECT id FROM sources
                WHERE disabled_reason IS NULL AND (next_due_at IS NULL OR next_due_at <= $1)
                  AND (lease_until IS NULL OR lease_until <= $1)
                ORDER BY next_due_at NULLS FIRST, id
                LIMIT $2
                FOR UPDATE SKIP LOCKED
            ), leased AS (
                UPDATE sources s SET lease_owner = $3, lease_until = $4,
                    lease_takeovers = least(s.lease_takeovers, 1000000000)
                        + CASE WHEN s.lease_owner IS NOT NULL AND s.reading_since IS NOT NULL THEN 1 ELSE 0 END
                FROM picked WHERE s.id = picked.id
                RETURNING s.id
            )

            """, where: "s.id IN (SELECT id FROM leased)",
            [SQLValue(now), .integer(Int64(count)), .text(worker), .integer(until)], counts: false,
            context: "leasing due sources for \(worker)")
    }

    /// How many leases of each source in a row ended with no outcome while a worker was reading
    /// it (see `leaseDueSources`); 0 since its last outcome. Only the sources asked for that exist.
    public func leaseTakeovers(of ids: [SourceID]) throws -> [SourceID: Int] {
        guard !ids.isEmpty else { return [:] }
        let result = try connection.execute("SELECT id, lease_takeovers FROM sources WHERE id = ANY($1::bigint[])",
                                            [PGArray.ids(ids)], context: "reading the lease takeovers of \(ids.count) sources")
        var counts: [SourceID: Int] = [:]
        for row in 0..<result.rowCount { counts[SourceID(rawValue: try result.int64(row, 0))] = try result.int(row, 1) }
        return counts
    }

    /// The most sources one lease takes: a worker holds its batch for the whole of a fetch round.
    public static let largestBatch = 10_000

    @discardableResult
    public func releaseLeases(worker: String, sources: [SourceID]? = nil) throws -> Int {
        if let sources {
            return try connection.execute("""
                UPDATE sources SET lease_owner = NULL, lease_until = NULL
                WHERE lease_owner = $1 AND id = ANY($2::bigint[])
                """, [.text(worker), PGArray.ids(sources)], context: "releasing \(worker)'s leases").changedRows
        }
        return try connection.execute("UPDATE sources SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1",
                                      [.text(worker)], context: "releasing \(worker)'s leases").changedRows
    }

    public func nextLeasableAt(now: Timestamp) throws -> Timestamp? {
        // Never scheduled and unleased counts as due at `now`; greatest() ignores NULLs.
        let result = try connection.execute("""
            SELECT min(greatest(coalesce(next_due_at, $1), coalesce(lease_until, $1), $1))
            FROM sources WHERE disabled_reason IS NULL
            """, [SQLValue(now)], context: "finding the next due source")
        return try result.optionalTimestamp(0, 0)
    }

    /// Who holds the source's lease and until when; nil when none does (expired leases count,
    /// until another worker takes the source or the holder releases it).
    public func lease(of id: SourceID) throws -> SourceLease? {
        let result = try connection.execute("SELECT lease_owner, lease_until FROM sources WHERE id = $1 AND lease_owner IS NOT NULL",
                                            [SQLValue(id)], context: "reading the lease of source \(id)")
        guard result.rowCount > 0, let worker = result.string(0, 0) else { return nil }
        return SourceLease(worker: worker, until: try result.timestamp(0, 1))
    }
}
