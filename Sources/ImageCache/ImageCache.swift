import FeedModel
import Fetching
import Foundation
import Storage

/// A stored image a page can show: the file on disk and its pixel size.
public struct CachedImage: Hashable, Sendable {
    public var url: String
    /// The file name stem: SHA-256 of the URL, first 32 hex digits.
    public var key: String
    public var type: ImageType
    /// The absolute path of the cached file.
    public var path: String
    public var bytes: Int
    public var width: Int?
    public var height: Int?

    /// `KEY.EXT`: the name the copy in a site gets.
    public var fileName: String { key + "." + type.fileExtension }
}

/// What a download run did.
public struct ImageDownloadSummary: Sendable, Hashable {
    public var requested = 0
    public var stored = 0
    public var notModified = 0
    public var failed = 0
    /// URLs skipped: still fresh, or inside a failure's back-off.
    public var skipped = 0
    public var evicted = 0
    /// Downloaded but not kept, or not asked for, because the cache was full (see
    /// `ImageRecord.isLeftOutForRoom`).
    public var leftOut = 0
    /// Wanted but not asked for in this run: beyond the run's cap (`download`'s `maxRequests`).
    public var postponed = 0
    public init() {}
}

/// Totals for `feeds cache stats`.
public struct ImageCacheStats: Sendable, Hashable {
    public var images = 0
    public var bytes = 0
    public var expired = 0
    public var failures = 0
    /// Failures still inside their back-off.
    public var backingOff = 0
    /// URLs left out for room (remembered, not downloaded again until they fit).
    public var leftOut = 0
}

/// Errors of the image cache: one line each, naming the file.
public enum ImageCacheError: Error, LocalizedError, Equatable, Sendable {
    case cannotWrite(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case let .cannotWrite(path, reason): return "cannot write \(path): \(reason); check the cache folder's permissions and free space"
        }
    }
}

/// Images on disk, named by a hash of their URL, with metadata in the store (`ImageRecordStore`:
/// SQLite's or PostgreSQL's table `cached_images`):
/// what SUSI's iOS client got from Kingfisher, for static pages. The type comes from the bytes
/// (`ImageSniffer`); a size cap per image and in total (least recently used go first); an
/// expiry renewed by use; failures remembered with exponential back-off so a dead image URL is
/// not asked for on every run. Every time is a `now:` parameter.
///
/// Not thread-safe: one cache, one store, one thread.
public final class ImageCache {
    /// The folder of cached files: `DIR/ab/KEY.EXT`.
    public let directory: String
    public let store: any ImageRecordStore
    public var policy: ImageCachePolicy

    public init(directory: String, store: any ImageRecordStore, policy: ImageCachePolicy = ImageCachePolicy()) {
        self.directory = directory
        self.store = store
        self.policy = policy
    }

    /// The file name stem for `url`: 128 bits of SHA-256 (stable across runs and versions).
    public static func key(for url: String) -> String { String(SHA256.hex(Array(url.utf8)).prefix(32)) }

    /// Where the file of `key` with `type` lives.
    public func path(key: String, type: ImageType) -> String {
        directory + "/" + key.prefix(2) + "/" + key + "." + type.fileExtension
    }

    // MARK: Reading

    /// The stored images among `urls`, marked used at `now` (which renews their expiry). A row
    /// whose file has gone (deleted by hand) is dropped, so the next download fetches it again.
    public func images(for urls: [String], now: Timestamp) throws -> [String: CachedImage] {
        let unique = Array(Set(urls))
        var out: [String: CachedImage] = [:]
        var gone: [String] = []
        for (url, record) in try store.imageRecords(urls: unique) {
            guard let image = cachedImage(record) else { continue }
            if FileManager.default.fileExists(atPath: image.path) { out[url] = image } else { gone.append(url) }
        }
        try store.deleteImages(gone)
        try store.touchImages(Array(out.keys), now: now, expiresAt: policy.expiry(from: now))
        return out
    }

    /// Every stored image (at most what the cap holds), not marked used: a site shows some of
    /// them and marks those (`markUsed`), without the list of every card's image URL (a
    /// million cards, a million URLs). A row whose file has gone is dropped.
    public func storedImages() throws -> [String: CachedImage] {
        var out: [String: CachedImage] = [:]
        var gone: [String] = []
        for record in try store.imageRecords() where record.isStored {
            guard let image = cachedImage(record) else { continue }
            if FileManager.default.fileExists(atPath: image.path) { out[record.url] = image } else { gone.append(record.url) }
        }
        try store.deleteImages(gone)
        return out
    }

    /// Marks these images used at `now`, which renews their expiry.
    public func markUsed(_ urls: [String], now: Timestamp) throws {
        try store.touchImages(urls, now: now, expiresAt: policy.expiry(from: now))
    }

    func cachedImage(_ record: ImageRecord) -> CachedImage? {
        guard let raw = record.type, let type = ImageType(rawValue: raw) else { return nil }
        return CachedImage(url: record.url, key: record.fileKey, type: type, path: path(key: record.fileKey, type: type),
                           bytes: record.bytes, width: record.width, height: record.height)
    }

    // MARK: Downloading

    /// The requests a download of `urls` needs at `now` (see `ImageCachePolicy.shouldFetch`),
    /// with validators for a conditional GET; `id` is the index in `urls`. Only http(s), and
    /// files of local sources (`isLocalImage`). `sources` maps an image URL to the URL of the
    /// source it came from (a local source's as an absolute `file://` URL): only on that
    /// source's origin may the image be on an internal address (see `AddressPolicy`).
    public func requests(for urls: [String], sources: [String: String] = [:], now: Timestamp,
                         freeBytes: Int = .max) throws -> [FetchRequest] {
        let records = try store.imageRecords(urls: urls)
        var seen = Set<String>()
        var out: [FetchRequest] = []
        for (i, url) in urls.enumerated() where seen.insert(url).inserted {
            let isFile = Self.isLocalImage(url, source: sources[url])
            guard url.hasPrefix("http://") || url.hasPrefix("https://") || isFile else { continue }
            // A URL no row can be kept under (U+0000) is never asked for: its outcome could not
            // be recorded, and it would be asked for again on every run.
            guard URLKey.isStorable(url) else { continue }
            let record = records[url]
            guard policy.shouldFetch(record, now: now, freeBytes: freeBytes) else { continue }
            let stored = record?.isStored == true
            out.append(FetchRequest(id: Int64(i), url: url, etag: stored ? record?.etag : nil,
                                    lastModified: stored ? record?.lastModified : nil,
                                    headers: ["Accept": "image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9"],
                                    allowFile: isFile,
                                    internalScope: sources[url].map { .sameOriginAs($0) } ?? .nowhere))
        }
        return out
    }

    /// Whether `url` is a file the cache may read: a `file://` image inside the folder of the
    /// local source (`file:///dir/feed.rss`) it came from (`LocalImage`). A file image of a
    /// source fetched over HTTP (or of no known source) is never read, whatever the store holds.
    static func isLocalImage(_ url: String, source: String?) -> Bool {
        guard url.hasPrefix("file:///"), let folder = LocalImage.folder(ofDocument: source) else { return false }
        return LocalImage.inside(url, folder: folder) != nil
    }

    /// Downloads what `urls` need through `fetcher` (its limits: per-host, timeouts, body cap),
    /// records each outcome, and keeps the total within `policy.maxTotalBytes` all along: before
    /// an image is written, least recently used images that `urls` does not want make room;
    /// when none is left, the image is not written but remembered as left out for room (see
    /// `ImageRecord.isLeftOutForRoom`), and no further batch of downloads starts.
    /// At most `maxRequests` requests go out (the first of `urls` first: callers put the
    /// newest cards' images first); the rest waits for a later run.
    public func download(_ urls: [String], sources: [String: String] = [:], fetcher: Fetcher, now: Timestamp,
                         maxRequests: Int = .max) throws -> ImageDownloadSummary {
        var summary = ImageDownloadSummary()
        // A cap lowered since the last run applies before anything new comes in.
        summary.evicted = try evict(now: now, expired: false)
        let wanted = Set(urls)
        let records = try store.imageRecords()
        var room = Room(cap: policy.maxTotalBytes, total: records.filter(\.isStored).reduce(0) { $0 + Int128($1.bytes) },
                        evictable: records.filter { $0.isStored && !wanted.contains($0.url) })
        let all = try requests(for: urls, sources: sources, now: now, freeBytes: room.free)
        let requests = Array(all.prefix(max(0, maxRequests)))
        summary.requested = requests.count
        summary.postponed = all.count - requests.count
        summary.skipped = wanted.count - all.count
        var firstError: Error?
        // In batches: once the cache is full, the rest is not even downloaded.
        let batch = max(1, fetcher.limits.maxInFlight) * 2
        var start = 0
        while start < requests.count && firstError == nil {
            if room.isFull {
                // Not asked for: remembered with the largest size an image may have, so they
                // are asked for once that much is free (not a batch more on every run).
                let rest = requests[start...]
                for request in rest {
                    try store.saveImage(.leftOutForRoom(url: request.url, fileKey: Self.key(for: request.url),
                                                        bytes: max(1, policy.maxImageBytes), now: now))
                }
                summary.leftOut += rest.count
                summary.requested -= rest.count
                break
            }
            let slice = Array(requests[start..<min(requests.count, start + batch)])
            start += slice.count
            fetcher.fetchAll(slice) { request, result in
                do {
                    switch try record(result, for: request.url, now: now, room: &room) {
                    case .stored: summary.stored += 1
                    case .notModified: summary.notModified += 1
                    case .failed: summary.failed += 1
                    case .leftOutForRoom: summary.leftOut += 1
                    }
                } catch {
                    if firstError == nil { firstError = error }
                }
            }
        }
        summary.evicted += room.evictedCount
        if let firstError { throw firstError }
        return summary
    }

    /// The cap as downloads fill the cache: the bytes stored, and what may go to make room
    /// (least recently used first). Sizes are the store's, in 128 bits: a row may hold up to
    /// Int.max, and neither a sum of such rows nor the cap minus one may trap or saturate.
    struct Room {
        let cap: Int128
        var total: Int128
        var evictable: [ImageRecord]
        var evictedCount = 0
        /// Set when an image found no room and nothing was left to evict.
        var isFull = false

        /// What the cap leaves, as an Int (clamped).
        var free: Int { Int(clamping: cap - total) }

        init(cap: Int, total: Int128, evictable: [ImageRecord]) {
            self.cap = Int128(cap)
            self.total = total
            self.evictable = evictable.sorted { ($0.lastUsedAt, $0.url) > ($1.lastUsedAt, $1.url) }  // LRU last: popped
        }

        static var unlimited: Room { Room(cap: .max, total: 0, evictable: []) }
    }

    /// Makes room for `bytes` replacing `oldBytes` of the same URL, evicting (and remembering)
    /// least recently used images; false when the cap cannot hold it.
    func makeRoom(_ room: inout Room, bytes: Int, replacing oldBytes: Int, now: Timestamp) throws -> Bool {
        guard Int128(bytes) <= room.cap else { return false }
        func after() -> Int128 { room.total - Int128(oldBytes) + Int128(bytes) }
        while after() > room.cap, let victim = room.evictable.popLast() {
            if let image = cachedImage(victim) { try? FileManager.default.removeItem(atPath: image.path) }
            try store.saveImage(.leftOutForRoom(url: victim.url, fileKey: victim.fileKey, bytes: victim.bytes, now: victim.lastUsedAt))
            room.total -= Int128(victim.bytes)
            room.evictedCount += 1
        }
        guard after() <= room.cap else {
            room.isFull = true
            return false
        }
        room.total = after()
        return true
    }

    public enum Outcome: Equatable, Sendable { case stored, notModified, failed(String), leftOutForRoom }

    /// Records the result of fetching `url` at `now`: a new file, a renewed expiry (304), or a
    /// failure with its back-off (the stored copy, if any, stays usable meanwhile).
    @discardableResult
    public func record(_ result: Result<FetchResponse, FetchError>, for url: String, now: Timestamp) throws -> Outcome {
        var room = Room.unlimited
        return try record(result, for: url, now: now, room: &room)
    }

    func record(_ result: Result<FetchResponse, FetchError>, for url: String, now: Timestamp, room: inout Room) throws -> Outcome {
        let existing = try store.imageRecord(url: url)
        func fail(_ reason: String) throws -> Outcome {
            let failures = (existing?.failures ?? 0) + 1
            var record = existing ?? ImageRecord(url: url, fileKey: Self.key(for: url), fetchedAt: now, lastUsedAt: now,
                                                 expiresAt: now)
            record.failures = failures
            record.retryAt = policy.retryAt(failures: failures, now: now)
            record.lastError = reason
            try store.saveImage(record)
            return .failed(reason)
        }
        let response: FetchResponse
        switch result {
        case .failure(let error): return try fail(error.errorDescription ?? "\(error)")
        case .success(let r): response = r
        }
        if response.status == 304, var record = existing, record.isStored {
            record.fetchedAt = now
            record.expiresAt = policy.expiry(from: now)
            record.failures = 0
            record.retryAt = nil
            record.lastError = nil
            try store.saveImage(record)
            return .notModified
        }
        guard response.status == 200 else { return try fail("HTTP \(response.status)") }
        guard response.body.count <= policy.maxImageBytes else {
            return try fail("image larger than \(policy.maxImageBytes) bytes")
        }
        guard let sniffed = ImageSniffer.sniff(response.body) else {
            return try fail("not a JPEG, PNG, GIF, WebP or AVIF image (\(response.contentType ?? "no type"))")
        }
        let key = Self.key(for: url)
        guard try makeRoom(&room, bytes: response.body.count, replacing: existing?.isStored == true ? existing?.bytes ?? 0 : 0, now: now) else {
            try store.saveImage(.leftOutForRoom(url: url, fileKey: key, bytes: response.body.count, now: now))
            return .leftOutForRoom
        }
        let file = path(key: key, type: sniffed.type)
        try writeAtomically(response.body, to: file)
        // The same URL may have changed type: remove the file of the old one.
        if let existing, let old = existing.type.flatMap(ImageType.init(rawValue:)), old != sniffed.type {
            try? FileManager.default.removeItem(atPath: path(key: existing.fileKey, type: old))
        }
        try store.saveImage(ImageRecord(url: url, fileKey: key, type: sniffed.type.rawValue, bytes: response.body.count,
                                        width: sniffed.width, height: sniffed.height, etag: response.etag,
                                        lastModified: response.lastModified, fetchedAt: now, lastUsedAt: now,
                                        expiresAt: policy.expiry(from: now)))
        return .stored
    }

    // MARK: Housekeeping

    /// Applies `ImageCachePolicy.evictions` (with `expired`: a prune) and deletes the files;
    /// returns how many rows went.
    @discardableResult
    public func evict(now: Timestamp, expired: Bool) throws -> Int {
        let victims = policy.evictions(try store.imageRecords(), now: now, expired: expired)
        for record in victims {
            if let image = cachedImage(record) { try? FileManager.default.removeItem(atPath: image.path) }
        }
        return try store.deleteImages(victims.map(\.url))
    }

    /// Deletes every cached image and every row, failures included; returns the rows deleted.
    @discardableResult
    public func clear() throws -> Int {
        let count = try store.clearImages()
        try? FileManager.default.removeItem(atPath: directory)
        return count
    }

    public func stats(now: Timestamp) throws -> ImageCacheStats {
        var stats = ImageCacheStats()
        for record in try store.imageRecords() {
            if record.isStored {
                stats.images += 1
                stats.bytes = stats.bytes.saturatingAdd(record.bytes)
                if record.expiresAt <= now { stats.expired += 1 }
            } else if record.isLeftOutForRoom {
                stats.leftOut += 1
            } else {
                stats.failures += 1
                if let retryAt = record.retryAt, retryAt > now { stats.backingOff += 1 }
            }
        }
        return stats
    }

    /// Writes to a temporary file in the same folder and renames it into place, so a reader
    /// (a page being served) sees the old file or the new one, never half of one.
    func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let temporary = folder + "/.tmp-\(getpid())-" + (path as NSString).lastPathComponent
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(atPath: temporary)
                throw ImageCacheError.cannotWrite(path: path, reason: reason)
            }
        } catch let error as ImageCacheError {
            throw error
        } catch {
            throw ImageCacheError.cannotWrite(path: path, reason: error.localizedDescription)
        }
    }
}
