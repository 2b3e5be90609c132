import Foundation
import Glibc


/// A small HTTP/1.1 server on a loopback address (127.0.0.1 by default; any 127.x.y.z serves
/// as another "host") and an ephemeral port, for tests. Routes answer scripted responses; every
/// request is logged; concurrency is counted. One thread accepts, one thread serves each
/// connection (keep-alive included). Bounded in time: a connection idle longer than
/// `readTimeout` is closed, and the whole server stops after `maxLifetime`. Stops in `stop()`
/// or when released.
public final class LoopbackHTTPServer {
    public typealias Handler = @Sendable (RecordedRequest) -> ScriptedResponse

    public let address: String
    public let port: UInt16
    private let core: Core

    /// `http://127.0.0.1:PORT`
    public var baseURL: String { "http://\(address):\(port)" }

    /// `http://127.0.0.1:PORT/path`
    public func url(_ path: String) -> String { baseURL + (path.hasPrefix("/") ? path : "/" + path) }

    /// The Host header a client sends to this server: `127.0.0.1:PORT`.
    public var hostHeader: String { "\(address):\(port)" }

    public init(address: String = "127.0.0.1", readTimeout: Duration = .seconds(5),
                maxLifetime: Duration = .seconds(120)) throws {
        guard address.hasPrefix("127.") else { throw ServerError("refusing to listen on \(address): loopback (127.x.y.z) only") }
        let fd = try Self.listeningSocket(address: address, port: 0)
        port = try Self.boundPort(fd)
        self.address = address
        core = Core(listener: fd, readTimeout: readTimeout, deadline: .now + maxLifetime)
        core.startAccepting()
    }

    deinit { core.stop() }

    /// Stops accepting, ends every connection and waits (a few seconds at most) for its threads.
    public func stop() { core.stop() }

    // MARK: Routes

    /// Answers requests for `path` (exact, query ignored) with `handler`'s response.
    public func route(_ path: String, _ handler: @escaping Handler) {
        core.state.withLock { $0.routes[path] = handler }
    }

    /// Answers requests for `path` with a fixed response.
    public func route(_ path: String, _ response: ScriptedResponse) {
        route(path) { _ in response }
    }

    /// A resource with validators: 200 with `ETag`/`Last-Modified` added to `response`, or 304 when
    /// If-None-Match names `etag` (or `*`), or, without If-None-Match, If-Modified-Since equals
    /// `lastModified`.
    public func routeConditional(_ path: String, etag: String?, lastModified: String?, _ response: ScriptedResponse) {
        var validators: [(name: String, value: String)] = []
        if let etag { validators.append(("ETag", etag)) }
        if let lastModified { validators.append(("Last-Modified", lastModified)) }
        var withValidators = response
        withValidators.headers += validators
        let full = withValidators
        let notModified = ScriptedResponse(status: 304, headers: validators)
        route(path) { request in
            if let ifNoneMatch = request.header("If-None-Match") {
                let tags = ifNoneMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                return etag.map { tags.contains($0) } == true || tags.contains("*") ? notModified : full
            }
            if let since = request.header("If-Modified-Since"), since == lastModified { return notModified }
            return full
        }
    }

    // MARK: What happened

    /// Every request read so far, in order of arrival.
    public var requests: [RecordedRequest] { core.state.withLock { $0.log } }

    public func requests(path: String) -> [RecordedRequest] { requests.filter { $0.path == path } }

    /// Connections accepted so far.
    public var connectionsAccepted: Int { core.state.withLock { $0.connectionsAccepted } }

    /// The most connections open at once.
    public var maxConcurrentConnections: Int { core.state.withLock { $0.maxConnections } }

    /// The most requests being answered at once (from the request read to just before the last
    /// byte of the response is written, so a client can never see more in flight than this).
    public var maxConcurrentRequests: Int { core.state.withLock { $0.maxActive } }

    /// The same, per Host header (`127.0.0.1:PORT`).
    public var maxConcurrentRequestsByHost: [String: Int] { core.state.withLock { $0.maxActiveByHost } }

    /// A loopback port that nothing listens on (bound, then closed): connecting is refused.
    public static func closedPort(address: String = "127.0.0.1") throws -> UInt16 {
        let fd = try listeningSocket(address: address, port: 0)
        defer { close(fd) }
        return try boundPort(fd)
    }

    public struct ServerError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Sockets

    private static func listeningSocket(address: String, port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        guard inet_pton(AF_INET, address, &addr.sin_addr) == 1 else {
            close(fd)
            throw ServerError("not an IPv4 address: \(address)")
        }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw ServerError("cannot listen on \(address): \(message)")
        }
        return fd
    }

    private static func boundPort(_ fd: Int32) throws -> UInt16 {
        var addr = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard ok == 0 else { throw ServerError("getsockname: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: addr.sin_port)
    }
}

// MARK: - The serving threads

private struct State {
    var routes: [String: LoopbackHTTPServer.Handler] = [:]
    var log: [RecordedRequest] = []
    var stopping = false
    var liveThreads = 0
    var connectionsAccepted = 0
    var openConnections = 0
    var maxConnections = 0
    var active = 0
    var maxActive = 0
    var activeByHost: [String: Int] = [:]
    var maxActiveByHost: [String: Int] = [:]
}

/// Everything the threads share. The server object owns it; the threads never keep the server
/// alive, so releasing the server stops them.
private final class Core: Sendable {
    let listener: Int32
    let readTimeout: Duration
    let deadline: ContinuousClock.Instant
    let state = Locked(State())

    init(listener: Int32, readTimeout: Duration, deadline: ContinuousClock.Instant) {
        self.listener = listener
        self.readTimeout = readTimeout
        self.deadline = deadline
    }

    var shouldStop: Bool { state.withLock { $0.stopping } || ContinuousClock.now >= deadline }

    func stop() {
        state.withLock { $0.stopping = true }
        let giveUp = ContinuousClock.now + .seconds(5)
        while state.withLock({ $0.liveThreads }) > 0 && ContinuousClock.now < giveUp {
            usleep(2_000)
        }
    }

    private func spawn(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.liveThreads += 1 }
        let thread = Thread { [self] in
            body()
            state.withLock { $0.liveThreads -= 1 }
        }
        thread.start()
    }

    func startAccepting() {
        spawn { [self] in
            defer { close(listener) }
            var nextConnection = 0
            while !shouldStop {
                var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 50) > 0 else { continue }
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { continue }
                nextConnection += 1
                let serial = nextConnection
                state.withLock {
                    $0.connectionsAccepted += 1
                    $0.openConnections += 1
                    $0.maxConnections = max($0.maxConnections, $0.openConnections)
                }
                spawn { [self] in
                    serve(fd, serial: serial)
                    close(fd)
                    state.withLock { $0.openConnections -= 1 }
                }
            }
        }
    }

    /// Requests on one connection, one after the other, until the client closes, the
    /// connection idles past the read timeout, a response closes it, or the server stops.
    private func serve(_ fd: Int32, serial: Int) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)  // a client that stops reading cannot hang a send
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer: [UInt8] = []
        while let request = readRequest(fd, &buffer, serial: serial) {
            let handler = state.withLock { state in
                state.log.append(request)
                return state.routes[request.path]
            }
            let response = handler?(request) ?? .text("no route for \(request.path)\n", status: 404)
            guard respond(fd, to: request, with: response) else { return }
        }
    }

    // MARK: Reading

    /// The next request's head (and any body, discarded), or nil to close the connection.
    private func readRequest(_ fd: Int32, _ buffer: inout [UInt8], serial: Int) -> RecordedRequest? {
        let end: Int
        while true {
            // Not HTTP (a TLS ClientHello, say): answer 400 at once, as a real server would.
            if let first = buffer.first, !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) { return badRequest(fd) }
            if let found = headEnd(buffer) {
                end = found
                break
            }
            guard buffer.count < 64 * 1024 else { return badRequest(fd) }
            guard receive(fd, into: &buffer) else { return nil }
        }
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { return badRequest(fd) }
        let headers: [(name: String, value: String)] = lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let request = RecordedRequest(method: String(requestLine[0]), target: String(requestLine[1]),
                                      headers: headers, connection: serial, receivedAt: .now)
        // Discard a request body (these tests send none, but keep the connection in step).
        var bodyLength = Int(request.header("Content-Length") ?? "0") ?? 0
        guard bodyLength <= 1 << 20 else { return nil }
        while bodyLength > 0 {
            if buffer.isEmpty, !receive(fd, into: &buffer) { return nil }
            let take = min(bodyLength, buffer.count)
            buffer.removeFirst(take)
            bodyLength -= take
        }
        return request
    }

    private func badRequest(_ fd: Int32) -> RecordedRequest? {
        _ = send(fd, Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
        return nil
    }

    private func headEnd(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4)
        where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Appends what arrives within the read timeout; false on close, error, timeout or stop.
    private func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Bool {
        let giveUp = ContinuousClock.now + readTimeout
        while !shouldStop && ContinuousClock.now < giveUp {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, 50)
            if ready < 0 && errno != EINTR { return false }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            buffer.append(contentsOf: chunk[..<n])
            return true
        }
        return false
    }

    // MARK: Writing

    /// Sends `response`; false when the connection must close afterwards.
    private func respond(_ fd: Int32, to request: RecordedRequest, with response: ScriptedResponse) -> Bool {
        let host = request.host
        var counted = true
        beginActive(host)
        defer { if counted { endActive(host) } }
        // Ends the count just before the final write, so it happens-before the client's completion.
        func finishCount() {
            if counted { endActive(host) }
            counted = false
        }

        guard sleep(response.delay) else { return false }
        if let raw = response.raw {
            finishCount()
            _ = send(fd, raw)
            return false
        }
        let wantsClose = request.header("Connection")?.lowercased() == "close"
        let keepAlive = !wantsClose && response.sendContentLength
        var head = "HTTP/1.1 \(response.status) \(ScriptedResponse.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if response.sendContentLength { head += "Content-Length: \(response.body.count)\r\n" }
        if !keepAlive { head += "Connection: close\r\n" }
        head += "\r\n"
        let body = request.method == "HEAD" ? [] : response.body

        if let drip = response.drip, !body.isEmpty {
            guard send(fd, Array(head.utf8)) else { return false }
            var offset = 0
            while offset < body.count {
                guard sleep(drip.interval) else { return false }
                let next = min(body.count, offset + drip.bytes)
                if next == body.count { finishCount() }
                guard send(fd, Array(body[offset..<next])) else { return false }
                offset = next
            }
        } else {
            finishCount()
            guard send(fd, Array(head.utf8) + body) else { return false }
        }
        if !keepAlive { shutdown(fd, Int32(SHUT_WR)) }
        return keepAlive
    }

    private func beginActive(_ host: String) {
        state.withLock {
            $0.active += 1
            $0.maxActive = max($0.maxActive, $0.active)
            $0.activeByHost[host, default: 0] += 1
            $0.maxActiveByHost[host] = max($0.maxActiveByHost[host] ?? 0, $0.activeByHost[host]!)
        }
    }

    private func endActive(_ host: String) {
        state.withLock {
            $0.active -= 1
            $0.activeByHost[host, default: 1] -= 1
        }
    }

    /// Sleeps in short slices; false when the server stops meanwhile.
    private func sleep(_ duration: Duration) -> Bool {
        let until = ContinuousClock.now + duration
        while ContinuousClock.now < until {
            if shouldStop { return false }
            let microseconds = (until - ContinuousClock.now) / .microseconds(1)
            usleep(UInt32(min(20_000, max(1, microseconds))))
        }
        return !shouldStop
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }
}
