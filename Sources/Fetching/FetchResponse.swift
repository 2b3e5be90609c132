import FeedModel

/// Response headers in the order received. Lookup ignores case; when a name repeats, the last
/// value wins (`values(_:)` gives all of them).
public struct HTTPHeaders: Sendable, Hashable, Sequence {
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field]

    public init(_ fields: [Field] = []) { self.fields = fields }

    public subscript(name: String) -> String? {
        let key = name.lowercased()
        return fields.last { $0.name.lowercased() == key }?.value
    }

    public func values(_ name: String) -> [String] {
        let key = name.lowercased()
        return fields.filter { $0.name.lowercased() == key }.map(\.value)
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    mutating func append(name: String, value: String) { fields.append(Field(name: name, value: value)) }

    /// A folded continuation line (obsolete in HTTP/1.1, still sent by a few servers).
    mutating func appendToLast(_ more: String) {
        guard !fields.isEmpty else { return }
        fields[fields.count - 1].value += " " + more
    }
}

/// Where the time of one transfer went, in seconds. The curl phases count from the moment the
/// transfer started; `queued` is the wait for a free slot before that.
public struct FetchTiming: Sendable, Hashable {
    public var queued: Double
    public var nameLookup: Double
    public var connect: Double
    public var tlsHandshake: Double
    public var firstByte: Double
    public var total: Double

    public init(queued: Double = 0, nameLookup: Double = 0, connect: Double = 0, tlsHandshake: Double = 0,
                firstByte: Double = 0, total: Double = 0) {
        self.queued = queued
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.firstByte = firstByte
        self.total = total
    }
}

/// A completed HTTP exchange, whatever its status: 304, 404, 410, 429 and 500 are responses,
/// and the caller decides what they mean.
public struct FetchResponse: Sendable, Hashable {
    /// The final response's status (a `file://` read that succeeded reports 200).
    public var status: Int
    /// The URL the body came from, after redirects.
    public var finalURL: String
    /// The final URL when the request was redirected and every hop was a 301 or 308 (the caller
    /// may update the stored URL); nil when there was no redirect or any hop was temporary.
    public var permanentRedirect: String?
    /// Redirects followed.
    public var redirectCount: Int
    /// The final response's headers (not those of the redirects before it).
    public var headers: HTTPHeaders
    /// The body, decoded from any Content-Encoding (gzip, deflate, br, zstd).
    public var body: [UInt8]
    /// Body bytes received on the wire, before decoding.
    public var wireBytes: Int
    /// "1.1", "2", ... (empty for `file://`).
    public var httpVersion: String
    /// New connections this transfer opened (0 when it reused one).
    public var newConnections: Int
    public var timing: FetchTiming

    public init(status: Int, finalURL: String, permanentRedirect: String? = nil, redirectCount: Int = 0,
                headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], wireBytes: Int = 0,
                httpVersion: String = "1.1", newConnections: Int = 0, timing: FetchTiming = FetchTiming()) {
        self.status = status
        self.finalURL = finalURL
        self.permanentRedirect = permanentRedirect
        self.redirectCount = redirectCount
        self.headers = headers
        self.body = body
        self.wireBytes = wireBytes
        self.httpVersion = httpVersion
        self.newConnections = newConnections
        self.timing = timing
    }

    public var isNotModified: Bool { status == 304 }

    /// The media type without parameters, lowercased: `application/rss+xml`.
    public var contentType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        let type = trimmed(value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0])
        return type.isEmpty ? nil : type.lowercased()
    }

    /// The `charset` parameter of Content-Type, lowercased and unquoted: `iso-8859-1`.
    public var charset: String? {
        guard let value = headers["Content-Type"] else { return nil }
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, trimmed(pair[0]).lowercased() == "charset" else { continue }
            let charset = unquoted(trimmed(pair[1]))
            return charset.isEmpty ? nil : charset.lowercased()
        }
        return nil
    }

    public var etag: String? { headers["ETag"] }
    public var lastModified: String? { headers["Last-Modified"] }

    /// Last-Modified as seconds since 1970 (nil when absent or not an HTTP date).
    public var lastModifiedSeconds: Int64? { lastModified.flatMap(HTTPDate.parse) }

    /// The server's `Date`, seconds since 1970.
    public var dateSeconds: Int64? { headers["Date"].flatMap(HTTPDate.parse) }

    /// `Expires`, seconds since 1970. An invalid date (`0`, `-1`) means "already expired"
    /// (RFC 9111 5.3), reported as 0.
    public var expiresSeconds: Int64? {
        guard let value = headers["Expires"] else { return nil }
        return HTTPDate.parse(value) ?? 0
    }

    /// `max-age` of Cache-Control (`s-maxage` is for shared caches and ignored).
    public var maxAgeSeconds: Int? {
        for value in headers.values("Cache-Control") {
            for directive in value.split(separator: ",") {
                let pair = directive.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, trimmed(pair[0]).lowercased() == "max-age" else { continue }
                if let seconds = HTTPDeltaSeconds.parse(unquoted(trimmed(pair[1]))) { return Int(seconds) }
            }
        }
        return nil
    }

    /// Seconds the server asks to wait (Retry-After as delta-seconds or as an HTTP date, which
    /// is counted from `now`, seconds since 1970). Never negative; nil when absent or unreadable.
    public func retryAfterSeconds(now: Int64) -> Int64? {
        guard let value = headers["Retry-After"].map({ trimmed(Substring($0)) }), !value.isEmpty else { return nil }
        if let seconds = HTTPDeltaSeconds.parse(value) { return seconds }
        guard let date = HTTPDate.parse(value) else { return nil }
        return max(0, date.saturatingSubtract(now))
    }
}

/// `delta-seconds` (RFC 9111 1.2.2): one or more ASCII digits, nothing else. A value too large
/// to hold is 2^31, as the RFC says a cache must take it; `+5`, `-1`, `0x10` and `1e3` are no
/// value. Max-age and Retry-After are read with it.
public enum HTTPDeltaSeconds {
    public static let saturation: Int64 = 1 << 31

    public static func parse(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return OutsideNumber.integer(text, in: 0...saturation) ?? saturation
    }
}

/// Without leading and trailing spaces, tabs and line ends.
func trimmed(_ s: Substring) -> String {
    // Compare scalars: "\r\n" is a single Character, equal to neither "\r" nor "\n".
    func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\r" || c == "\n" }
    var view = s.unicodeScalars[...]
    while let c = view.first, isSpace(c) { view.removeFirst() }
    while let c = view.last, isSpace(c) { view.removeLast() }
    return String(view)
}

private func unquoted(_ s: String) -> String {
    if s.count >= 2, s.first == "\"", s.last == "\"" { return String(s.dropFirst().dropLast()) }
    return s
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}

/// HTTP dates (RFC 9110 5.6.7): IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete
/// RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994`.
public enum HTTPDate {
    /// Seconds since 1970, or nil when `text` is not an HTTP date.
    public static func parse(_ text: String) -> Int64? {
        let tokens = text.split { $0 == " " || $0 == "," || $0 == "-" || $0 == "\t" }
        var day: Int?, month: Int?, year: Int?, clock: (Int, Int, Int)?
        for token in tokens {
            if token.contains(":") {
                let parts = token.split(separator: ":", omittingEmptySubsequences: false).map { OutsideNumber.int($0, in: 0...99) }
                guard clock == nil, parts.count == 3, let h = parts[0], let m = parts[1], let s = parts[2] else { return nil }
                clock = (h, m, s)
            } else if token.allSatisfy(\.isASCIIDigit) {
                guard let n = OutsideNumber.int(token, in: 0...9999) else { return nil }
                if day == nil, token.count <= 2 {
                    day = n
                } else if year == nil, token.count == 2 || token.count == 4 {
                    year = token.count == 2 ? (n < 70 ? 2000 + n : 1900 + n) : n
                } else {
                    return nil
                }
            } else if let m = months.firstIndex(of: token.prefix(3).lowercased()), token.count == 3 {
                guard month == nil else { return nil }
                month = m + 1
            } else if ["gmt", "utc", "ut", "z", "+0000"].contains(token.lowercased())
                        || weekdays.contains(token.prefix(3).lowercased()) {
                continue
            } else {
                return nil
            }
        }
        guard let day, let month, let year, let (h, m, s) = clock, h < 24,
              let t = Timestamp(year: year, month: month, day: day, hour: h, minute: m, second: s)
        else { return nil }
        return t.secondsSince1970
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
}
