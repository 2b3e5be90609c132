import FeedModel
import Foundation
import Markup
import Storage

/// The sources file and the database together: what every command that touches sources opens.
/// Sources are matched between the two by URL (the store's `url`); opening syncs the file's
/// configuration (name, tags, retention) into the database. Sources the file no longer lists
/// keep their cards in the database but are not fetched.
public final class Workspace {
    public let paths: FeedsPaths
    /// The store of the update path, sources and cards: SQLite in the home, or PostgreSQL.
    public let updateStore: any UpdateRunStore & CardReadingStore
    /// The PostgreSQL store when the workspace opened one (`--database`): leases and the
    /// per-host state workers share.
    public let postgres: PostgresStore?
    /// The store of `feeds read`, `search` and `mark`: the same one as `updateStore`.
    public let readerStore: any TextReaderStore
    /// The store of `feeds browse` (its windows of a listing): the same one again.
    public var browseStore: any BrowseStore {
        if let postgres { return postgres }
        return sqlite!
    }
    private let sqlite: FeedStore?
    /// The store `feeds html` reads: the same one as `updateStore`.
    public var digestStore: any DigestStore {
        if let postgres { return postgres }
        return sqlite!  // init opens one of the two
    }
    /// The SQLite store, when the workspace opened one (the image cache's records on SQLite, and
    /// tests that look into the home's database): `WorkspaceError.needsSQLite` on PostgreSQL.
    public var store: FeedStore {
        get throws {
            guard let sqlite else { throw WorkspaceError.needsSQLite(server: postgres?.server ?? "PostgreSQL") }
            return sqlite
        }
    }
    /// The sources file's entries, in file order: read when first asked for (a command that
    /// does not need them, `feeds search` say, never reads the file when the stamp says the
    /// store was synced from it: see `init(paths:database:now:)`).
    public var entries: [SourceEntry] {
        get throws { try listing().entries }
    }
    /// The lines of the sources file that do not read (skipped; see `SourcesListing`); none
    /// while the file is unread (a stamp is recorded only for a file with none).
    public var problems: [SourcesListing.Problem] { read?.problems ?? [] }
    /// Whether the sources file exists (it does while unread: it was read for its stamp).
    public var sourcesFileExists: Bool { read?.exists ?? true }
    /// The sources file as read; nil until something asks for its entries.
    private var read: SourcesListing?

    private func listing() throws -> SourcesListing {
        if let read { return read }
        let listing = try SourcesFile.readListing(path: paths.sourcesFile)
        read = listing
        return listing
    }

    /// The folder relative source paths are resolved against: the sources file's folder.
    /// A symlinked sources file (kept in a dotfiles repository, say) resolves against the folder
    /// of the file it points to.
    public var sourcesFolder: String {
        ((paths.sourcesFile as NSString).resolvingSymlinksInPath as NSString).deletingLastPathComponent
    }

    /// `database`: a PostgreSQL address (`postgres://user@host:port/db`); nil: the home's SQLite.
    /// What either store indexes of a description: its words, not its markup (see SearchIndex).
    public static let searchText: @Sendable (String) -> String = { HTMLText.searchText($0, limit: SearchIndex.descriptionLimit) }

    /// Opens the store and syncs the sources file into it, unless the store holds a stamp of the
    /// file as it reads now (`SourcesFileStamp`: recorded after a sync of a file whose lines
    /// all read; any write of a source's configuration drops it). SQLite only: PostgreSQL is
    /// shared by workers whose files may differ, and syncs at every open as before.
    public convenience init(paths: FeedsPaths, database: String? = nil, now: Timestamp) throws {
        try self.init(paths: paths, database: database)
        let file = readStamped()
        let stamp = storedStamp()
        if let file, let stamp, stamp == file.stamp { return }
        keepListing(of: file)
        try syncRead(file, stamped: stamp, now: now)
        record(file?.stamp)
    }

    /// The stamp of the sources file the store was last synced from (SQLite), if it holds one.
    private func storedStamp() -> String? {
        guard let sqlite else { return nil }
        return (try? sqlite.sourcesFileStamp()) ?? nil
    }

    /// The sync of `file` (as read, its listing kept), the store holding `stamp`: of the lines
    /// added at the end of the file the stamp was made of, when that is what `file` is
    /// (`SourcesFileStamp.linesSynced`: the store holds the configurations of its other lines as
    /// they read), else of every line. Adding a line to 5,000 (`feeds add`, or by hand) then
    /// costs the lookup of its source rather than the reading and pairing of all 5,000 stored
    /// configurations (~5 ms of the next command).
    private func syncRead(_ file: (stamp: String, data: Data)?, stamped stamp: String?, now: Timestamp) throws {
        guard let file, let stamp, let sqlite, let lines = SourcesFileStamp.linesSynced(by: stamp, before: file.data) else {
            return try sync(now: now)
        }
        var changed: [SourceConfiguration] = []
        // Each looked up by URL: a line may list again a source the file no longer listed.
        for entry in try entries where entry.line > lines {
            if let stored = try sqlite.sourceConfiguration(url: entry.url), entry.hasConfiguration(stored) { continue }
            changed.append(entry.configuration)
        }
        try updateStore.upsertSources(changed, now: now)
    }

    /// When the store keeps stamps (SQLite): the sources file's bytes, read once, and their
    /// stamp. Nil when the file does not read (the listing is then read when asked for, and
    /// says why).
    private func readStamped() -> (stamp: String, data: Data)? {
        guard sqlite != nil, let data = SourcesFile.contents(atPath: paths.sourcesFile) else { return nil }
        return (SourcesFileStamp.of(data), data)
    }

    /// The listing of `file`'s bytes becomes the workspace's: what is synced and stamped is
    /// what was read once.
    private func keepListing(of file: (stamp: String, data: Data)?) {
        if let file { read = SourcesFile.listing(file.data, path: paths.sourcesFile) }
    }

    /// Records `stamp` (of the bytes the sync read) after a sync, unless a line does not read
    /// (every command says so until it is fixed) or it is recorded already. Best effort: a
    /// store that cannot take the write syncs at every open, as it did without stamps.
    private func record(_ stamp: String?) {
        guard let stamp, let sqlite, problems.isEmpty, (try? sqlite.sourcesFileStamp()) != stamp else { return }
        try? sqlite.recordSourcesFileStamp(stamp)
    }

    /// A workspace and its paired sources (`pairedSources`), for a command that lists them
    /// (`feeds sources`): the sync compares the file with the stored sources read in full, and
    /// when it has nothing to write (nearly always) they are the listing's, one read of the
    /// sources instead of two (reading the configurations for the sync alone was 7 % of
    /// `feeds sources` with 5,000 sources). After a write they are read again.
    public static func openListing(paths: FeedsPaths, database: String? = nil, now: Timestamp) throws -> (Workspace, PairedSources) {
        let workspace = try Workspace(paths: paths, database: database)
        let file = workspace.readStamped()
        workspace.keepListing(of: file)
        let stored = try workspace.updateStore.sources(counting: true)
        let matched = SourcePairing.match(try workspace.entries, stored, entryURL: \.url, storedURL: \.configuration.url)
        let changed = try workspace.changedConfigurations(matched) { stored[$0].configuration }
        guard changed.isEmpty else {
            try workspace.updateStore.upsertSources(changed, now: now)
            workspace.record(file?.stamp)
            return (workspace, try workspace.pairedSources())
        }
        workspace.record(file?.stamp)
        return (workspace, try workspace.paired(stored, matched))
    }

    /// Opens the file and the store, syncing nothing.
    private init(paths: FeedsPaths, database: String?) throws {
        self.paths = paths
        if let database {
            let postgres = try PostgresStore(address: database)
            postgres.descriptionText = Workspace.searchText
            (self.postgres, sqlite, updateStore, readerStore) = (postgres, nil, postgres, postgres)
        } else {
            let store = try FeedStore(path: paths.database)
            // The search index holds the words of descriptions, not their markup (see SearchIndex).
            store.descriptionText = Workspace.searchText
            (postgres, sqlite, updateStore, readerStore) = (nil, store, store, store)
        }
    }

    /// Writes the configuration of every entry whose stored configuration differs.
    public func sync(now: Timestamp) throws {
        let stored = try updateStore.sourceConfigurations()
        let matched = SourcePairing.match(try entries, stored, entryURL: \.url, storedURL: \.url)
        try updateStore.upsertSources(try changedConfigurations(matched) { stored[$0] }, now: now)
    }

    /// The configurations of the entries whose stored one (`matched`: each entry's stored index)
    /// differs or is missing: what the sync writes.
    private func changedConfigurations(_ matched: [Int?], stored: (Int) -> SourceConfiguration) throws -> [SourceConfiguration] {
        var changed: [SourceConfiguration] = []
        for (entry, index) in zip(try entries, matched) {
            if let index, entry.hasConfiguration(stored(index)) { continue }
            changed.append(entry.configuration)
        }
        return changed
    }

    /// Re-reads the sources file (after `add`, `remove`, `import` changed it) and syncs.
    public func reload(now: Timestamp) throws {
        let file = readStamped()
        if file == nil { read = try SourcesFile.readListing(path: paths.sourcesFile) }
        keepListing(of: file)
        try syncRead(file, stamped: storedStamp(), now: now)
        record(file?.stamp)
    }

    /// Each entry of the file with its stored state, in file order (`counting`: see
    /// `FeedStore.sources(counting:)`).
    public func sources(counting: Bool = true) throws -> [(entry: SourceEntry, stored: StoredSource)] {
        try sourcesAndOrphans(counting: counting).listed
    }

    /// `sources()`, and the sources in the database that the sources file no longer lists (a
    /// line deleted by hand): not fetched, cards kept until `feeds remove URL`. A source whose
    /// line is there but does not read is not one of them (its line is reported instead). One
    /// read of the sources for both.
    public func sourcesAndOrphans(counting: Bool = true) throws -> (listed: [(entry: SourceEntry, stored: StoredSource)], orphans: [StoredSource]) {
        let paired = try pairedSources(counting: counting)
        let entries = try entries
        return (paired.listed.map { (entries[$0.entry], paired.stored[$0.stored]) }, paired.orphans.map { paired.stored[$0] })
    }

    /// The file's entries and the stored sources as read, paired by index (see `PairedSources`).
    public func pairedSources(counting: Bool = true) throws -> PairedSources {
        let stored = try updateStore.sources(counting: counting)
        return try paired(stored, SourcePairing.match(try entries, stored, entryURL: \.url, storedURL: \.configuration.url))
    }

    /// `stored` paired with the entries (`matched`: each entry's index in `stored`, or nil).
    private func paired(_ stored: [StoredSource], _ matched: [Int?]) throws -> PairedSources {
        let entries = try entries
        var listed: [(entry: Int, stored: Int)] = []
        listed.reserveCapacity(entries.count)
        var inFile = [Bool](repeating: false, count: stored.count)
        for (entry, index) in matched.enumerated() {
            guard let index else { continue }
            listed.append((entry, index))
            inFile[index] = true
        }
        // A line that does not read still names its source (few lines: a small set).
        let unread = Set(problems.compactMap(\.identity))
        let orphans = stored.indices.filter { !inFile[$0] && !unread.contains(stored[$0].configuration.url) }
        return PairedSources(entries: entries, stored: stored, listed: listed, orphans: orphans)
    }

    /// The entries `query` names: a URL exactly, else a display name ignoring case.
    public func match(_ query: String) throws -> [(entry: SourceEntry, stored: StoredSource)] {
        let entries = try entries
        return try matchIndexed(query).map { (entries[$0.entry], $0.stored) }
    }

    /// `match`, each entry as its index in `entries`.
    public func matchIndexed(_ query: String) throws -> [(entry: Int, stored: StoredSource)] {
        let paired = try pairedSources()
        let all = paired.listed.map { (entry: $0.entry, stored: paired.stored[$0.stored]) }
        if let exact = all.first(where: { paired.entries[$0.entry].url == query }) { return [exact] }
        let lower = query.lowercased()
        return all.filter { $0.stored.displayName.lowercased() == lower || paired.entries[$0.entry].name?.lowercased() == lower }
    }
}

/// What `Workspace.sourcesAndOrphans` says, as indices into the two lists instead of copies:
/// with 5,000 sources, copying each stored source (a few hundred bytes) into the pairs cost
/// `feeds sources` a tenth of its CPU, in copies, retains and page faults.
public struct PairedSources {
    /// The sources file's entries, in file order.
    public let entries: [SourceEntry]
    /// The stored sources, in the store's order.
    public let stored: [StoredSource]
    /// Each entry that has a stored source, in file order.
    public let listed: [(entry: Int, stored: Int)]
    /// The stored sources no line of the file names (see `Workspace.sourcesAndOrphans`).
    public let orphans: [Int]
}

/// A command that works on SQLite only so far, run on a PostgreSQL database.
public enum WorkspaceError: Error, LocalizedError {
    case needsSQLite(server: String)

    public var errorDescription: String? {
        switch self {
        case .needsSQLite(let server):
            return "this needs the home's SQLite database, not PostgreSQL (\(server)); run it without --database or FEEDS_DATABASE"
        }
    }
}

extension SourceEntry {
    var configuration: SourceConfiguration {
        SourceConfiguration(url: url, name: name, kind: search == nil ? .feed : .search, tags: tags, keepDays: keepDays, keepCount: keepCount)
    }

    /// `configuration == stored`, field by field without making the configuration (5,000 of
    /// them, their strings retained and released, were 2 % of `feeds sources`).
    func hasConfiguration(_ stored: SourceConfiguration) -> Bool {
        stored.url == url && stored.name == name && stored.kind == (search == nil ? .feed : .search) && stored.tags == tags
            && stored.keepDays == keepDays && stored.keepCount == keepCount
    }
}
