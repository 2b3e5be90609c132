import FeedModel
import Foundation
import FeedParsing
import Fetching
import Storage

/// The saved searches of one `feeds update` run, between their first response and their save.
struct SearchRun {
    /// A search source's progress: cards gathered so far and the request still to make.
    struct Pending {
        var source: RunSource
        var feed: FeedInfo
        var cards: [Card] = []
        var warnings: [String] = []
        /// The first response's validators; nil when a follow-up was needed (the next run must
        /// fetch again: the follow-up's results can change while the first answer does not).
        var validators: CacheValidators?
        var hints: SchedulePolicy.Hints
        var report: SourceReport
        /// The search whose answer the next response is, with its request.
        var next: (search: SavedSearch, request: FetchRequest)?
        var followUps = 0
    }

    let folder: String
    var pending: [Int64: Pending] = [:]

    /// SUSI → web search → OpenSearch description → results is the longest legitimate chain.
    static let maxFollowUps = 3
}

extension UpdateRunner {
    /// The first request of a saved search (conditional, with the validators of the last answer).
    func searchRequest(_ source: RunSource, _ search: SavedSearch, folder: String) -> FetchRequest {
        FetchRequest(id: source.stored.id.rawValue, url: search.requestURL(relativeTo: folder),
                     etag: source.stored.validators.etag, lastModified: source.stored.validators.lastModified,
                     headers: ["Accept": search.accept], allowFile: search.endpointIsFile)
    }

    /// Reads one response of a saved search. Returns the source's final report when it failed
    /// or was not modified; nil when its cards (or its next request) are kept in `run`.
    func searchStep(_ run: inout SearchRun, _ source: RunSource, request: FetchRequest,
                    result: Result<FetchResponse, FetchError>, store: any UpdateRunStore) -> SourceReport? {
        let id = source.stored.id.rawValue
        guard let own = source.entry.search else { return nil }
        let search = run.pending[id]?.next?.search ?? own
        let now = clock()
        let (response, hints, received) = receive(source, request: request, result: result, store: store, now: now,
                                                  statusMessage: { Self.searchStatusMessage($0, search: search) })
        guard let response else {
            run.pending[id] = nil
            return received
        }
        var p = run.pending[id] ?? SearchRun.Pending(
            source: source, feed: FeedInfo(), validators: CacheValidators(etag: response.etag, lastModified: response.lastModified),
            hints: hints, report: received)
        do {
            let answer = try SearchReader.read(response.body, engine: search.engine, query: search.query,
                                               base: response.finalURL, charset: response.charset)
            if p.followUps == 0 {
                p.feed = answer.feed
                if p.feed.title == nil { p.feed.title = "\(own.engine.displayName): \(own.query)" }
            }
            p.cards += answer.cards
            p.warnings += answer.warnings
            p.next = nil
            if let followUp = answer.followUp {
                guard p.followUps < SearchRun.maxFollowUps else {
                    throw SearchRunError.tooManyFollowUps
                }
                let next: SavedSearch
                let url: String
                switch followUp {
                case .webSearch(let query):
                    next = own.webSearchFollowUp(query: query)
                    url = next.requestURL(relativeTo: run.folder)
                case .fetch(let target):
                    next = search
                    url = target
                }
                // A file is read only where the user's own line names one.
                let allowFile = next.endpointIsFile || (search.endpointIsFile && url.lowercased().hasPrefix("file:"))
                // A URL from the answer reaches internal addresses only on the search's own origin.
                p.next = (next, FetchRequest(id: id, url: url, headers: ["Accept": next.accept], allowFile: allowFile,
                                             internalScope: .sameOriginAs(own.requestURL(relativeTo: run.folder))))
                p.validators = nil
                p.followUps += 1
            }
            run.pending[id] = p
            return nil
        } catch {
            var report = p.report
            recordFailure(source, CLIMessage.describe(error), report: &report, store: store, now: now)
            run.pending[id] = nil
            return report
        }
    }

    /// Makes the follow-up requests, adds page previews, and saves every pending search (one
    /// transaction each), reporting each source as it is done.
    func finishSearches(_ run: inout SearchRun, fetcher: Fetcher, store: any UpdateRunStore, report: (SourceReport) -> Void) {
        for _ in 0..<SearchRun.maxFollowUps {
            let requests = run.pending.values.compactMap { $0.next?.request }
            if requests.isEmpty { break }
            fetcher.fetchAll(requests) { request, result in
                guard let p = run.pending[request.id] else { return }
                if let done = searchStep(&run, p.source, request: request, result: result, store: store) { report(done) }
            }
        }
        addPagePreviews(&run, store: store)
        for id in run.pending.keys.sorted() {
            guard var p = run.pending[id] else { continue }
            let now = clock()
            if p.next != nil {
                var r = p.report
                recordFailure(p.source, SearchRunError.tooManyFollowUps.localizedDescription,
                              report: &r, store: store, now: now)
                report(r)
                continue
            }
            // One card per normalized URL (the first, best-ranked copy), saved last-ranked first:
            // results all share one date (first seen), and listings break that tie by newest
            // row, so the engine's top result is listed first.
            var seen = Set<CardKey>()
            let ranked = p.cards.map { ($0, CardKey.forSearchResult($0)) }.filter { seen.insert($0.1).inserted }
            do {
                let saved = try store.saveFetch(sourceID: p.source.stored.id, feed: p.feed, cards: ranked.reversed().map(\.0),
                                                keys: ranked.reversed().map(\.1),
                                                validators: p.validators ?? CacheValidators(), now: now,
                                                nextDue: policy.nextDueAfterSuccess(now: now, hints: p.hints))
                if !p.source.stored.hasFeedTitle, p.source.entry.name == nil, let title = p.feed.title { p.report.name = title }
                p.report.outcome = .saved(new: saved.new, updated: saved.updated)
                p.report.warnings = p.warnings
            } catch {
                recordFailure(p.source, "could not save: \(error.localizedDescription)", report: &p.report, store: store, now: now)
            }
            report(p.report)
        }
        run.pending = [:]
    }

    /// What a status means for a search API, where the feed wording would mislead.
    static func searchStatusMessage(_ status: Int, search: SavedSearch) -> String? {
        switch status {
        case 403 where search.engine == .searxng:
            let format = search.format ?? "json"
            return "HTTP 403 Forbidden: this SearXNG instance does not allow format=\(format) (it must be listed under search: formats: in its settings.yml)" +
                (format == "json" ? ", or try format=rss" : "")
        case 401, 403:
            return "HTTP \(status) \(status == 401 ? "Unauthorized" : "Forbidden"): \(search.engine.displayName) refuses the search (an API key needed, or requests from scripts blocked)"
        case 404:
            return "HTTP 404 Not Found: no \(search.engine.displayName) API at this address; check endpoint="
        case 300...303, 305...399, 400, 402, 405...409, 411...428, 430...499:
            return "HTTP \(status): \(search.engine.displayName) did not answer the search"
        default:
            return nil
        }
    }
}

struct SearchRunError: Error, LocalizedError {
    static let tooManyFollowUps = SearchRunError(errorDescription:
        "the answer asked for more than \(SearchRun.maxFollowUps) further requests (a loop of search answers?); nothing was saved")
    var errorDescription: String?
}

/// One line for a person from any error.
enum CLIMessage {
    static func describe(_ error: Error) -> String {
        (error as? LocalizedError)?.errorDescription ?? String(describing: error)
    }
}
