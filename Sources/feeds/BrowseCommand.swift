import Aggregator
import Browse
import Console
import Foundation
import Storage

/// `feeds browse`: the full-screen reader (see the Browse module); this file only turns the
/// command line into `BrowseOptions`, with `read`'s option parsing.
enum BrowseCommand: Command {
    static let name = "browse"
    static let summary = "read cards in a full-screen list (keys: ? for help)"
    static var help: String {
        """
        usage: feeds browse [--sort ORDER] [--since 2d|DATE] [--source NAME] [--tag TAG] [--unread] [--utc]

        A full-screen reader on the terminal's alternate screen: one line a card (N: unread,
        local date, source, title), Enter opens a card (its text, links numbered, images and
        enclosures), o opens its link in $BROWSER (commands separated by colons, tried in
        turn; else xdg-open), r marks read or unread, n/p go to the next/previous unread card,
        / searches (as 'feeds search'), t and s filter by tag and source, S switches the sort
        order and O lists the orders, R reloads (cards an update saves meanwhile show at the
        next key anyway), ? shows every key, q goes back or quits. A card is marked read when it is opened, and
        the mark is saved at once. Needs a terminal (exit status 2 otherwise).

        options:
          --sort ORDER     the order to start in (default newest; S and O switch it):
        \(ReadCommand.orders)
          --since WHEN     cards dated from WHEN (30m, 12h, 2d, 1w, or a date)
          --source NAME    one source, by name or URL
          --tag TAG        sources with this tag
          --unread         unread cards only
          --utc            dates in UTC instead of the local time zone
        """
    }
    static let spec = Arguments.Spec(valued: ["--sort", "--since", "--source", "--tag"], flags: ["--unread", "--utc"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'", command: name) }
        let order = try ReaderOptions.order(args, default: .newest, command: name)
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw UsageError("browse needs a terminal (its input and output are not one); 'feeds read --brief' lists cards for scripts",
                             command: name)
        }
        let workspace = try global.workspace()
        let store = workspace.browseStore
        let now = UpdateRunner.systemClock()
        let query = try ReaderOptions.query(args, store: workspace.readerStore, now: now, command: name)
        let options = BrowseOptions(query: query, order: order == .relevance ? .newest : order,
                                    tag: args.value("--tag"), sourceName: args.value("--source"),
                                    sinceText: args.value("--since"), zone: ReaderOptions.zone(args),
                                    environment: ProcessInfo.processInfo.environment)
        // The cards are read before the terminal is taken: a database error is a plain line.
        let session = BrowseSession(store: store, options: options, size: TerminalWindow.size() ?? (80, 24),
                                    resolveSource: { name in
                                        do { return try ReaderOptions.source(name, in: workspace.readerStore, command: Self.name) } catch let e as UsageError {
                                            throw BrowseError(description: e.message)
                                        }
                                    },
                                    clock: UpdateRunner.systemClock)
        try session.load()
        let terminal = try RawTerminal()
        defer { terminal.restore() }
        session.run(on: terminal)
        return .ok
    }
}
