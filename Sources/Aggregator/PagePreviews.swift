import FeedModel
import FeedParsing
import Fetching
import Storage

/// When a search card's page is looked at for a preview image (`preview=yes`), and how politely.
public struct PagePreviewPolicy: Sendable {
    /// Pages looked at per source and run, at most: a new search of ten results costs ten small
    /// requests once, then only the results that are new.
    public var maxPagesPerSource = 10
    /// How long a found image is trusted.
    public var foundLifetime: Int64 = 30 * 86_400
    /// How long "no image" (or a page that failed) is remembered before asking again.
    public var missingLifetime: Int64 = 86_400
    /// Transfers at once to one host (and overall): previews are a courtesy, never a burst.
    public var perHost = 1
    public var inFlight = 4

    public init() {}

    /// Whether a cached entry still stands at `now`.
    public func isFresh(_ entry: PagePreviewEntry, now: Timestamp) -> Bool {
        let age = now.seconds(since: entry.checkedAt)
        return age >= 0 && age < (entry.image == nil ? missingLifetime : foundLifetime)
    }
}

extension UpdateRunner {
    /// Gives the cards of `preview=yes` searches that have no image their page's preview image:
    /// from the cache when fresh, else from a bounded fetch of the page's head (at most
    /// `PagePreview.headBytes`, one request per host at a time), remembered either way.
    func addPagePreviews(_ run: inout SearchRun, store: any UpdateRunStore) {
        let now = clock()
        // Which cards of which sources want a page looked at.
        var wanted: [(id: Int64, index: Int, page: String)] = []
        // The source each page came from: its origin is where a page may be on an internal address.
        var sourceOf: [String: String] = [:]
        for (id, p) in run.pending where p.source.entry.search?.preview == true && p.next == nil {
            var n = 0
            for (i, card) in p.cards.enumerated() where card.image == nil && card.kind == .article {
                guard n < previewPolicy.maxPagesPerSource, let link = card.link, WebAddress(parsing: link).isWebURL else { continue }
                wanted.append((id, i, link))
                if sourceOf[link] == nil, let search = p.source.entry.search { sourceOf[link] = search.requestURL(relativeTo: run.folder) }
                n += 1
            }
        }
        guard !wanted.isEmpty else { return }
        let pages = Array(Set(wanted.map(\.page))).sorted()
        var images: [String: String?] = [:]
        let cached = (try? store.pagePreviews(for: pages)) ?? [:]
        var toFetch: [String] = []
        for page in pages {
            if let entry = cached[page], previewPolicy.isFresh(entry, now: now) { images[page] = .some(entry.image) } else { toFetch.append(page) }
        }
        if !toFetch.isEmpty, let fetcher = try? Fetcher(limits: previewLimits) {
            var found: [String: String?] = [:]
            let requests = toFetch.enumerated().map { i, page in
                FetchRequest(id: Int64(i), url: page, headers: ["Accept": "text/html, application/xhtml+xml;q=0.9, */*;q=0.5"],
                             keepFirstBytes: PagePreview.headBytes,
                             internalScope: sourceOf[page].map { .sameOriginAs($0) } ?? .nowhere)
            }
            fetcher.fetchAll(requests) { request, result in
                let page = toFetch[Int(request.id)]
                if case .success(let response) = result, (200...299).contains(response.status) {
                    found[page] = .some(PagePreview.image(inPageHead: response.body, base: response.finalURL, charset: response.charset))
                } else {
                    found[page] = .some(nil)
                }
            }
            // A cache that cannot be written costs a fetch next time, nothing more.
            try? store.savePagePreviews(found, checkedAt: now)
            images.merge(found) { _, new in new }
        }
        for w in wanted {
            if case .some(.some(let image)) = images[w.page] { run.pending[w.id]?.cards[w.index].image = image }
        }
    }

    /// The run's limits, made gentler for previews.
    var previewLimits: FetchLimits {
        var l = limits
        l.maxPerHost = previewPolicy.perHost
        l.maxInFlight = previewPolicy.inFlight
        l.totalTimeout = min(l.totalTimeout, .seconds(15))
        return l
    }
}
