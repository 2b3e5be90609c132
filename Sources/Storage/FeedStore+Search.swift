import FeedModel

// Full-text search (see `SearchIndex` and `SearchIndexer`).
extension FeedStore {
    /// Brings the search index up to the cards, with the rows of the cards this connection
    /// saved since (their text is extracted already), lets the change log go up to where the
    /// index has read it, and attaches the index for searching. Returns how many cards were
    /// indexed. Cheap when nothing is waiting (one query of indexed reads, no lock), so every
    /// search calls it.
    @discardableResult
    public func refreshSearchIndex() throws -> Int {
        // The usual case of a search: nothing waiting. Checked on this connection (the index
        // attached), which spares opening the index's own.
        if searchBacklog.isEmpty, searchIndexer == nil {
            if (try? attachedSearchIndexIsCurrent()) == true { return 0 }
            try? detachSearchIndex()  // missing, damaged…: the indexer makes it again, then it is attached anew
        }
        let indexer = try searchIndexer ?? SearchIndexer(storePath: path)
        searchIndexer = indexer
        indexer.descriptionText = descriptionText
        let rows = takeSearchRows()
        let refresh = try indexer.refresh(rows)
        try forgetSearchChanges(through: refresh.changesThrough)
        try attachSearchIndex()
        return refresh.indexed
    }

    /// Index rows of the new cards this connection saved since the last call, for an indexer
    /// on another thread (`SearchIndexer.refresh`); they are no longer kept here.
    public func takeSearchRows() -> SearchRows {
        defer { searchBacklog = SearchRows() }
        return searchBacklog
    }

    /// Deletes the change log entries up to `seq`, which an index has read
    /// (`SearchRefresh.changesThrough`). Takes the write lock only when there is something to delete.
    public func forgetSearchChanges(through seq: Int64) throws {
        let any = try db.prepare("SELECT EXISTS (SELECT 1 FROM card_search_changes WHERE seq <= ?1)")
        guard try any.queryOne([.integer(seq)], { $0.bool(0) }) == true else { return }
        let delete = try db.prepare("DELETE FROM card_search_changes WHERE seq <= ?1")
        try db.writeTransaction { try delete.execute([.integer(seq)]) }
    }

    /// Whether the attached index has taken in every card and logged change.
    private func attachedSearchIndexIsCurrent() throws -> Bool {
        try attachSearchIndex()
        // An index of another version (folded otherwise) is rebuilt, however current.
        let version = try db.prepare("PRAGMA \(SearchIndexer.attachedName).user_version").queryOne { $0.int(0) }
        guard version == SearchIndexer.schemaVersion else { return false }
        let marks = try SearchIndexer.marks(on: db, index: SearchIndexer.attachedName, store: "main")
        return marks.index == marks.store
    }

    private func detachSearchIndex() throws {
        guard searchIndexAttached else { return }
        try db.execute("DETACH DATABASE \(SearchIndexer.attachedName)")
        searchIndexAttached = false
    }

    /// Attaches the index file to this connection as `search` (once), for the search queries.
    /// From then on, this connection's write transactions lock that file too (briefly): the
    /// connections that write during an update never search.
    func attachSearchIndex() throws {
        guard !searchIndexAttached else { return }
        try db.registerRelevance()
        let attach = try db.prepare("ATTACH DATABASE ?1 AS \(SearchIndexer.attachedName)")
        try attach.execute([.text(SearchIndexer.path(forStore: path))])
        searchIndexAttached = true
    }
}
