import FeedModel

// Per-host politeness across workers on PostgreSQL.
extension PostgresStore: SharedHostState {
    /// One statement (`feeds_take_host_slot`, migration 8), which is one transaction: the host's
    /// row locked first (`FOR UPDATE`), so workers asking for the same host take turns and the
    /// count of its slots cannot be read by two of them at once; expired slots are dropped, then
    /// a slot is added if fewer than `limit` remain. The slots given back since the last
    /// statement (`releaseHostSlot`) go in the same call.
    public func acquireHostSlot(host: String, limit: Int, worker: String, leaseSeconds: Int, now: Timestamp) throws -> HostSlotGrant {
        precondition(!worker.isEmpty && !host.isEmpty, "Storage: a host slot needs a host and a worker")
        precondition(leaseSeconds > 0, "Storage: a host slot must last")
        let (until, overflow) = now.secondsSince1970.addingReportingOverflow(Int64(leaseSeconds))
        precondition(!overflow, "Storage: the slot's deadline overflows")
        let releasing = releasedSlots
        let row = try connection.execute("SELECT slot_id, held, backoff_until FROM feeds_take_host_slot($1, $2, $3, $4, $5, $6::bigint[])",
                                         [.text(host), .integer(Int64(limit)), .text(worker), .integer(until), SQLValue(now),
                                          PGArray.integers(releasing)],
                                         context: "taking a request slot of \(host)")
        releasedSlots.removeFirst(min(releasing.count, releasedSlots.count))
        if let backoff = try row.optionalTimestamp(0, 2) { return .backingOff(until: backoff) }
        guard let id = try row.optionalInt64(0, 0) else { return .full(held: try row.int(0, 1)) }
        return .granted(HostSlot(id: id, host: host))
    }

    /// Kept until this session's next statement about hosts or reading marks, which deletes it
    /// on the way (a slot is given back when its transfer ends, and the next statement follows
    /// within milliseconds: taking the next slot, or marking the source read), or until
    /// `flushReleasedHostSlots`. Never later than that: a slot held past its transfer only
    /// makes the host's limit stricter for that moment.
    public func releaseHostSlot(_ slot: HostSlot) throws {
        releasedSlots.append(slot.id)
    }

    public func flushReleasedHostSlots() throws {
        let releasing = releasedSlots
        guard !releasing.isEmpty else { return }
        try connection.execute("DELETE FROM host_slots WHERE id = ANY($1::bigint[])", [PGArray.integers(releasing)],
                               context: "giving back \(releasing.count) request slot\(releasing.count == 1 ? "" : "s")")
        releasedSlots.removeFirst(min(releasing.count, releasedSlots.count))
    }

    public func recordHostBackoff(host: String, until: Timestamp) throws {
        try connection.execute("""
            INSERT INTO hosts (host, backoff_until) VALUES ($1, $2)
            ON CONFLICT (host) DO UPDATE SET backoff_until = greatest(hosts.backoff_until, excluded.backoff_until)
            """, [.text(host), SQLValue(until)], context: "recording the backoff of \(host)")
    }

    public func hostState(host: String, now: Timestamp) throws -> HostState {
        try flushReleasedHostSlots()
        let result = try connection.execute("""
            SELECT (SELECT backoff_until FROM hosts WHERE host = $1),
                   (SELECT count(*) FROM host_slots WHERE host = $1 AND until > $2)
            """, [.text(host), SQLValue(now)], context: "reading the state of \(host)")
        return HostState(backoffUntil: try result.optionalTimestamp(0, 0), liveSlots: try result.int(0, 1))
    }
}
