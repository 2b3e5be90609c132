import CCurlShim
import Glibc

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
/// `maxInFlight` transfers at once and, per host name, `maxPerHost` (or, with `perHostStart`,
/// an adaptive limit up to it: see `HostConcurrency`), each started only when a slot is free (so
/// its timeouts never count time spent waiting), connections and DNS answers reused.
///
/// Not thread-safe: make it, use it and release it on one thread. Only `waker` may be used
/// from another thread.
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

    /// Wakes the calling thread of `fetchAll` from its wait for network activity, from any
    /// thread, so it runs `whileWaiting` soon (work another thread finished for it, say).
    /// Valid while this Fetcher lives.
    public var waker: FetchWaker { FetchWaker(descriptor: multi.wakeDescriptor) }

    /// Each host's limit as it ended the last `fetchAll` (per-host limit policy, for tests and
    /// statistics).
    public private(set) var hostLimits: [String: HostConcurrency] = [:]
    /// Where a host's adaptive limit starts, by host name, instead of `perHostStart` (held
    /// within 1 and `maxPerHost`): the limit it ended the caller's last run at. Used only with
    /// `perHostStart` (an adaptive limit).
    public var hostStartLimits: [String: Int] = [:]
    /// Asked before each transfer to a host, beyond `maxPerHost` (see `HostGate`); nil: none.
    public var hostGate: (any HostGate)?

    /// Fetches every request and calls `onComplete` on the calling thread as each one finishes
    /// (in completion order), while the others keep downloading. Returns when all are done.
    /// HTTP statuses (304, 404, 429, 500, ...) are `.success`; transport failures are `.failure`.
    /// `whileWaiting` runs on the calling thread at every turn of the transfer loop (after a
    /// `waker` call, at the latest when the next network event or timer is due). `mayStart` is
    /// the caller's backpressure: while it says false no further transfer starts (a consumer
    /// that is behind would only get more bodies to hold in memory); it is asked again at every
    /// turn, and never while nothing runs.
    public func fetchAll(_ requests: [FetchRequest],
                         onComplete: (FetchRequest, Result<FetchResponse, FetchError>) -> Void,
                         whileWaiting: () -> Void = {},
                         mayStart: (FetchLoad) -> Bool = { _ in true }) {
        fetchAll(count: requests.count, request: { requests[$0] }, onComplete: onComplete, whileWaiting: whileWaiting,
                 mayStart: mayStart)
    }

    /// `fetchAll` of `count` requests that `request` makes when asked (by position, 0 ..<
    /// `count`, each asked at least twice: once up front for its host, again when it starts; it
    /// must give the same request every time). A caller with thousands of requests holds its
    /// sources once instead of a list of requests beside them (~100 bytes each).
    /// `address`, when given, is asked up front instead: the URL and `allowFile` of the request
    /// at a position (all the pass up front reads of it, for its host), for a caller that
    /// makes a request from what it reads only when the request starts.
    public func fetchAll(count: Int,
                         address: ((Int) -> (url: String, allowFile: Bool))? = nil,
                         request makeRequest: (Int) -> FetchRequest,
                         onComplete: (FetchRequest, Result<FetchResponse, FetchError>) -> Void,
                         whileWaiting: () -> Void = {},
                         mayStart: (FetchLoad) -> Bool = { _ in true }) {
        precondition(!busy, "Fetcher.fetchAll is not reentrant")
        busy = true
        defer { busy = false }

        let started = ContinuousClock.now
        let maxInFlight = max(1, limits.maxInFlight)
        let maxPerHost = max(1, limits.maxPerHost)
        var finished: [(FetchRequest, Result<FetchResponse, FetchError>)] = []
        // The requests in order, asked for by position (not held: a copy of them, ~110 bytes
        // each, was a megabyte of a 5,000-feed run's peak). A started one (or one that could not
        // start) is marked -1 in `waitingHost` rather than removed (removing it would move every later
        // one: quadratic in a list of thousands), and `firstWaiting` skips the marks at the
        // front. Hosts are numbered (`hostNames`) so the loop below looks them up by index, not
        // by hashing their names again for every request it passes over; the pass below looks
        // at a waiting request's host first, and most requests it passes over are for a host at
        // its limit, which must cost an integer read, not a copy of the request (a retain per
        // field).
        var waitingHost = [Int](repeating: -1, count: count)  // -1: started, or never to start
        var waitingIsFile = [Bool](repeating: false, count: count)
        var firstWaiting = 0, waitingCount = 0
        // Requests waiting per host, and how many hosts have any: a pass that finds all of those
        // at their limit stops there instead of walking the rest of a list of thousands.
        var waitingOfHost: [Int] = [], hostsWaiting = 0
        var inFlight: [UnsafeMutableRawPointer: EasyTransfer] = [:]
        var hostNames: [String] = [], hostIndex: [String: Int] = [:]
        var perHost: [Int] = []
        // Each host's adaptive limit (`perHostStart`), by index; copied to `hostLimits` at the end.
        var adaptive: [HostConcurrency?] = []
        var completedBodies = (count: 0, bytes: 0)
        // Running transfers whose request expects no body (`FetchRequest.likelyNotModified`).
        var runningBodiless = 0
        hostLimits = [:]
        let perHostStart = limits.perHostStart ?? maxPerHost
        let startLimit = min(maxPerHost, max(1, perHostStart))
        defer {
            for (i, state) in adaptive.enumerated() { if let state { hostLimits[hostNames[i]] = state } }
        }

        for position in 0..<count {
            let checked: Result<(host: String, isFile: Bool), FetchError>
            if let address {
                let (url, allowFile) = address(position)
                checked = Self.check(url: url, allowFile: allowFile)
            } else {
                checked = Self.check(makeRequest(position))
            }
            switch checked {
            case .success(let (host, isFile)):
                let index = hostIndex[host] ?? {
                    hostNames.append(host)
                    perHost.append(0)
                    waitingOfHost.append(0)
                    adaptive.append(limits.perHostStart == nil || isFile ? nil : hostStartLimits[host].map {
                        HostConcurrency(start: $0, ceiling: maxPerHost)
                    })
                    hostIndex[host] = hostNames.count - 1
                    return hostNames.count - 1
                }()
                waitingHost[position] = index
                waitingIsFile[position] = isFile
                waitingCount += 1
                if waitingOfHost[index] == 0 { hostsWaiting += 1 }
                waitingOfHost[index] += 1
            case .failure(let error): finished.append((makeRequest(position), .failure(error)))
            }
        }
        // The pass of `startWaiting` in which each host was found at its limit.
        var fullInPass = [Int](repeating: -1, count: hostNames.count)
        var pass = 0
        // Whether the last pass left a request waiting for the gate (`hostGate`), not for a slot
        // of this fetcher: no transfer of ours ending will tell, so the loop looks again soon.
        var gateHeldBack = false

        /// Starts waiting requests, in order, while there are free slots; a request for a busy
        /// host is skipped (it keeps its place) so other hosts proceed.
        func startWaiting() {
            pass += 1
            gateHeldBack = false
            while firstWaiting < waitingHost.count && waitingHost[firstWaiting] < 0 { firstWaiting += 1 }
            var i = firstWaiting
            var hostsFull = 0
            /// Marks `host` full for this pass; true when every host with waiting requests is.
            func full(_ host: Int) -> Bool {
                if fullInPass[host] != pass {
                    fullInPass[host] = pass
                    hostsFull += 1
                }
                return hostsFull >= hostsWaiting
            }
            /// `host` has one request fewer waiting.
            func taken(_ index: Int, _ host: Int) {
                waitingHost[index] = -1
                waitingCount -= 1
                waitingOfHost[host] -= 1
                if waitingOfHost[host] == 0 {
                    hostsWaiting -= 1
                    if fullInPass[host] == pass { hostsFull -= 1 }
                }
            }
            scan: while i < waitingHost.count && inFlight.count < maxInFlight {
                let host = waitingHost[i]
                guard host >= 0 else {
                    i += 1
                    continue
                }
                guard inFlight.isEmpty || mayStart(FetchLoad(running: inFlight.count, completed: completedBodies.count,
                                                             completedBodyBytes: completedBodies.bytes,
                                                             runningLikelyNotModified: runningBodiless)) else { break scan }
                guard fullInPass[host] != pass, perHost[host] < (adaptive[host]?.limit ?? startLimit) else {
                    if full(host) { break scan }
                    i += 1
                    continue
                }
                let (request, isFile) = (makeRequest(i), waitingIsFile[i])
                // The gate last: it may take a slot shared with other processes.
                if !isFile, let gate = hostGate {
                    switch gate.admission(host: hostNames[host]) {
                    case .start: break
                    case .wait:
                        gateHeldBack = true
                        if full(host) { break scan }
                        i += 1
                        continue
                    case .backingOff(let seconds):
                        taken(i, host)
                        finished.append((request, .failure(.hostBackingOff(host: hostNames[host], seconds: seconds))))
                        continue
                    }
                }
                taken(i, host)
                if isFile, let refusal = LocalFile.refusal(url: request.url) {
                    finished.append((request, .failure(refusal)))
                    continue
                }
                let queued = (ContinuousClock.now - started).secondsDouble
                do throws(FetchError) {
                    let transfer = try EasyTransfer(request: request, hostKey: hostNames[host], isFile: isFile,
                                                    limits: limits, queuedSeconds: queued)
                    try transfer.configure(limits: limits)
                    try multi.add(transfer)
                    inFlight[transfer.handle] = transfer
                    if request.likelyNotModified { runningBodiless += 1 }
                    perHost[host] += 1
                    statistics.peakInFlight = max(statistics.peakInFlight, inFlight.count)
                } catch {
                    if !isFile { hostGate?.finished(host: hostNames[host]) }
                    finished.append((request, .failure(error)))
                }
            }
        }

        func complete(_ transfer: EasyTransfer, _ result: Result<FetchResponse, FetchError>) {
            inFlight[transfer.handle] = nil
            if transfer.request.likelyNotModified { runningBodiless -= 1 }
            if !transfer.isFile { hostGate?.finished(host: transfer.hostKey) }
            if let host = hostIndex[transfer.hostKey] {
                perHost[host] -= 1
                if limits.perHostStart != nil && !transfer.isFile {
                    var state = adaptive[host] ?? HostConcurrency(start: perHostStart, ceiling: maxPerHost)
                    state.record(.of(result))
                    adaptive[host] = state
                }
            }
            statistics.wireBytes += transfer.wireBytesReceived
            statistics.decodedBytes += transfer.decodedBytesSeen
            completedBodies.count += 1
            completedBodies.bytes += transfer.body.count
            statistics.connectionsOpened += transfer.connectionsOpened
            finished.append((transfer.request, result))
        }

        /// The multi handle itself failed: nothing can go on, every request gets the error.
        func abandonAll(_ error: FetchError) {
            for transfer in Array(inFlight.values) {
                try? multi.remove(transfer)
                complete(transfer, .failure(error))
            }
            for (index, host) in waitingHost.enumerated() where host >= 0 {
                finished.append((makeRequest(index), .failure(error)))
                waitingHost[index] = -1
            }
            firstWaiting = waitingHost.count
            waitingCount = 0
            for host in waitingOfHost.indices { waitingOfHost[host] = 0 }
            hostsWaiting = 0
        }

        var slotsFreed = true
        while true {
            whileWaiting()
            if slotsFreed || waitingCount > 0 {
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
                if inFlight.isEmpty {
                    guard gateHeldBack && waitingCount > 0 else { break }  // else nothing is waiting either
                    // curl_multi_poll waits its time with no transfer too (a waker call ends it).
                    try multi.poll(milliseconds: Self.gateRetryMilliseconds)
                    continue
                }
                try multi.perform()
                while let (easy, code) = multi.nextFinished() {
                    guard let transfer = inFlight[easy] else { continue }
                    try multi.remove(transfer)
                    complete(transfer, transfer.result(code, limits: limits))
                    slotsFreed = true
                }
                if finished.isEmpty { try multi.poll(milliseconds: gateHeldBack ? Self.gateRetryMilliseconds : 1000) }
            } catch {
                abandonAll(error)
                slotsFreed = true
            }
        }
    }

    /// How soon a request the gate held back is asked about again.
    static let gateRetryMilliseconds: Int32 = 50

    /// One request, synchronously.
    public func fetch(_ request: FetchRequest) -> Result<FetchResponse, FetchError> {
        var outcome: Result<FetchResponse, FetchError> = .failure(.setup(call: "fetch", detail: "no result"))
        fetchAll([request], onComplete: { _, result in outcome = result })
        return outcome
    }

    /// The host name a request counts against (lowercased), or why it cannot be fetched at all.
    static func check(_ request: FetchRequest) -> Result<(host: String, isFile: Bool), FetchError> {
        check(url: request.url, allowFile: request.allowFile)
    }

    static func check(url: String, allowFile: Bool) -> Result<(host: String, isFile: Bool), FetchError> {
        let parts = urlParts(url, [CURLUPART_SCHEME, CURLUPART_HOST])
        guard let scheme = parts?[0]?.lowercased() else { return .failure(.invalidURL(url)) }
        switch scheme {
        case "http", "https":
            guard let host = parts?[1], !host.isEmpty else { return .failure(.invalidURL(url)) }
            return .success((host.lowercased(), false))
        case "file" where allowFile:
            return .success(("file:", true))
        default:
            return .failure(.unsupportedScheme(url: url))
        }
    }
}

/// What `Fetcher.fetchAll` tells its caller's `mayStart` before starting a further transfer.
public struct FetchLoad: Sendable, Hashable {
    /// Transfers running now.
    public var running: Int
    /// Transfers completed so far in this `fetchAll`, and their body bytes (decoded).
    public var completed: Int
    public var completedBodyBytes: Int
    /// Of the running transfers, those whose request expects no body
    /// (`FetchRequest.likelyNotModified`).
    public var runningLikelyNotModified: Int

    public init(running: Int, completed: Int, completedBodyBytes: Int, runningLikelyNotModified: Int = 0) {
        self.running = running
        self.completed = completed
        self.completedBodyBytes = completedBodyBytes
        self.runningLikelyNotModified = min(max(0, runningLikelyNotModified), running)
    }

    /// The body bytes the running transfers are likely to hold once done: each the mean body
    /// of those completed so far (0 for runs of bodiless 304s), or, before any completed,
    /// `unknownBodyBytes` each but for those expecting a 304 (so a cold start with hundreds of
    /// transfers allowed does not start them all at once, each bringing a body, while a pass
    /// of conditional requests answered 304 last time does not wait a round trip with 16 of
    /// them running: at 50 ms of latency that wait was 55 ms of an 0.85 s pass of 5,000).
    public var expectedBodyBytes: Int {
        completed == 0 ? (running - runningLikelyNotModified) * Self.unknownBodyBytes : running * (completedBodyBytes / completed)
    }

    /// What a body is taken to weigh before any has arrived: a typical feed's.
    public static let unknownBodyBytes = 64 << 10
}

/// Wakes a thread waiting in `Fetcher.fetchAll`, from any thread: it writes the eventfd that
/// the fetching thread's epoll set waits on. Holds the descriptor without owning it: use it
/// only while the Fetcher it came from is alive.
public struct FetchWaker: Sendable {
    let descriptor: Int32

    public func wake() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)  // EAGAIN only when the counter is full: already awake
    }
}
