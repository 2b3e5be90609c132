// The SQLite store is the first backend of the update interface: its methods (in
// FeedStore+Sources.swift and FeedStore+Fetching.swift) already are the requirements.
// One process, one writer (the run lock), so it has no leases: `SourceLeasing` is PostgreSQL's.
extension FeedStore: SourceStore, FetchStateStore {}
