import FeedModel
import FeedParsing
import Fetching
import Foundation
import Storage

/// What happened to one source in a run.
public struct SourceReport: Sendable {
    public enum Outcome: Sendable, Equatable {
        case saved(new: Int, updated: Int)
        case notModified
        case failed(String)
        /// 410 Gone: the source is disabled (also counted as a failure of this run).
        case disabled(String)
    }

    public var sourceID: SourceID
    public var name: String
    public var url: String
    public var outcome: Outcome
    /// A one-time note (a permanent redirect was recorded).
    public var note: String?
    /// Parser warnings (recovered from ill-formed XML, ...).
    public var warnings: [String]
    /// What a limit of the source cut (`max-items=`, `max-cards=`): shown at every run, on
    /// standard error, since it means items or unread cards the person will not see.
    public var limitNotes: [String] = []

    public var failed: Bool {
        switch outcome {
        case .failed, .disabled: return true
        default: return false
        }
    }

    /// `name: reason`, for standard error.
    public var failureLine: String? {
        switch outcome {
        case .failed(let reason), .disabled(let reason): return "\(name): \(reason)"
        default: return nil
        }
    }
}

public struct UpdateSummary: Sendable {
    /// The sources reported, and how many of them ended each way: counted as each report comes,
    /// so that a run need not keep a report of every source to say its line (issue 21: at
    /// 5,000 feeds the reports, ~100 bytes and a feed title each, were a megabyte of peak memory).
    public private(set) var sources = 0
    public private(set) var ok = 0
    public private(set) var notModified = 0
    public private(set) var failed = 0
    public private(set) var newCards = 0
    /// The reports themselves, in the order they came, when the run keeps them
    /// (`UpdateRunner.keepsReports`); empty when it only counts them.
    public private(set) var reports: [SourceReport] = []

    public init() {}

    /// Counts `report`, and keeps it when `keeping`.
    public mutating func add(_ report: SourceReport, keeping: Bool = true) {
        sources += 1
        switch report.outcome {
        case .saved(let new, _):
            ok += 1
            newCards += new
        case .notModified: notModified += 1
        case .failed, .disabled: failed += 1
        }
        if keeping { reports.append(report) }
    }

    /// `other`'s counts added to these, and its reports kept after these when `keeping`.
    public mutating func add(_ other: UpdateSummary, keeping: Bool = true) {
        sources += other.sources
        ok += other.ok
        notModified += other.notModified
        failed += other.failed
        newCards += other.newCards
        if keeping { reports += other.reports }
    }

    /// Room for `count` reports more, when they are kept.
    mutating func reserve(_ count: Int, keeping: Bool) {
        if keeping { reports.reserveCapacity(reports.count + count) }
    }

    /// `200 sources: 196 ok (1,204 new cards), 3 not modified, 1 failed`
    public var line: String {
        let n = sources
        return "\(n) source\(n == 1 ? "" : "s"): \(ok) ok (\(grouped(newCards)) new card\(newCards == 1 ? "" : "s")), \(notModified) not modified, \(failed) failed"
    }
}

func grouped(_ n: Int) -> String {
    let digits = String(n)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
        out.append(c)
    }
    return out
}

/// Which sources a run polls.
public enum UpdateSelection: Sendable, Equatable {
    /// Those whose next-due time has passed.
    case due
    /// All enabled sources, whatever the schedule (`--all`).
    case all
    /// These, named by URL or display name, disabled ones included.
    case named([String])
    /// This one, in the child process of an isolated fetch (`IsolatedFetch`).
    case isolatedChild(SourceID)
    /// These, which a worker leased (`UpdateWorker`), as the lease read them (so a batch reads
    /// no other source): sources another worker is reading carry reading marks too, so none is
    /// taken for a crash of an earlier run (the worker looks at the marks of its own).
    case leased([StoredSource])
}

/// `feeds update`: fetches the selected sources concurrently and, as each transfer completes,
/// parses it (on `parseWorkers` worker threads, so parsing overlaps with the downloads and with
/// saving) and saves its cards and fetch state in one transaction on the calling thread, the
/// only one that writes (so a kill at any moment leaves every source consistent).
public struct UpdateRunner {
    public var limits: FetchLimits
    public var policy = SchedulePolicy()
    /// Page previews of saved searches (`preview=yes`).
    public var previewPolicy = PagePreviewPolicy()
    /// The clock; read once per completed transfer, never inside the policy.
    public var clock: @Sendable () -> Timestamp
    /// 0..<1, for backoff jitter.
    public var random: @Sendable () -> Double
    /// Threads that parse feed bodies while this one fetches and writes; 0 parses on this thread.
    /// One: with this thread busy saving, that is two cores' worth of work, and each further
    /// worker holds another body and its cards (measured: +1 MB of peak memory for the second).
    public var parseWorkers = 1
    /// New cards after which the search index thread brings the index up to date during the
    /// run (the rest at its end; see `SearchIndexThread`). Their index rows (text extracted on
    /// the parsing thread) wait in memory until then, up to about 2 KB each. 500: at 200 feeds
    /// 100 measured better (the last refresh, which the run waits for, ~40 ms at 500; cold at
    /// 50 ms of latency -2%, peak memory -1 MB), but FTS5's merging grows with the index and
    /// each refresh is one more segment to merge: at 1,000 feeds (60,000 cards) the index thread
    /// took 39% of the run's CPU at 100, and 500 cut the run's CPU by 8% (9.5 -> 8.7 s).
    public var searchIndexBatch = 500
    /// Refreshes of the search index between two checkpoints of the logs by its thread (every
    /// 1,500 cards): each checkpoint copies every page changed since the last, and with the
    /// indexes' pages all over the file that is most of them each time. Measured at 1,000 feeds
    /// (CPU of the cold run): a checkpoint every 1,000 cards 8.8 s, every 3,000 8.2 s, only when
    /// a log reaches `checkpointPages` 8.0 s; at 200 feeds every 100 cards cost 46 fdatasyncs.
    /// Since the logs are started on their way to the disk as they are written (`FileWriteback`),
    /// 3 (1,500 cards) rather than 10 leaves less for the end of a run to copy and wait for:
    /// 200 new feeds, interleaved runs, on an empty home 29 of 32 faster (geometric mean 9%), on
    /// a million cards 24 of 30 (3% and 8% in two sets); 1,000 feeds cold the same (2.29-2.37 s
    /// against 2.41-2.47 s, CPU 3.17-3.32 s against 3.18-3.34 s).
    public var checkpointEveryRefreshes = 3
    /// Body bytes waiting to be parsed plus those the running downloads are expected to bring
    /// (their number times the mean body so far) above which no further download starts:
    /// bounds peak memory, which 24 feeds arriving at once from a fast host would otherwise
    /// raise by several megabytes. Measured cold on 200 feeds: 512 KiB starved the parser
    /// (three bodies of the shared benchmark's 132 KB ahead of it; it sat idle half the run):
    /// 2.4 s where 1 MiB took 1.85 s. With 50 ms of latency the downloads counted here mostly
    /// wait for the server, and 1 MiB held them to ~16 at once: 1.4 s where 2 MiB took 1.07 s
    /// (make bench's feeds). 2 MiB costs up to 2 MB more peak memory; 4 MiB bought nothing.
    /// Back to 1 MiB for the 40 MB goal (issue 21), since each download started also holds
    /// curl's buffers and connection (~19 KB) besides its body: peak RSS cold at 200 feeds
    /// -2.6 MB (42.4 -> 40.7 MB alone), at 1,000 -1 to -2.8 MB. With the parsing no longer
    /// waiting on statement journals (`FeedStore.tuneForBulkWrites`) the parser kept up: at
    /// 0 ms 0.84 s either way (200 feeds), at 50 ms 1,000 feeds 8.1-9.4 s either way (load 7).
    public var maxBufferedBytes = 1 << 20
    /// The outcomes of finished sources are written together, in one transaction, once this
    /// many cards, sources or parsed body bytes wait (and at the end of the run): a commit per
    /// source wrote the same index pages to the log again and again (443 log frames per source
    /// of 60 cards, 200 sources: 145,000 writes). The bytes bound what the parsed cards waiting
    /// hold in memory; a kill loses only the waiting outcomes, which the next run fetches again.
    /// 1 MiB (with ~60 KB feeds it is the bound that ends a batch): the parsed cards waiting
    /// weigh about twice their bodies. It was 512 KiB for the 40 MB goal (-1 MB of peak memory
    /// for +17% pwrite calls a card at 1,000 feeds); once the binary's code was ordered (~5 MB
    /// less resident, tools/symbol-order.sh) back to 1 MiB: 5,000 feeds cold, two interleaved
    /// pairs after a sync, CPU 26.2 -> 25.0 s, wall 20.2 -> 19.0 s, peak RSS 37.0 -> 38.2 MB.
    /// (A 2 MiB page cache beside it bought nothing measurable for another 0.5 MB.)
    /// 2 MiB was tried for a big database (issue 21) and not kept: each commit rewrites the
    /// leaves, near the newest date, of the three indexes ordered by date that the new cards
    /// enter, so half as many commits wrote 16,200 log frames instead of 19,750 for 200 new
    /// feeds on a million cards, and `make bench` read 5,000 feeds cold 17.3 -> 15.4 s (CPU
    /// 21.8 -> 19.9 s), the million's update 0.99 -> 0.90 s; but on the shared yardstick's
    /// feeds of up to 1 MB (1,000 feeds, 20 hosts) peak RSS rose 36.9 -> 38.7-39.6 MB, within a
    /// megabyte of the 40 MB goal, for a wall time within the noise (7.93 s against 7.61 and
    /// 9.48). 4 MiB took the least CPU but stalled the loop longest (the saving runs on the
    /// thread that drives the downloads): 1,000 feeds 3.4-3.5 s against 3.0-3.4.
    public var saveBatchCards = 2_000
    public var saveBatchSources = 100
    public var saveBatchBytes = 1 << 20
    /// Index rows waiting for the search index thread at most (see `SearchIndexThread`): rows
    /// past it are dropped and the thread reads those cards back instead. Each is up to ~2.5 KB
    /// (title, 2 KB of text, author): 4,000 could hold 10 MB while the thread merges.
    public var searchRowsWaiting = 1_000
    /// The page cache of the search index thread's connection to the index file (SQLite's
    /// default is 2,000 KiB): FTS5's merges read and write segments all over the file, and the
    /// cache fills whatever its size. 1 MiB: -1 MB of peak memory at 200 feeds.
    public var searchIndexCacheKiB = 1_024
    /// Write-ahead log pages after which the saving thread itself checkpoints (64 MB at most:
    /// the search index thread checkpoints the log without waiting after each of its refreshes,
    /// so this is the bound should it fall behind), and SQLite's page cache: see
    /// `FeedStore.tuneForBulkWrites`.
    public var checkpointPages = 16_000
    public var cacheKiB = 1_024
    /// How sources with an `isolatedReason` are fetched: each in a child process of its own,
    /// after the others. Nil fetches them with the others (the child itself; tests).
    public var isolation: IsolatedFetch?
    /// Called while a source is being read (its mark set): the tests' way to make a run die
    /// there as a trap would (`feeds` sets it only in debug builds, from FEEDS_TEST_TRAP_READING).
    public var whileReading: (@Sendable (SourceEntry) -> Void)?
    /// Hosts shared with other workers (PostgreSQL): request slots and backoff in the database
    /// (`SharedHostGate`); nil: this run's own per-host limits only.
    public var sharedHosts: SharedHosts?
    /// Whether the summary keeps each source's report (`UpdateSummary.reports`: tests, a
    /// worker's batch, the child of an isolated fetch) or only counts them: `feeds update`
    /// prints what a report says as it comes (`progress`) and only the counts at the end, and
    /// 5,000 reports kept to the end were a megabyte of its peak memory (issue 21).
    public var keepsReports = true

    public init(limits: FetchLimits, policy: SchedulePolicy = SchedulePolicy(),
                clock: @escaping @Sendable () -> Timestamp = UpdateRunner.systemClock,
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.limits = limits
        self.policy = policy
        self.clock = clock
        self.random = random
    }

    @Sendable public static func systemClock() -> Timestamp {
        Timestamp(secondsSince1970: Int64(Date().timeIntervalSince1970))
    }

    /// One dictionary that every request shares (a literal per request was one allocation each).
    static let acceptHeaders = ["Accept": accept]
    static let accept = "application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8"

    /// The sources `selection` picks, in file order (their card counts not counted: see
    /// `FeedStore.sources(counting:)`), each as its line's index in `workspace.entries` and its
    /// stored state. Throws `noSuchSource` for a name that matches nothing.
    public func select(_ selection: UpdateSelection, in workspace: Workspace, now: Timestamp) throws -> [(entry: Int, stored: StoredSource)] {
        func listed(_ keep: (StoredSource) -> Bool) throws -> [(entry: Int, stored: StoredSource)] {
            let paired = try workspace.pairedSources(counting: false)
            var picked: [(entry: Int, stored: StoredSource)] = []
            picked.reserveCapacity(paired.listed.count)
            for pair in paired.listed where keep(paired.stored[pair.stored]) { picked.append((pair.entry, paired.stored[pair.stored])) }
            return picked
        }
        switch selection {
        case .all:
            return try listed { !$0.isDisabled }
        case .due:
            // The due sources alone, paired with the file's lines as `pairedSources` pairs every
            // stored source (by URL, in file order): reading every source besides them took
            // 40 ms of each update with 7,600 sources, when 200 of them were due (issue 21).
            let due = try workspace.updateStore.dueSources(at: now, counting: false)
            let matched = SourcePairing.match(try workspace.entries, due, entryURL: \.url, storedURL: \.configuration.url)
            return matched.enumerated().compactMap { entry, index in index.map { (entry, due[$0]) } }
        case .isolatedChild(let id):
            return try listed { $0.id == id }
        case .leased(let leased):
            // Paired with the file's lines by URL, in file order, as `Workspace.sources` pairs them.
            let byURL = Dictionary(leased.map { ($0.configuration.url, $0) }, uniquingKeysWith: { first, _ in first })
            return try workspace.entries.enumerated().compactMap { index, entry in byURL[entry.url].map { (index, $0) } }
        case .named(let names):
            var picked: [(entry: Int, stored: StoredSource)] = []
            var seen = Set<SourceID>()
            for name in names {
                let found = try workspace.matchIndexed(name)
                guard !found.isEmpty else { throw AggregatorError.noSuchSource(name) }
                for f in found where seen.insert(f.stored.id).inserted { picked.append(f) }
            }
            return picked
        }
    }

    public func run(_ selection: UpdateSelection, in workspace: Workspace,
                    progress: (SourceReport, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) throws -> UpdateSummary {
        // Sources the last run stopped in are failures of that run, recorded now (backed off,
        // and isolated from now on), and not fetched again in this one.
        var interrupted: [SourceReport] = []
        switch selection {
        case .isolatedChild, .leased: break
        // On PostgreSQL a mark may be a live worker's, reading the source now: the worker that
        // takes a source over after a crash deals with its mark (`UpdateWorker`), not this run.
        case _ where workspace.postgres != nil: break
        default: interrupted = try recordInterrupted(in: workspace)
        }
        let stopped = Set(interrupted.map(\.sourceID))
        var chosen = try select(selection, in: workspace, now: clock())
        if !stopped.isEmpty { chosen.removeAll { stopped.contains($0.stored.id) } }
        let entries = try workspace.entries
        var isolated: [(entry: SourceEntry, stored: StoredSource)] = []
        if isolation != nil {
            isolated = chosen.filter { $0.stored.isolatedReason != nil }.map { (entries[$0.entry], $0.stored) }
            chosen.removeAll { $0.stored.isolatedReason != nil }
        }
        // Once: resolving it reads every symlink on the path (5 readlink calls), per source it was.
        let folder = workspace.sourcesFolder
        let fetchURLs = try workspace.updateStore.fetchURLs()
        let claims = RedirectClaims(entries, fetchURLs: fetchURLs, folder: folder, sourcesFile: workspace.paths.sourcesFile)
        // A source whose recorded redirect leads to another line's address is not fetched: that
        // line's cards are the ones kept; the person is told which line to delete, at every run.
        var duplicates: [SourceReport] = []
        chosen.removeAll { source in
            let entry = entries[source.entry]
            guard entry.search == nil, let moved = source.stored.fetchURL,
                  let warning = claims.conflict(entry, redirectsTo: moved) else { return false }
            duplicates.append(SourceReport(sourceID: source.stored.id, name: source.stored.displayName, url: entry.url,
                                           outcome: .notModified, note: warning, warnings: []))
            return true
        }
        // What the run holds of each chosen source (`RunSlot`), and `chosen` let go of. On
        // SQLite each source's `RunState` is read when its request is made (`RunStates`).
        let sqlite = workspace.postgres == nil ? try? workspace.store : nil
        var slots: [RunSlot] = []
        slots.reserveCapacity(chosen.count)
        var held: [RunState] = []
        if sqlite == nil { held.reserveCapacity(chosen.count) }
        for index in chosen.indices {
            // Naming a disabled source (410 Gone) asks for it again: it gets a fresh start.
            if case .named = selection, chosen[index].stored.isDisabled {
                try workspace.updateStore.enable(sourceID: chosen[index].stored.id)
                chosen[index].stored.disabledReason = nil
                chosen[index].stored.consecutiveFailures = 0
            }
            slots.append(RunSlot(entry: chosen[index].entry, id: chosen[index].stored.id))
            if sqlite == nil { held.append(RunState(chosen[index].stored)) }
        }
        chosen = []
        let states = RunStates(held: sqlite == nil ? held : nil, store: sqlite, fetchURLs: fetchURLs)
        held = []
        /// The source at `position` of the run, its state read if it was not (`RunStates`).
        func runSource(_ position: Int) -> RunSource {
            let slot = slots[position]
            let entry = entries[slot.entry]
            return (entry, states.state(position, slot, entry: entry))
        }
        /// The URL and `allowFile` of `request(position)`, without reading the source's state.
        func address(_ position: Int) -> (url: String, allowFile: Bool) {
            let entry = entries[slots[position].entry]
            if let search = entry.search { return (search.requestURL(relativeTo: folder), search.endpointIsFile) }
            return Self.feedTarget(entry, fetchURL: states.fetchURL(position, entry: entry), folder: folder)
        }
        /// The request of the source at `index`, made when the fetcher starts it (see
        /// `Fetcher.fetchAll`): its id is that index.
        func request(_ index: Int) -> FetchRequest {
            let source = runSource(index)
            if let search = source.entry.search {
                var request = searchRequest(source, search, folder: folder)
                request.id = Int64(index)
                return request
            }
            let target = Self.feedTarget(source.entry, fetchURL: source.stored.fetchURL, folder: folder)
            // Internal addresses on the origin the owner wrote, not on one a redirect taught.
            return FetchRequest(id: Int64(index), url: target.url,
                                etag: source.stored.validators.etag,
                                lastModified: source.stored.validators.lastModified,
                                headers: Self.acceptHeaders,
                                allowFile: target.allowFile,
                                internalScope: .sameOriginAs(source.entry.requestURL(relativeTo: folder)),
                                likelyNotModified: source.stored.lastAnswerNotModified && source.stored.validators != CacheValidators())
        }
        var summary = UpdateSummary()
        let total = interrupted.count + duplicates.count + slots.count + isolated.count
        summary.reserve(total, keeping: keepsReports)
        for report in interrupted + duplicates {
            summary.add(report, keeping: keepsReports)
            progress(report, summary.sources, total)
        }
        let fetcher = try Fetcher(limits: limits)
        let gate = sharedHosts.map {
            SharedHostGate(state: $0.state, worker: $0.worker, limit: limits.maxPerHost, slotSeconds: $0.slotSeconds, clock: clock)
        }
        fetcher.hostGate = gate
        // Each host starts at the limit the last run left it at (SQLite, without hosts shared
        // with other workers): see `FeedStore.hostStartLimits`.
        let hostMemory = gate == nil && limits.perHostStart != nil ? sqlite : nil
        if let hostMemory { fetcher.hostStartLimits = (try? hostMemory.hostStartLimits(now: clock())) ?? [:] }
        defer { gate?.releaseAll() }
        // Saved searches are fetched with the feeds; their follow-up requests, page previews
        // and saving come after (see SearchUpdate.swift).
        var searches = SearchRun(folder: folder)
        let store = workspace.updateStore
        try? store.tuneForBulkWrites(checkpointPages: checkpointPages, cacheKiB: cacheKiB)
        // No index to feed on PostgreSQL (`SearchIndexFeeding`).
        let indexing = store.searchIndexPath.map {
            SearchIndexThread(storePath: $0, batch: searchIndexBatch, checkpointEvery: checkpointEveryRefreshes,
                              maxWaiting: searchRowsWaiting, cacheKiB: searchIndexCacheKiB)
        }
        var indexingFinished = false
        func finishIndexing() {
            guard !indexingFinished, let indexing else { return }
            indexingFinished = true
            indexing.submit(store.takeSearchRows())
            // A failed refresh is caught up by the next run or search (the index follows the
            // database, not the run); the change log is kept for it.
            if case .success(let refresh) = indexing.finish() {
                try? store.forgetSearchChanges(through: refresh.changesThrough)
            }
        }
        defer { finishIndexing() }
        func finished(_ report: SourceReport) {
            summary.add(report, keeping: keepsReports)
            progress(report, summary.sources, total)
            indexing?.submit(store.takeSearchRows())
        }

        // Feeds whose body is being parsed, by request id.
        var parsing: [Int64: Received] = [:]
        let waker = fetcher.waker
        let pool = parseWorkers > 0 ? ParsePool(workers: parseWorkers, capacity: parseWorkers + 3) { waker.wake() } : nil
        defer {
            pool?.close()
            withExtendedLifetime(fetcher) {}  // the workers' waker points into it
        }
        // Outcomes waiting to be written together (see `saveBatchCards`), and the sources among
        // them whose reading marks the next mark clears (parsed: their reading is over).
        var queued: [() -> SourceReport] = []
        var queuedCards = 0, queuedBytes = 0
        var released: [SourceID] = []
        func flush() {
            guard !queued.isEmpty else { return }
            let writes = queued
            (queued, queuedCards, queuedBytes, released) = ([], 0, 0, [])
            var reports: [SourceReport] = []
            reports.reserveCapacity(writes.count)
            do {
                try store.inOneTransaction { for write in writes { reports.append(write()) } }
            } catch {
                // Not committed (the lock, a full disk): each on its own, so each source gets
                // its own outcome or its own error, as without batching.
                reports = writes.map { $0() }
            }
            for report in reports { finished(report) }
        }
        func enqueue(cards: Int = 0, bytes: Int = 0, _ write: @escaping () -> SourceReport) {
            queued.append(write)
            queuedCards += cards
            queuedBytes += bytes
            if queuedCards >= saveBatchCards || queued.count >= saveBatchSources || queuedBytes >= saveBatchBytes { flush() }
        }
        func saveParsed(_ done: (id: Int64, outcome: ParsePool.Outcome)) {
            guard let received = parsing.removeValue(forKey: done.id) else { return }
            released.append(received.source.stored.id)
            var cards = 0
            if case .parsed(_, let count, _, _, _) = done.outcome { cards = count }
            enqueue(cards: cards, bytes: received.bodyBytes) { save(received, done.outcome, store: store) }
        }

        fetcher.fetchAll(count: slots.count, address: address, request: request, onComplete: { request, result in
            guard let index = Int(exactly: request.id), slots.indices.contains(index) else { return }
            // From here the source's state goes with its outcome (the writes queued, the parse).
            let slot = slots[index]
            let entry = entries[slot.entry]
            let source: RunSource = (entry, states.take(index, slot, entry: entry))
            if source.entry.search != nil {
                if let report = searchStep(&searches, source, request: request, result: result, store: store) { finished(report) }
                return
            }
            let now = clock()
            // Anything but a feed to parse (304, an error): recorded with the next batch.
            guard pool == nil || Self.bringsFeed(result) else {
                let answer = result.map(\.withoutBody)
                return enqueue { receive(source, request: request, result: answer, store: store, now: now, claims: claims,
                                         marking: false).report }
            }
            let (response, hints, report) = receive(source, request: request, result: result, store: store, now: now, claims: claims,
                                                    releasing: released)
            released = []
            guard let response else { return finished(report) }
            let received = Received(source: source, response: response.withoutBody, hints: hints, report: report, now: now,
                                    bodyBytes: response.body.count)
            let options = ParseOptions(baseURL: response.finalURL, charset: response.charset)
            guard let pool else {
                return finished(save(received, ParsePool.parse(.init(id: request.id, body: response.body, options: options,
                                                                     maxItems: source.entry.itemLimit, rules: source.entry.rules)),
                                     store: store))
            }
            parsing[request.id] = received
            let job = ParsePool.Job(id: request.id, body: response.body, options: options, maxItems: source.entry.itemLimit,
                                    rules: source.entry.rules)
            // Full: save what is parsed (waiting for it) until there is room.
            while !pool.submit(job) {
                if let done = pool.next(wait: true) { saveParsed(done) }
            }
        }, whileWaiting: {
            while let done = pool?.next(wait: false) { saveParsed(done) }
        }, mayStart: { load in
            // Parsing far behind, or bodies enough waiting and on their way: more downloads now
            // would only wait in memory (peak memory is a goal: see README). Short of that,
            // downloads run ahead of the parser so it never waits for the network. Conditional
            // GETs answered 304 carry no body, so a run of them is never held back by this.
            guard let pool else { return load.expectedBodyBytes < maxBufferedBytes }
            let pending = pool.pending
            return pending.count < pool.capacity && load.expectedBodyBytes + pending.bytes < maxBufferedBytes
        })
        while let done = pool?.next(wait: true) { saveParsed(done) }
        flush()
        if let hostMemory { try? hostMemory.recordHostLimits(fetcher.hostLimits.mapValues(\.limit), now: clock()) }
        if !searches.pending.isEmpty {
            finishSearches(&searches, fetcher: fetcher, store: store, report: finished)
        }
        // Retention: read cards past their source's keep-days/keep-cards (never unread ones).
        _ = try? store.prune(now: clock(), defaultKeepDays: nil, defaultKeepCount: nil)
        // The index thread's last refresh starts now, and runs beside what follows: the title
        // order's new keys into its big table, once enough wait (a listing reads both tables,
        // so a failure here loses nothing: a later run folds them), and the log copied into the
        // database file (see `UpdateBatching.finishBulkWrites`).
        indexing?.submit(store.takeSearchRows())
        indexing?.lastRowsSubmitted()
        try? store.finishBulkWrites()
        // The search index takes the rest of the run's cards and the deletes (a search would
        // do it too; here it costs the reader nothing).
        finishIndexing()
        // Last, one at a time, each in a process of its own (which indexes its own cards).
        if let isolation {
            for source in isolated {
                let report = fetchIsolated(source, with: isolation, store: store)
                summary.add(report, keeping: keepsReports)
                progress(report, summary.sources, total)
            }
        }
        // The index thread's connection is closed by now, and the isolated processes' too. An
        // isolated child leaves that to its parent, whose connection stays open meanwhile.
        if case .isolatedChild = selection {} else { try? store.leaveLogForNextRun() }
        return summary
    }

    /// A feed's 2xx response waiting for its body to be parsed: what saving it needs.
    struct Received {
        var source: RunSource
        /// The response without its body (the parser has that).
        var response: FetchResponse
        var hints: SchedulePolicy.Hints
        var report: SourceReport
        /// When the transfer completed: the time recorded for it.
        var now: Timestamp
        /// The body's size (what its cards hold in memory, roughly, once parsed).
        var bodyBytes = 0
    }

    /// Where a feed's line is fetched: the permanent redirect recorded for it, else the line's
    /// own address; a local file only when it is the line's own (never one a redirect taught).
    static func feedTarget(_ entry: SourceEntry, fetchURL: String?, folder: String) -> (url: String, allowFile: Bool) {
        (fetchURL ?? entry.requestURL(relativeTo: folder), entry.isFile && fetchURL == nil)
    }

    /// Whether a transfer's result is a feed's body to parse (a 2xx), as `receive` decides.
    static func bringsFeed(_ result: Result<FetchResponse, FetchError>) -> Bool {
        if case .success(let response) = result { return (200...299).contains(response.status) }
        return false
    }

    /// Parses and saves one completed transfer on this thread; every failure becomes the
    /// source's recorded error rather than an exception, so one bad source never stops the others.
    func handle(_ source: RunSource, request: FetchRequest,
                result: Result<FetchResponse, FetchError>, store: any UpdateRunStore) -> SourceReport {
        let now = clock()
        let (response, hints, received) = receive(source, request: request, result: result, store: store, now: now)
        guard let response else { return received }
        let outcome = ParsePool.parse(.init(id: request.id, body: response.body,
                                            options: ParseOptions(baseURL: response.finalURL, charset: response.charset),
                                            maxItems: source.entry.itemLimit, rules: source.entry.rules))
        return save(Received(source: source, response: response.withoutBody, hints: hints, report: received, now: now),
                    outcome, store: store)
    }

    /// Saves a parsed feed, or records why it could not be parsed or saved.
    func save(_ received: Received, _ outcome: ParsePool.Outcome, store: any UpdateRunStore) -> SourceReport {
        let (source, response, now) = (received.source, received.response, received.now)
        var report = received.report
        do {
            let parsed: ParsedFeed
            let cardCount: Int
            let prepared: PreparedCards
            let dropped: Int
            var tally = ParsePool.RuleTally()
            switch outcome {
            case .failed(let message):
                recordFailure(source, message, report: &report, store: store, now: now)
                return report
            case .parsed(let feed, let count, let cards, let past, let rules):
                (parsed, cardCount, prepared, dropped, tally) = (feed, count, cards, past, rules)
            }
            // Nothing recognisable, or an ill-formed document that gave nothing: a failure
            // that keeps the saved cards, rather than a success with zero items.
            // (A refused value, such as a ttl out of range, says nothing about the document.)
            if parsed.format == nil || (cardCount == 0 && tally.skipped == 0 && parsed.warnings.contains { !IgnoredValue.isIgnoredValue($0) }) {
                let why = parsed.warnings.first ?? "no feed element found"
                recordFailure(source, parsed.format == nil ? "not a feed: \(why)" : "malformed feed: \(parsed.warnings.joined(separator: "; "))",
                              report: &report, store: store, now: now)
                return report
            }
            var feedHints = received.hints
            feedHints.feedRefresh = parsed.feed.refreshHintSeconds
            let saved = try store.saveFetch(sourceID: source.stored.id, feed: parsed.feed, prepared: prepared,
                                            validators: CacheValidators(etag: response.etag, lastModified: response.lastModified),
                                            now: now, nextDue: policy.nextDueAfterSuccess(now: now, hints: feedHints),
                                            skipped: tally.skipped)
            // Degraded until a clean fetch: shown by `feeds sources` (written only when it changes).
            if parsed.degraded != source.stored.degraded { try store.recordDegraded(sourceID: source.stored.id, note: parsed.degraded) }
            if !source.stored.hasFeedTitle, source.entry.name == nil, let title = parsed.feed.title { report.name = title }
            report.outcome = .saved(new: saved.new, updated: saved.updated)
            report.warnings = parsed.warnings
            if tally.stopped {
                report.limitNotes.append("\(report.name): the skip=/keep= rules took longer than \(CardRuleFilter.fetchBudget) on this feed's "
                    + "text; its other cards were saved unfiltered (a pattern that backtracks, like (a+)+, is the usual cause)")
            }
            if let degraded = parsed.degraded, degraded != source.stored.degraded {
                // Newly degraded (or differently): said without -v too, once; `feeds sources`
                // shows it until a clean fetch.
                report.limitNotes.append("\(report.name): \(degraded)")
                report.warnings.removeAll { $0 == degraded }
            }
            if dropped > 0 {
                report.limitNotes.append("\(report.name): the feed lists \(grouped(cardCount + dropped)) items; kept the first "
                    + "\(grouped(cardCount)) in its order (max-items=\(source.entry.itemLimit); raise it on the source's line to keep more)")
            }
            let capped = try store.capCards(sourceID: source.stored.id, max: source.entry.cardLimit)
            if capped.unread > 0 {
                report.limitNotes.append("\(report.name): over max-cards=\(source.entry.cardLimit): deleted the \(grouped(capped.unread)) oldest "
                    + "unread card\(capped.unread == 1 ? "" : "s") the feed no longer lists (and \(grouped(capped.read)) read); "
                    + "raise max-cards= on the source's line to keep more")
            }
        } catch {
            recordFailure(source, "could not save: \(error.localizedDescription)", report: &report, store: store, now: now)
        }
        return report
    }

    /// Records a failure (with backoff) as the source's state and in `report`.
    func recordFailure(_ source: RunSource, _ message: String, retryAfter: Int64? = nil,
                       report: inout SourceReport, store: any UpdateRunStore, now: Timestamp) {
        let due = policy.nextDueAfterFailure(now: now, failures: source.stored.consecutiveFailures.saturatingAdd(1),
                                             retryAfter: retryAfter, jitter: random())
        do {
            try store.recordFailure(sourceID: source.stored.id, message: message, now: now, nextDue: due)
            report.outcome = .failed(message)
        } catch {
            report.outcome = .failed(message + " (and the failure could not be recorded: \(error.localizedDescription))")
        }
    }

    /// What every completed transfer goes through before its body is read, feed or search: a
    /// transport failure, 304, 410, 429/503 and other statuses are recorded here (returned
    /// response nil); a 2xx comes back with the schedule hints for the caller to parse and save.
    /// `statusMessage` lets a caller say more about a status than the feed wording.
    func receive(_ source: RunSource, request: FetchRequest,
                 result: Result<FetchResponse, FetchError>, store: any UpdateRunStore, now: Timestamp,
                 claims: RedirectClaims? = nil, releasing: [SourceID] = [], marking: Bool = true,
                 statusMessage: (Int) -> String? = { _ in nil })
        -> (response: FetchResponse?, hints: SchedulePolicy.Hints, report: SourceReport) {
        let id = source.stored.id
        var report = SourceReport(sourceID: id, name: source.stored.displayName, url: source.entry.url,
                                  outcome: .notModified, note: nil, warnings: [])
        var hints = SchedulePolicy.Hints(every: source.entry.everySeconds, feedRefresh: source.stored.refreshHintSeconds,
                                         maxAge: nil, expires: nil)
        func fail(_ message: String, retryAfter: Int64? = nil) {
            recordFailure(source, message, retryAfter: retryAfter, report: &report, store: store, now: now)
        }
        // From here until its outcome is recorded, a run that dies names this source to the next
        // one (see `recordInterrupted`). Unmarked when the mark cannot be written: the source is
        // still read (the run would fail at the next write anyway, and say why). Not `marking`:
        // an answer with no body to parse (304, an error), recorded in the same transaction as
        // the mark would be, which could then never be seen set: one UPDATE a source saved of
        // an all-304 pass.
        if marking { try? store.markReading(sourceID: id, now: now, releasing: releasing) }
        whileReading?(source.entry)
        do {
            let response: FetchResponse
            switch result {
            case .failure(let error):
                fail(error.localizedDescription, retryAfter: Self.sharedBackoffSeconds(error))
                if let limit = Self.exceededLimit(error) {
                    try? store.isolate(sourceID: id, reason: limit)
                }
                return (nil, hints, report)
            case .success(let r):
                response = r
            }
            let status = response.status
            // A search's URL is made from its line at each run, so a redirect is not recorded.
            if source.entry.search == nil, let moved = response.permanentRedirect, moved != request.url, status == 304 || (200...299).contains(status) {
                if let claims, let warning = claims.conflict(source.entry, redirectsTo: moved) {
                    // Another line's address: its cards are that line's; these are not saved.
                    // Onto a listed line's URL, the redirect is recorded, so later runs do not
                    // fetch this line at all. Onto where another line redirects too, it is not:
                    // the line whose cards were saved (the first to arrive) keeps the address at
                    // every later run (recording it for both let the earlier line take it over at
                    // the next run and save every card again).
                    if claims.isListed(moved) { try store.updateFetchURL(sourceID: id, to: moved) }
                    try store.recordNotModified(sourceID: id, now: now, nextDue: policy.nextDueAfterSuccess(now: now, hints: hints))
                    report.note = warning
                    return (nil, hints, report)
                }
                try store.updateFetchURL(sourceID: id, to: moved)
                report.note = "\(report.name): moved permanently to \(moved); feeds now fetches that address (the sources file still lists \(source.entry.url): update it when convenient)"
            }
            hints.maxAge = response.maxAgeSeconds
            hints.expires = response.expiresSeconds
            if let message = statusMessage(status) {
                fail(message)
                return (nil, hints, report)
            }
            switch status {
            case 304:
                try store.recordNotModified(sourceID: id,
                                            validators: CacheValidators(etag: response.etag, lastModified: response.lastModified),
                                            now: now, nextDue: policy.nextDueAfterSuccess(now: now, hints: hints))
                report.outcome = .notModified
            case 200...299:
                return (response, hints, report)
            case 410:
                let message = "HTTP 410 Gone: the feed was removed for good; source disabled (remove it with 'feeds remove', or fix the URL)"
                fail(message)
                try store.disable(sourceID: id, reason: message)
                report.outcome = .disabled(message)
            case 429, 503:
                let wait = response.retryAfterSeconds(now: now.secondsSince1970)
                // What the policy makes of it (a week at most), which is what the message says.
                let asked = wait.map { asked -> String in
                    let honoured = min(max(asked, 1), policy.maximumRetryAfter)
                    return honoured == asked ? ": retrying after \(asked) s as the server asked"
                                             : ": retrying after \(honoured) s (the server asked for \(asked) s)"
                }
                fail("HTTP \(status) \(status == 429 ? "Too Many Requests" : "Service Unavailable")" + (asked ?? ": will retry later"),
                     retryAfter: wait)
                shareBackoff(of: request.url, retryAfter: wait, now: now)
            case 404:
                fail("HTTP 404 Not Found: the feed is not at this URL any more; check it")
            case 401, 403:
                fail("HTTP \(status) \(status == 401 ? "Unauthorized" : "Forbidden"): the server refuses access to the feed")
            case 500...599:
                fail("HTTP \(status): server error; will retry with backoff")
            default:
                fail("HTTP \(status): not a feed response")
            }
        } catch {
            fail("could not save: \(error.localizedDescription)")
        }
        return (nil, hints, report)
    }
}

extension FetchResponse {
    /// The same response with an empty body (what is kept while the body is parsed elsewhere).
    var withoutBody: FetchResponse {
        var copy = self
        copy.body = []
        return copy
    }
}

