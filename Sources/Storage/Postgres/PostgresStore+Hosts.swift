import FeedModel

// Per-host politeness across workers on PostgreSQL.
extension PostgresStore: SharedHostState {
    /// One transaction: the host's row locked first (`FOR UPDATE`), so workers asking for the
    /// same host take turns and the count of its slots cannot be read by two of them at once;
    /// expired slots are dropped, then a slot is added if fewer than `limit` remain.
    public func acquireHostSlot(host: String, limit: Int, worker: String, leaseSeconds: Int, now: Timestamp) throws -> HostSlotGrant {
        precondition(!worker.isEmpty && !host.isEmpty, "Storage: a host slot needs a host and a worker")
        precondition(leaseSeconds > 0, "Storage: a host slot must last")
        let (until, overflow) = now.secondsSince1970.addingReportingOverflow(Int64(leaseSeconds))
        precondition(!overflow, "Storage: the slot's deadline overflows")
        let context = "taking a request slot of \(host)"
        return try connection.transaction(context) {
            try connection.execute("INSERT INTO hosts (host) VALUES ($1) ON CONFLICT (host) DO NOTHING", [.text(host)], context: context)
            let row = try connection.execute("SELECT backoff_until FROM hosts WHERE host = $1 FOR UPDATE", [.text(host)], context: context)
            if let backoff = try row.optionalTimestamp(0, 0), backoff > now { return .backingOff(until: backoff) }
            try connection.execute("DELETE FROM host_slots WHERE host = $1 AND until <= $2", [.text(host), SQLValue(now)], context: context)
            let held = try connection.execute("SELECT count(*) FROM host_slots WHERE host = $1", [.text(host)], context: context).int(0, 0)
            guard held < max(1, limit) else { return .full(held: held) }
            let slot = try connection.execute("INSERT INTO host_slots (host, worker, until) VALUES ($1, $2, $3) RETURNING id",
                                              [.text(host), .text(worker), .integer(until)], context: context)
            return .granted(HostSlot(id: try slot.int64(0, 0), host: host))
        }
    }

    public func releaseHostSlot(_ slot: HostSlot) throws {
        try connection.execute("DELETE FROM host_slots WHERE id = $1", [.integer(slot.id)], context: "giving back a slot of \(slot.host)")
    }

    public func recordHostBackoff(host: String, until: Timestamp) throws {
        try connection.execute("""
            INSERT INTO hosts (host, backoff_until) VALUES ($1, $2)
            ON CONFLICT (host) DO UPDATE SET backoff_until = greatest(hosts.backoff_until, excluded.backoff_until)
            """, [.text(host), SQLValue(until)], context: "recording the backoff of \(host)")
    }

    public func hostState(host: String, now: Timestamp) throws -> HostState {
        let result = try connection.execute("""
            SELECT (SELECT backoff_until FROM hosts WHERE host = $1),
                   (SELECT count(*) FROM host_slots WHERE host = $1 AND until > $2)
            """, [.text(host), SQLValue(now)], context: "reading the state of \(host)")
        return HostState(backoffUntil: try result.optionalTimestamp(0, 0), liveSlots: try result.int(0, 1))
    }
}
