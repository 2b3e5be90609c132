import FeedModel

// What `feeds update`'s runner needs of a store beyond `UpdateStore`, in small protocols each
// backend answers: SQLite with what it has always done, PostgreSQL with its own SQL or, where a
// feature is SQLite's only so far, an honest no-op said here (issue 22).

/// Listing sources without counting their cards (an update needs no counts: counting read
/// every card row), and reading marks released together with the next mark.
public protocol UpdateSelecting: UpdateStore {
    func sources(counting: Bool) throws -> [StoredSource]
    func dueSources(at now: Timestamp, counting: Bool) throws -> [StoredSource]
    /// `markReading`, clearing the marks of `releasing` (parsed, waiting to be saved) at once.
    func markReading(sourceID: SourceID, now: Timestamp, releasing: [SourceID]) throws
}

/// Writing many sources' outcomes together. SQLite: one transaction (a commit per source
/// wrote the same index pages again and again). PostgreSQL: each write is its own transaction
/// already, and a worker's session is its own; `body` runs as it is.
public protocol UpdateBatching: AnyObject {
    func inOneTransaction<T>(_ body: () throws -> T) throws -> T
    /// SQLite's log and cache sizes for a bulk run; nothing on PostgreSQL (the server's own).
    func tuneForBulkWrites(checkpointPages: Int, cacheKiB: Int) throws
    /// What a run's saves left to its end. SQLite: the new cards' keys of the `title` order
    /// folded into its big table once there are enough of them (`FeedStore.titleFoldKeys`), and
    /// the log copied into the database file. PostgreSQL: nothing (its title order is an index
    /// of the cards, written with them; the server checkpoints on its own).
    func finishBulkWrites() throws
    /// The very end of a run, its other connections done. SQLite: the log restarted for the
    /// next run (`FeedStore.leaveLogForNextRun`). PostgreSQL: nothing.
    func leaveLogForNextRun() throws
}

/// Retention and the per-source card cap (`keep-days=`, `keep-cards=`, `max-cards=`).
public protocol CardLimiting: AnyObject {
    /// Deletes read cards past their source's retention; how many went.
    @discardableResult
    func prune(now: Timestamp, defaultKeepDays: Int?, defaultKeepCount: Int?) throws -> Int
    /// Deletes cards of `sourceID` beyond `max` (read ones first, never those the feed lists).
    func capCards(sourceID: SourceID, max: Int) throws -> (read: Int, unread: Int)
}

/// The page previews of saved searches (`preview=yes`), kept on both backends (SQLite's
/// migration 3, PostgreSQL's 5) so a page is looked at again only once its entry expires.
public protocol PagePreviewStore: AnyObject {
    func pagePreviews(for pageURLs: [String]) throws -> [String: PagePreviewEntry]
    func savePagePreviews(_ entries: [String: String?], checkedAt: Timestamp) throws
}

/// The search index an update feeds as it saves. SQLite: a file next to the database that a
/// thread of the run refreshes (`searchIndexPath`). PostgreSQL: nil (its search is its own).
public protocol SearchIndexFeeding: AnyObject {
    /// Where the index thread opens the index; nil: no index to feed during a run.
    var searchIndexPath: String? { get }
    /// The index rows of the cards saved since the last call.
    func takeSearchRows() -> SearchRows
    func forgetSearchChanges(through seq: Int64) throws
}

/// Everything `feeds update` uses of a store.
public typealias UpdateRunStore = UpdateSelecting & UpdateBatching & CardLimiting & PagePreviewStore & SearchIndexFeeding
