import FeedModel

/// Per-host politeness as state every worker shares (PostgreSQL): a host's request slots
/// across all workers, and the moment before which none may ask it again (429 or 503 with
/// Retry-After). N workers then never send a host more requests at once than one worker would:
/// each worker still adapts its own pace (`HostConcurrency` in Fetching), within the slots.
///
/// A slot is a lease: it expires at its deadline, so a worker killed holding slots never
/// blocks a host for longer than that. Hosts are named as the caller's URL policy names them
/// (lower-case host, port when not the scheme's own); the store compares them as given.
public protocol SharedHostState: AnyObject {
    /// A request slot for `host`, when it is not backing off at `now` and all workers together
    /// hold fewer than `limit` live slots of it (a limit below 1 counts as 1); it lasts until
    /// `now + leaseSeconds` unless released first.
    func acquireHostSlot(host: String, limit: Int, worker: String, leaseSeconds: Int, now: Timestamp) throws -> HostSlotGrant
    /// Gives the slot back (nothing when it expired and was taken over already): at once, or
    /// with the store's next statement about hosts or reading marks (a round trip saved per
    /// request), at the latest at `flushReleasedHostSlots`.
    func releaseHostSlot(_ slot: HostSlot) throws
    /// Every slot `releaseHostSlot` was given and has not yet given back, given back now.
    func flushReleasedHostSlots() throws
    /// No worker sends `host` a request before `until`; a later moment already recorded stays.
    func recordHostBackoff(host: String, until: Timestamp) throws
    /// When the host's backoff ends (nil: none recorded) and its slots live at `now`.
    func hostState(host: String, now: Timestamp) throws -> HostState
}

/// One request's right to talk to a host.
public struct HostSlot: Hashable, Sendable {
    public var id: Int64
    public var host: String
}

/// The answer to `acquireHostSlot`.
public enum HostSlotGrant: Hashable, Sendable {
    case granted(HostSlot)
    /// All `limit` slots are held (by this or other workers): ask again when one ends.
    case full(held: Int)
    /// The host asked for a pause until this moment.
    case backingOff(until: Timestamp)
}

public struct HostState: Hashable, Sendable {
    public var backoffUntil: Timestamp?
    public var liveSlots: Int
}
