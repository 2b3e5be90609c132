import Aggregator
import FeedModel
import Fetching
import Foundation
import HTMLDigest
import ImageCache
import Storage

/// The image cache as the commands use it: under the cache folder of `--home` (or XDG), its
/// metadata in the workspace's database, SQLite's or PostgreSQL's. On PostgreSQL the files are
/// this machine's: the one that writes the HTML site keeps them (the records are shared).
extension Workspace {
    func imageCache() throws -> ImageCache {
        ImageCache(directory: paths.cacheDirectory + "/images", store: try imageRecordStore)
    }

    /// The store of the image cache's records: the PostgreSQL one when the workspace opened
    /// one, else the home's SQLite.
    var imageRecordStore: any ImageRecordStore {
        get throws {
            if let postgres { return postgres }
            return try store
        }
    }
}

enum ImageDownloads {
    /// Fetch limits for images: the cache's size cap as the body cap, four at once per host
    /// (images usually come from one CDN per source), a shorter timeout than feeds get.
    static func limits(policy: ImageCachePolicy, allowInternal: Bool) -> FetchLimits {
        FetchLimits(userAgent: "feeds/\(Version.string) (feed reader; libcurl)", connectTimeout: .seconds(10),
                    totalTimeout: .seconds(20), maxBodyBytes: policy.maxImageBytes, maxWireBytes: policy.maxImageBytes,
                    maxRedirects: 5, maxInFlight: 16, maxPerHost: 4, allowInternalAddresses: allowInternal)
    }

    /// Images asked for in one run at most: a site regenerated from cron fills in the
    /// archive's pictures over a few runs instead of one run downloading thousands.
    static let maxRequestsPerRun = 200

    /// Downloads the images of the cards since `since`, then the pictures inside their posts,
    /// then the images of older cards never asked for, newest first, `maxRequestsPerRun` in all (each on an internal address only on its
    /// source's origin, unless `allowInternal`; a file only for a local source, in its folder).
    static func run(_ workspace: Workspace, model: DigestModel? = nil, since: Timestamp, now: Timestamp,
                    allowInternal: Bool, maxRequests: Int = maxRequestsPerRun) throws -> ImageDownloadSummary {
        let options = DigestOptions(since: since, now: now)
        let model = try model ?? DigestModel.load(from: workspace.digestStore, options: options)
        let cache = try workspace.imageCache()
        let fetcher = try Fetcher(limits: limits(policy: cache.policy, allowInternal: allowInternal))
        // A local source's URL as the file it is read from: the folder its images may be in.
        var origins: [SourceID: String] = [:]
        for source in try workspace.sources() where source.entry.isFile && source.entry.search == nil {
            origins[source.stored.id] = source.entry.requestURL(relativeTo: workspace.sourcesFolder)
        }
        var urls = try model.latestImageURLs(options)
        var sources = try model.latestImageSources(options, origins: origins)
        var known = Set(urls)
        let configured = Dictionary(model.sources.map { ($0.id, $0.configuration.url) }, uniquingKeysWith: { a, _ in a })
        // Then the pictures inside the latest posts, then older cards' pictures.
        for (url, sourceID) in try model.latestPostImages() + workspace.imageRecordStore.imagesNeverFetched(limit: maxRequests)
        where known.insert(url).inserted {
            urls.append(url)
            if let source = origins[sourceID] ?? configured[sourceID] { sources[url] = source }
        }
        return try cache.download(urls, sources: sources, fetcher: fetcher, now: now, maxRequests: maxRequests)
    }

    static func line(_ s: ImageDownloadSummary) -> String {
        "images: \(s.stored) downloaded, \(s.notModified) not modified, \(s.failed) failed, \(s.skipped) cached or backing off"
            + (s.leftOut > 0 ? ", \(s.leftOut) left out (cache full)" : "")
            + (s.postponed > 0 ? ", \(s.postponed) for the next runs (\(maxRequestsPerRun) a run)" : "")
    }
}

/// `html --since`: the grammar of every option (`TimeSpec`); a duration back from now is
/// rounded down to the hour: the pages name this moment and list the cards after it, so an
/// exact "now - 7d" would change them on every run (cron every 15 minutes would rewrite the
/// index each time for nothing).
enum SinceOption {
    static func parse(_ text: String, now: Timestamp, command: String) throws -> Timestamp {
        switch TimeSpec.parse(text) {
        case let .duration(seconds)?:
            let exact = now.secondsSince1970.saturatingSubtract(seconds)
            return Timestamp(secondsSince1970: exact - ((exact % 3_600) + 3_600) % 3_600)
        case let .moment(t)?:
            return t
        case nil:
            throw UsageError(TimeSpec.problem("--since", text), command: command)
        }
    }
}
