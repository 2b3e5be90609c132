// The SQLite store is the first backend of the store's interface: its methods (in
// FeedStore+Sources.swift, +Fetching.swift, +Cards.swift and +ReadState.swift) already are
// the requirements. One process, one writer (the run lock), so it has no leases and no shared
// host state: `SourceLeasing` and `SharedHostState` are PostgreSQL's.
extension FeedStore: SourceStore, FetchStateStore, CardReadingStore {}
