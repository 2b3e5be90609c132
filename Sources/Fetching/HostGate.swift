/// A say over when a transfer to a host may start, beyond the fetcher's own per-host limit:
/// how workers in several processes share a host's politeness (request slots and backoff held
/// elsewhere, in a database the fetcher knows nothing of). Asked on the fetcher's thread
/// before each transfer to an http(s) host; every `.start` is matched by one `finished` call
/// for that host when the transfer ends, whatever its outcome.
public protocol HostGate: AnyObject {
    func admission(host: String) -> HostAdmission
    func finished(host: String)
}

public enum HostAdmission: Sendable, Equatable {
    /// Start it now (a slot is taken: `finished` gives it back).
    case start
    /// Not now (the host's slots are all held): asked again soon, the others go on.
    case wait
    /// Not in this run: the host asked every client to pause for this many more seconds; the
    /// request fails with `FetchError.hostBackingOff`.
    case backingOff(seconds: Int64)
}

extension Fetcher {
    /// The name a request's host counts under (lower case, no port), as `HostGate` is asked
    /// about it; nil for files and addresses that are not fetchable.
    public static func hostKey(of url: String) -> String? {
        let request = FetchRequest(id: 0, url: url)
        guard case .success(let (host, isFile)) = check(request), !isFile else { return nil }
        return host
    }
}
