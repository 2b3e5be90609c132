import Aggregator
import Foundation
import Storage

/// `feeds migrate`: a home's SQLite database copied into an empty PostgreSQL one (issue 22).
enum MigrateCommand: Command {
    static let name = "migrate"
    static let summary = "copy the database into an empty PostgreSQL database"
    static let help = """
    usage: feeds migrate --to postgres://user@host:port/database [--from sqlite:PATH]

    Copies the home's database (or the SQLite file PATH) into an empty PostgreSQL database:
    every source with its fetch state (validators, schedule, failures, redirects), every card
    with its dates and read state, the image cache's records and the saved searches' page
    previews. The counts of sources, cards, unread cards, image records and page previews
    are compared at the end; the SQLite file is only read. The search index is built as the
    cards are copied; the image files stay in the home's cache folder (run 'feeds html' and
    'feeds cache' with this home and --database on this machine). Run it while no
    `feeds update` is running: it takes the home's update lock.

    options:
      --to URL           the PostgreSQL database (postgres:// or postgresql://, or a libpq
                         key=value string); it must hold no feeds sources yet
      --from sqlite:PATH the SQLite database to copy (default: the home's feeds.db)
    """
    static let spec = Arguments.Spec(valued: ["--to", "--from"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard args.positionals.isEmpty else { throw UsageError("migrate takes no arguments", command: name) }
        guard let target = args.value("--to"), !target.isEmpty else {
            throw UsageError("migrate needs --to postgres://user@host:port/database", command: name)
        }
        let paths = try global.paths()
        var path = paths.database
        if let from = args.value("--from") {
            guard from.hasPrefix("sqlite:"), from.count > "sqlite:".count else {
                throw UsageError("--from takes sqlite:PATH (got \(from))", command: name)
            }
            path = String(from.dropFirst("sqlite:".count))
        }
        // Opening would create a missing file: a typo must not copy an empty database.
        guard FileManager.default.fileExists(atPath: path) else {
            throw UsageError("no database at \(path)", command: name)
        }
        guard let lock = try RunLock.acquire(path: paths.lockFile, wait: false) else {
            throw UsageError("a feeds update is running on this home; migrate when it has finished", command: name)
        }
        defer { withExtendedLifetime(lock) {} }
        let source = try FeedStore(path: path)
        let store = try PostgresStore(address: target)
        store.descriptionText = Workspace.searchText
        let counts = try StoreCopy.copy(from: source, to: store)
        Output.standard.line("copied \(counts) from \(path) to \(store.server)")
        return .ok
    }
}
