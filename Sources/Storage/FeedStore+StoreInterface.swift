import FeedModel

// The SQLite store is the first backend of the store's interface: its methods (in
// FeedStore+Sources.swift, +Fetching.swift, +Cards.swift and +ReadState.swift) already are
// the requirements. One process, one writer (the run lock), so it has no leases and no shared
// host state: `SourceLeasing` and `SharedHostState` are PostgreSQL's.
extension FeedStore: SourceStore, FetchStateStore, CardReadingStore {}

// What the update's runner needs besides (UpdateRunStore.swift): SQLite has always had it.
extension FeedStore: UpdateSelecting, UpdateBatching, CardLimiting, PagePreviewStore, SearchIndexFeeding {
    /// The index is a file next to the database, which the run's index thread opens itself.
    public var searchIndexPath: String? { path }
}

// A method with a defaulted parameter answers one requirement only: these answer the short
// forms of `SourceStore` and `FetchStateStore`, the defaulted ones `UpdateSelecting`.
extension FeedStore {
    public func sources() throws -> [StoredSource] { try sources(counting: true) }
    public func dueSources(at now: Timestamp) throws -> [StoredSource] { try dueSources(at: now, counting: true) }
    public func markReading(sourceID: SourceID, now: Timestamp) throws { try markReading(sourceID: sourceID, now: now, releasing: []) }
}
