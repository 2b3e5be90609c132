/// What a `LoopbackHTTPServer` route answers: a status, headers and body, optionally late,
/// slowly (drip), without a length, or as raw bytes that are not HTTP at all.
public struct ScriptedResponse: Sendable {
    public var status: Int
    /// Sent in this order; `Content-Length` and `Connection` are added by the server.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Wait this long after reading the request before answering.
    public var delay: Duration
    /// Send the body `bytes` at a time, one chunk every `interval` (headers at once).
    public var drip: Drip?
    /// false: no Content-Length; the body ends when the server closes the connection.
    public var sendContentLength: Bool
    /// When set, these bytes are sent instead of a response, then the connection is closed
    /// (empty: hang up without replying).
    public var raw: [UInt8]?

    public struct Drip: Sendable {
        public var bytes: Int
        public var interval: Duration
        public init(bytes: Int, every interval: Duration) {
            self.bytes = max(1, bytes)
            self.interval = interval
        }
    }

    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
                delay: Duration = .zero, drip: Drip? = nil, sendContentLength: Bool = true, raw: [UInt8]? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.drip = drip
        self.sendContentLength = sendContentLength
        self.raw = raw
    }

    /// A text body with its Content-Type.
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8",
                            headers: [(name: String, value: String)] = []) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Content-Type", contentType)] + headers, body: Array(text.utf8))
    }

    /// A redirect (301, 302, 303, 307, 308) to `location`, absolute or relative.
    public static func redirect(_ status: Int, to location: String) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Location", location)], body: Array("moved\n".utf8))
    }

    /// Pre-compressed gzip bytes served with `Content-Encoding: gzip` (whatever the client accepts).
    public static func gzip(_ compressed: [UInt8], contentType: String = "application/xml") -> ScriptedResponse {
        ScriptedResponse(headers: [("Content-Type", contentType), ("Content-Encoding", "gzip")], body: compressed)
    }

    /// Bytes that are not a proper response, then a close (`[]`: hang up without a word).
    public static func raw(_ bytes: [UInt8]) -> ScriptedResponse {
        ScriptedResponse(raw: bytes)
    }

    /// The same response after `delay`.
    public func delayed(by delay: Duration) -> ScriptedResponse {
        var copy = self
        copy.delay = delay
        return copy
    }

    /// The same response with its body dripped.
    public func dripped(_ bytes: Int, every interval: Duration) -> ScriptedResponse {
        var copy = self
        copy.drip = Drip(bytes: bytes, every: interval)
        return copy
    }

    public static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

/// A request as the server read it.
public struct RecordedRequest: Sendable {
    public var method: String
    /// The request target as sent: path and query.
    public var target: String
    public var headers: [(name: String, value: String)]
    /// Serial number of the connection it came on (1, 2, ...): equal numbers mean a reused connection.
    public var connection: Int
    public var receivedAt: ContinuousClock.Instant

    /// The target without its query.
    public var path: String { String(target.prefix { $0 != "?" }) }

    /// A header's value (name in any case; the last one when repeated).
    public func header(_ name: String) -> String? {
        let key = name.lowercased()
        return headers.last { $0.name.lowercased() == key }?.value
    }

    /// The Host header, "" when absent.
    public var host: String { header("Host") ?? "" }
}
