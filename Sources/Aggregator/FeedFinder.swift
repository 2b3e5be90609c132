import FeedModel
import FeedParsing
import Fetching

/// What `FeedFinder` found at an address.
public enum FoundFeeds: Sendable {
    /// The address is itself a feed.
    case feed(FeedDiscovery.Candidate)
    /// The address is a web page; these are its feeds (announced, else found at the usual paths),
    /// possibly none.
    case page([FeedDiscovery.Candidate])
}

/// Feed discovery over the network (`feeds add`, `feeds discover`): the page is fetched once,
/// its first `FeedDiscovery.pageBytes` only (the bound of page previews), through the one
/// Fetcher and its address policy; when it is no feed and announces none, the usual paths on
/// its origin are fetched (as boundedly) and kept when they parse as feeds.
public struct FeedFinder {
    public var limits: FetchLimits

    public init(limits: FetchLimits) { self.limits = limits }

    static let accept = UpdateRunner.accept + ", text/html;q=0.7, application/xhtml+xml;q=0.7"

    /// What `url` (absolute http(s)) is; throws `AggregatorError.discovery` when the page cannot
    /// be fetched or does not answer with a 2xx.
    public func find(_ url: String) throws -> FoundFeeds {
        let fetcher: Fetcher
        do { fetcher = try Fetcher(limits: limits) } catch { throw AggregatorError.discovery(url: url, reason: error.localizedDescription) }
        let response: FetchResponse
        switch fetcher.fetch(request(0, url, page: url)) {
        case .failure(let error): throw AggregatorError.discovery(url: url, reason: error.localizedDescription)
        case .success(let r): response = r
        }
        guard (200...299).contains(response.status) else {
            throw AggregatorError.discovery(url: url, reason: "HTTP \(response.status)")
        }
        if let feed = Self.feed(in: response, url: url) { return .feed(feed) }
        let announced = FeedDiscovery.announced(inPage: response.body, base: response.finalURL, charset: response.charset)
        if !announced.isEmpty { return .page(announced) }
        // None announced: the usual paths, on the origin the page finally came from.
        let usual = FeedDiscovery.usualCandidates(for: response.finalURL)
        var found: [Int: FeedDiscovery.Candidate] = [:]
        var finals = Set<String>()
        fetcher.fetchAll(usual.enumerated().map { request(Int64($0), $1, page: url) }) { request, result in
            guard case .success(let r) = result, (200...299).contains(r.status),
                  let feed = Self.feed(in: r, url: r.permanentRedirect ?? request.url) else { return }
            found[Int(request.id)] = feed
        }
        var candidates: [FeedDiscovery.Candidate] = []
        for i in usual.indices {
            // `/feed` and `/feed/` answered by one document count once.
            guard let c = found[i], finals.insert(WebAddress(parsing: c.url).normalizedForIdentity).inserted else { continue }
            candidates.append(c)
        }
        return .page(candidates)
    }

    func request(_ id: Int64, _ url: String, page: String) -> FetchRequest {
        FetchRequest(id: id, url: url, headers: ["Accept": Self.accept], keepFirstBytes: FeedDiscovery.pageBytes,
                     internalScope: .sameOriginAs(page))
    }

    /// The response as a feed (its format known from its first bytes), or nil.
    static func feed(in response: FetchResponse, url: String) -> FeedDiscovery.Candidate? {
        let parser = FeedStreamParser(options: ParseOptions(baseURL: response.finalURL, charset: response.charset)) { _ in }
        guard (try? parser.push(response.body)) != nil, let summary = try? parser.finish(),
              let format = FeedDiscovery.format(of: summary.format) else { return nil }
        return FeedDiscovery.Candidate(url: url, title: summary.feed.title, format: format)
    }
}
