/// One URL to fetch, with the validators from the previous fetch for a conditional GET.
public struct FetchRequest: Sendable, Hashable {
    /// Chosen by the caller (a source's row id, say) and handed back with the result.
    public var id: Int64
    /// An absolute `http://` or `https://` URL (`file://` too when `allowFile` is set).
    public var url: String
    /// The ETag of the copy the caller holds: sent as `If-None-Match`.
    public var etag: String?
    /// The Last-Modified of the copy the caller holds: sent as `If-Modified-Since`.
    public var lastModified: String?
    /// Further request headers (`Accept`, say), sent in name order. A header with an empty
    /// value removes one curl would send by itself.
    public var headers: [String: String]
    /// Whether this request may read a `file://` URL (a source the user added as a local file).
    /// Redirects never lead to `file://`, whatever this says.
    public var allowFile: Bool
    /// When set, only the first this many decoded body bytes are wanted: the transfer stops
    /// there and succeeds with that prefix (the head of a web page, say) instead of failing as
    /// too large.
    public var keepFirstBytes: Int?
    /// On which origin this transfer may connect to an internal address (see
    /// `InternalAddressScope`); by default the origin of `url` itself, as for a source's own URL.
    /// Redirect hops to other origins reach public addresses only.
    public var internalScope: InternalAddressScope
    /// The caller expects no body: a conditional request whose previous answer was 304 Not
    /// Modified. Only an estimate, for `FetchLoad.expectedBodyBytes` before any transfer of the
    /// run has completed; what comes back is handled the same either way.
    public var likelyNotModified: Bool

    public init(id: Int64, url: String, etag: String? = nil, lastModified: String? = nil,
                headers: [String: String] = [:], allowFile: Bool = false, keepFirstBytes: Int? = nil,
                internalScope: InternalAddressScope? = nil, likelyNotModified: Bool = false) {
        self.likelyNotModified = likelyNotModified
        self.id = id
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.headers = headers
        self.allowFile = allowFile
        self.keepFirstBytes = keepFirstBytes
        self.internalScope = internalScope ?? .sameOriginAs(url)
    }
}

/// Bounds on every transfer and on the whole run; politeness settings.
public struct FetchLimits: Sendable, Hashable {
    /// `User-Agent`, like `feeds/1.0 (+https://example.org/feeds)`.
    public var userAgent: String
    /// Time allowed to connect (DNS, TCP and TLS).
    public var connectTimeout: Duration
    /// Time allowed for a whole transfer including redirects, counted from the moment it starts
    /// (requests waiting for a free slot are not started, so waiting does not count).
    public var totalTimeout: Duration
    /// Largest body kept, after decoding gzip/deflate/br/zstd.
    public var maxBodyBytes: Int
    /// Largest body received on the wire, before decoding (stops a gzip bomb early as well).
    public var maxWireBytes: Int
    /// Redirects followed before giving up.
    public var maxRedirects: Int
    /// Transfers running at once, overall.
    public var maxInFlight: Int
    /// Transfers running at once to one host name (other hosts proceed meanwhile): the fixed
    /// limit, or with `perHostStart` the ceiling of the adaptive one.
    public var maxPerHost: Int
    /// When set, each host's limit starts here and adapts between 1 and `maxPerHost` as its
    /// answers come back (see `HostConcurrency`); nil keeps it fixed at `maxPerHost`.
    public var perHostStart: Int?
    /// Lets every transfer connect to internal addresses wherever it goes (`--allow-internal`:
    /// feeds whose images or redirects live on the owner's own network, or a proxy there).
    public var allowInternalAddresses: Bool

    public init(userAgent: String,
                connectTimeout: Duration = .seconds(10),
                totalTimeout: Duration = .seconds(30),
                maxBodyBytes: Int = 32 << 20,
                maxWireBytes: Int = 32 << 20,
                maxRedirects: Int = 5,
                maxInFlight: Int = 16,
                maxPerHost: Int = 2,
                perHostStart: Int? = nil,
                allowInternalAddresses: Bool = false) {
        self.userAgent = userAgent
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxBodyBytes = maxBodyBytes
        self.maxWireBytes = maxWireBytes
        self.maxRedirects = maxRedirects
        self.maxInFlight = maxInFlight
        self.maxPerHost = maxPerHost
        self.perHostStart = perHostStart
        self.allowInternalAddresses = allowInternalAddresses
    }
}

extension Duration {
    /// Whole milliseconds, rounded up, at least 1 (curl reads 0 as "no timeout").
    var curlMilliseconds: Int {
        let (seconds, attoseconds) = components
        let ms = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return max(1, Int(ms))
    }

    var secondsDouble: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
