import FeedModel

/// Each host's starting concurrency for the next `feeds update` (migration 15): the adaptive
/// limit it ended the last run at (see `HostConcurrency` in Fetching), read when a run starts
/// and written when its transfers are done. SQLite only: on PostgreSQL workers share hosts
/// through their slots (`SharedHostState`) and start at the default.
extension FeedStore {
    /// How long a recorded limit is used: a host not heard from for a week starts afresh.
    public static let hostLimitLifetimeSeconds: Int64 = 7 * 86_400

    /// The limits recorded within `hostLimitLifetimeSeconds` before `now`, by host name.
    public func hostStartLimits(now: Timestamp) throws -> [String: Int] {
        let rows = try db.prepare("SELECT host, start_limit FROM host_limits WHERE recorded_at >= ?1")
            .query([Self.hostLimitsCutoff(now)]) { ($0.string(0) ?? "", $0.int(1)) }
        var limits: [String: Int] = [:]
        limits.reserveCapacity(rows.count)
        for (host, limit) in rows where !host.isEmpty { limits[host] = limit }
        return limits
    }

    /// Records `limits` (held within 1...1000, the schema's bounds) as of `now`, and forgets
    /// the hosts not recorded within the lifetime (so the table holds the hosts of recent runs).
    public func recordHostLimits(_ limits: [String: Int], now: Timestamp) throws {
        let upsert = try db.prepare("""
            INSERT INTO host_limits (host, start_limit, recorded_at) VALUES (?1, ?2, ?3)
            ON CONFLICT (host) DO UPDATE SET start_limit = excluded.start_limit, recorded_at = excluded.recorded_at
            """)
        try db.writeTransaction {
            for (host, limit) in limits where !host.isEmpty {
                try upsert.execute([.text(host), SQLValue(Int64(min(1_000, max(1, limit)))), SQLValue(now)])
            }
            try db.prepare("DELETE FROM host_limits WHERE recorded_at < ?1").execute([Self.hostLimitsCutoff(now)])
        }
    }

    /// The oldest time a recorded limit is used at `now` (Int64.min rather than trapping near it).
    private static func hostLimitsCutoff(_ now: Timestamp) -> SQLValue {
        let since = now.secondsSince1970.subtractingReportingOverflow(hostLimitLifetimeSeconds)
        return SQLValue(since.overflow ? Int64.min : since.partialValue)
    }
}
