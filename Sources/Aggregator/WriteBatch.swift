import Storage

/// When `feeds update` commits (see `UpdateRunner.batchCards`): the store is in batch mode
/// during the fetching, and the batch commits once it holds enough new or changed cards or has
/// been open long enough; the search index then takes the committed cards. The time bound is
/// about how long the write lock is held (other writers such as `feeds mark` wait for it), so it
/// reads the monotonic clock; it is no scheduling policy.
struct WriteBatch {
    let store: FeedStore
    let maxCards: Int
    let maxSeconds: Double
    /// Indexes (in the run's reports) of the sources whose writes are in the open batch.
    private var reports: [Int] = []
    private var cards = 0
    private var openedAt: ContinuousClock.Instant?

    init(store: FeedStore, maxCards: Int, maxSeconds: Double) {
        self.store = store
        self.maxCards = maxCards
        self.maxSeconds = maxSeconds
        store.beginBatch()
    }

    /// Notes a finished source whose writes (if any) are in the open batch.
    mutating func added(_ report: SourceReport, at index: Int) {
        reports.append(index)
        if case .saved(let new, let updated) = report.outcome { cards += new + updated }
        if openedAt == nil, store.batchHasWrites { openedAt = .now }
    }

    /// Whether the open batch should be committed now.
    var isDue: Bool {
        guard let openedAt else { return false }
        return cards >= maxCards || ContinuousClock.now - openedAt >= .milliseconds(Int(maxSeconds * 1000))
    }

    /// Commits the open batch (leaving batch mode unless `staying`), then indexes the committed
    /// cards for search. When the commit fails nothing the batch wrote is saved: each of its
    /// sources becomes a failure with the reason (their fetch state was not saved either, so the
    /// next run fetches them again). Returns the reports so changed.
    mutating func commit(_ summary: inout UpdateSummary, staying: Bool = true) -> [SourceReport] {
        defer { reports = []; cards = 0; openedAt = nil }
        do {
            if staying { try store.commitBatch() } else { try store.endBatch() }
        } catch {
            var changed: [SourceReport] = []
            for index in reports where summary.reports.indices.contains(index) {
                summary.reports[index].outcome = .failed("could not save: \(error.localizedDescription)")
                changed.append(summary.reports[index])
            }
            return changed
        }
        // In batch mode this opens the next batch's transaction: its index rows are committed
        // with that batch. Should it fail, any search indexes the cards first.
        _ = try? store.refreshSearchIndex()
        return []
    }
}
