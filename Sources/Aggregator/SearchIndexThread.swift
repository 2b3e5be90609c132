import Foundation
import Markup
import Storage

/// Indexes the cards of a `feeds update` for search on a thread of its own, while the run
/// goes on saving (the index is a file of its own with its own connection: see
/// `SearchIndexer`). Indexing was about 45% of the saving thread's instructions in a cold
/// update; on two cores it now overlaps with the downloads, the parsing and the saving.
///
/// The saving thread hands over the index rows of the cards it saved (`submit`, text already
/// extracted by the parser thread); the indexer refreshes once `batch` rows wait, and a last
/// time in `finish`. Rows are only a shortcut: a refresh indexes every card the database holds
/// at that moment, reading and converting those whose rows have not arrived, so nothing
/// depends on their timing. Memory stays bounded: rows beyond `maxWaiting` are dropped (those
/// cards are then read back from the database).
final class SearchIndexThread: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var waiting = SearchRows()
    private var finishing = false
    private var done = false
    private var outcome: Result<SearchRefresh, Error>?
    private var indexed = 0

    private let batch: Int
    /// Refreshes between two checkpoints of the logs (see `run`).
    private let checkpointEvery: Int
    private var refreshes = 0
    private let maxWaiting: Int
    private var thread: Thread?
    /// Pages a merge step writes between two looks at the rows waiting (~5 ms of work).
    static let mergeStepPages = 128
    /// Merge steps a refresh earns (and at most four refreshes' worth kept): 512 pages, about
    /// the merge work FTS5 itself does in a refresh (its pages times the index's levels: 50-190
    /// pages on the million's 4 levels), so the merges keep up, and a long merge (8 segments of
    /// the million's third level, ~240,000 pages) goes at that pace rather than filling each
    /// run's idle time and its log.
    static let mergeStepsPerRefresh = 4
    /// Segments on one level at which the refreshes merge again (FTS5 merges a level of 16
    /// whole inside one write, its 'crisismerge': on a million cards' third level ~100,000
    /// pages; the levels merge at 8, `SearchIndexer.automerge`).
    static let valveSegments = 12

    /// Whether a run may leave the merges to the thread's idle time: the index's levels are
    /// known and each holds fewer than `valveSegments` segments.
    static func defersMerges(levels: [Int]?) -> Bool {
        guard let levels else { return false }
        return (levels.max() ?? 0) < valveSegments
    }

    /// Starts the thread, which opens its own connection to the index of `storePath`.
    /// `cacheKiB`: the page cache of its connection to the index file (nil: SQLite's default).
    init(storePath: String, batch: Int, checkpointEvery: Int = 1, maxWaiting: Int = 4_000, cacheKiB: Int? = nil) {
        self.batch = max(1, batch)
        self.checkpointEvery = max(1, checkpointEvery)
        self.maxWaiting = max(batch, maxWaiting)
        let thread = Thread { [self] in run(storePath: storePath, cacheKiB: cacheKiB) }
        thread.name = "feeds-search-index"
        self.thread = thread
        thread.start()
    }

    /// Hands over rows of saved cards.
    func submit(_ rows: SearchRows) {
        guard !rows.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        if waiting.count + rows.count <= maxWaiting { waiting.merge(rows) }
        if waiting.count >= batch { condition.broadcast() }
    }

    /// No more rows but those already submitted (and any `finish` is given): the thread starts
    /// its last refresh now, without waiting for `batch` rows, while the caller goes on (the
    /// update copies its log into the database meanwhile). `finish` then waits for it.
    func lastRowsSubmitted() {
        condition.lock()
        defer { condition.unlock() }
        finishing = true
        condition.broadcast()
    }

    /// Indexes what is left, waits for the thread to end and returns the last refresh (with
    /// the total of cards indexed), or the error that stopped the indexing.
    func finish() -> Result<SearchRefresh, Error> {
        condition.lock()
        finishing = true
        condition.broadcast()
        while !done { condition.wait() }
        let result = outcome ?? .success(SearchRefresh(indexed: 0, changesThrough: 0))
        thread = nil  // the thread's block holds self: break the cycle
        condition.unlock()
        return result
    }

    private func run(storePath: String, cacheKiB: Int?) {
        var indexer: SearchIndexer?
        var failure: Error?
        do {
            indexer = try SearchIndexer(storePath: storePath)
            indexer?.descriptionText = Workspace.searchText
            if let cacheKiB { try indexer?.setCacheKiB(cacheKiB) }
            try indexer?.keepLogFiles()
        } catch {
            failure = error
        }
        // FTS5's merges done while the thread waits for rows, not in its refreshes (see
        // `SearchIndexer.deferMerges`): the last refreshes, which the run's end waits for,
        // write only the new cards' words. Unless the idle time has not kept up: a level of
        // `valveSegments` segments, and the refreshes merge again for the rest of the run.
        var mergesDeferred = false
        if let indexer, failure == nil, Self.defersMerges(levels: indexer.levelSegments()) {
            mergesDeferred = (try? indexer.deferMerges()) != nil
        }
        var mergeSteps = 0
        var last: SearchRefresh?
        condition.lock()
        while true {
            while !finishing && waiting.count < batch {
                guard mergeSteps > 0, failure == nil, let indexer else { condition.wait(); continue }
                condition.unlock()
                let merged = (try? indexer.mergeStep(pages: Self.mergeStepPages)) ?? false
                mergeSteps = merged ? mergeSteps - 1 : 0
                condition.lock()
            }
            let rows = waiting
            waiting = SearchRows()
            let final = finishing
            condition.unlock()
            if let indexer, failure == nil {
                do {
                    let refresh = try indexer.refresh(rows)
                    indexed += refresh.indexed
                    last = refresh
                    // Its new segment may fill a level: merge steps earned, a few refreshes' kept;
                    // past the valve, merging in the refreshes again.
                    mergeSteps = min(mergeSteps + Self.mergeStepsPerRefresh, 4 * Self.mergeStepsPerRefresh)
                    if mergesDeferred, !Self.defersMerges(levels: indexer.levelSegments()),
                       (try? indexer.resumeMerges()) != nil {
                        mergesDeferred = false
                    }
                    // The logs, copied here while the writer saves (see `UpdateRunner.checkpointPages`),
                    // every few refreshes: each checkpoint copies every page changed since the last
                    // one, and the same index pages change again between two refreshes.
                    refreshes += 1
                    if refreshes % checkpointEvery == 0 { try? indexer.checkpoint() }
                } catch {
                    failure = error  // later refreshes would fail alike; the next run or search catches up
                }
            }
            condition.lock()
            if final && waiting.isEmpty { break }
        }
        // The index's log restarted for the next update (a failure leaves a longer log, which
        // the next connection reads back once: nothing lost).
        if mergesDeferred { try? indexer?.resumeMerges() }
        if failure == nil { try? indexer?.leaveLogForNextRun() }
        // Closed before `finish` returns: the process may exit right after, and a connection
        // still open then leaves the write-ahead logs behind instead of checkpointing them.
        indexer = nil
        if let failure {
            outcome = .failure(failure)
        } else {
            outcome = .success(SearchRefresh(indexed: indexed, changesThrough: last?.changesThrough ?? 0))
        }
        done = true
        condition.broadcast()
        condition.unlock()
    }
}
