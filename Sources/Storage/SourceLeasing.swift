import FeedModel

/// A store several update workers share: each takes due sources under a lease (a deadline
/// after which another worker may take them, so a worker killed with `kill -9` loses nothing)
/// and gives them back when it has recorded their outcome. The database is the coordination:
/// no two live leases ever hold the same source.
public protocol SourceLeasing: UpdateStore {
    /// Up to `batch` sources due at `now` that no live lease holds (a lease whose deadline is
    /// at or before `now` has expired), now leased to `worker` until `now + leaseSeconds`:
    /// the longest waiting first. Two workers asking at the same moment get different sources.
    func leaseDueSources(batch: Int, leaseSeconds: Int, worker: String, now: Timestamp) throws -> [StoredSource]
    /// Gives back `worker`'s leases of `sources` (all of its leases when nil); how many it held.
    @discardableResult
    func releaseLeases(worker: String, sources: [SourceID]?) throws -> Int
    /// The first moment after `now` at which `leaseDueSources` could return a source (its due
    /// time, or the end of the lease holding it, whichever is later): what an idle worker
    /// sleeps until. Nil when no enabled source exists; `now` itself when one is leasable now.
    func nextLeasableAt(now: Timestamp) throws -> Timestamp?
}

/// A source's lease: who holds it and until when.
public struct SourceLease: Hashable, Sendable {
    public var worker: String
    public var until: Timestamp

    public init(worker: String, until: Timestamp) {
        self.worker = worker
        self.until = until
    }
}
