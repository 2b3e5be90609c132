import CCurl

/// Totals over the life of a Fetcher.
public struct FetchStatistics: Sendable, Hashable {
    /// Transfers that ended in a response (any status).
    public var responses = 0
    /// Transfers that ended in a FetchError.
    public var failures = 0
    /// Body bytes received on the wire, before decoding.
    public var wireBytes = 0
    /// Body bytes after decoding that curl handed over (a refused chunk included).
    public var decodedBytes = 0
    /// Connections opened; fewer than transfers means connections were reused.
    public var connectionsOpened = 0
    /// The most transfers that ran at once.
    public var peakInFlight = 0

    public init() {}
}

/// Fetches many URLs concurrently over one curl multi handle, politely: at most
/// `maxInFlight` transfers at once and `maxPerHost` per host name, each started only when a slot
/// is free (so its timeouts never count time spent waiting), connections and DNS answers reused.
///
/// Not thread-safe: make it, use it and release it on one thread.
public final class Fetcher {
    public let limits: FetchLimits
    public private(set) var statistics = FetchStatistics()
    private let multi: CurlMulti
    private var busy = false

    public init(limits: FetchLimits) throws(FetchError) {
        try ensureCurlGlobalInit()
        self.limits = limits
        multi = try CurlMulti()
    }

    /// Fetches every request and calls `onComplete` on the calling thread as each one finishes
    /// (in completion order), while the others keep downloading. Returns when all are done.
    /// HTTP statuses (304, 404, 429, 500, ...) are `.success`; transport failures are `.failure`.
    public func fetchAll(_ requests: [FetchRequest],
                         onComplete: (FetchRequest, Result<FetchResponse, FetchError>) -> Void) {
        precondition(!busy, "Fetcher.fetchAll is not reentrant")
        busy = true
        defer { busy = false }

        let started = ContinuousClock.now
        let maxInFlight = max(1, limits.maxInFlight)
        let maxPerHost = max(1, limits.maxPerHost)
        var finished: [(FetchRequest, Result<FetchResponse, FetchError>)] = []
        var waiting: [(request: FetchRequest, host: String, isFile: Bool)] = []
        var inFlight: [UnsafeMutableRawPointer: EasyTransfer] = [:]
        var perHost: [String: Int] = [:]

        for request in requests {
            switch Self.check(request) {
            case .success(let (host, isFile)): waiting.append((request, host, isFile))
            case .failure(let error): finished.append((request, .failure(error)))
            }
        }

        /// Starts waiting requests, in order, while there are free slots; a request for a busy
        /// host is skipped (it keeps its place) so other hosts proceed.
        func startWaiting() {
            var i = 0
            while i < waiting.count && inFlight.count < maxInFlight {
                let (request, host, isFile) = waiting[i]
                guard perHost[host, default: 0] < maxPerHost else {
                    i += 1
                    continue
                }
                waiting.remove(at: i)
                let queued = (ContinuousClock.now - started).secondsDouble
                do throws(FetchError) {
                    let transfer = try EasyTransfer(request: request, hostKey: host, isFile: isFile,
                                                    limits: limits, queuedSeconds: queued)
                    try transfer.configure(limits: limits)
                    try multi.add(transfer)
                    inFlight[transfer.handle] = transfer
                    perHost[host, default: 0] += 1
                    statistics.peakInFlight = max(statistics.peakInFlight, inFlight.count)
                } catch {
                    finished.append((request, .failure(error)))
                }
            }
        }

        func complete(_ transfer: EasyTransfer, _ result: Result<FetchResponse, FetchError>) {
            inFlight[transfer.handle] = nil
            perHost[transfer.hostKey, default: 1] -= 1
            statistics.wireBytes += transfer.wireBytesReceived
            statistics.decodedBytes += transfer.decodedBytesSeen
            statistics.connectionsOpened += transfer.connectionsOpened
            finished.append((transfer.request, result))
        }

        /// The multi handle itself failed: nothing can go on, every request gets the error.
        func abandonAll(_ error: FetchError) {
            for transfer in Array(inFlight.values) {
                try? multi.remove(transfer)
                complete(transfer, .failure(error))
            }
            finished += waiting.map { ($0.request, .failure(error)) }
            waiting.removeAll()
        }

        var slotsFreed = true
        while true {
            if slotsFreed {
                startWaiting()
                slotsFreed = false
            }
            do throws(FetchError) {
                if !finished.isEmpty {
                    // Get new transfers going before the caller spends time on the results.
                    if !inFlight.isEmpty { try multi.perform() }
                    for (request, result) in finished {
                        if case .success = result { statistics.responses += 1 } else { statistics.failures += 1 }
                        onComplete(request, result)
                    }
                    finished.removeAll()
                    continue
                }
                if inFlight.isEmpty { break }  // and so nothing is waiting either
                try multi.perform()
                while let (easy, code) = multi.nextFinished() {
                    guard let transfer = inFlight[easy] else { continue }
                    try multi.remove(transfer)
                    complete(transfer, transfer.result(code, limits: limits))
                    slotsFreed = true
                }
                if finished.isEmpty { try multi.poll(milliseconds: 1000) }
            } catch {
                abandonAll(error)
                slotsFreed = true
            }
        }
    }

    /// One request, synchronously.
    public func fetch(_ request: FetchRequest) -> Result<FetchResponse, FetchError> {
        var outcome: Result<FetchResponse, FetchError> = .failure(.setup(call: "fetch", detail: "no result"))
        fetchAll([request]) { _, result in outcome = result }
        return outcome
    }

    /// The host name a request counts against (lowercased), or why it cannot be fetched at all.
    static func check(_ request: FetchRequest) -> Result<(host: String, isFile: Bool), FetchError> {
        let parts = urlParts(request.url, [CURLUPART_SCHEME, CURLUPART_HOST])
        guard let scheme = parts?[0]?.lowercased() else { return .failure(.invalidURL(request.url)) }
        switch scheme {
        case "http", "https":
            guard let host = parts?[1], !host.isEmpty else { return .failure(.invalidURL(request.url)) }
            return .success((host.lowercased(), false))
        case "file" where request.allowFile:
            return .success(("file:", true))
        default:
            return .failure(.unsupportedScheme(url: request.url))
        }
    }
}
