import Aggregator
import FeedModel
import Foundation
import Reader
import Storage

/// `feeds read`: saved cards as a digest in the terminal (or JSON), marked read once shown.
enum ReadCommand: Command {
    static let name = "read"
    static let summary = "show saved cards as a digest (marks them read)"
    static var help: String {
        """
        usage: feeds read [--sort ORDER] [--since 2d|DATE] [--source NAME] [--tag TAG] [--unread]
                          [--limit N] [--group source|day|none] [--json] [--keep-unread]

        Prints saved cards: title, source, age, card id (#42, for 'feeds mark'), link, the
        description as wrapped plain text, and the image URL. Styled and paged ($PAGER, default
        'less -R') on a terminal, to the terminal's width (or COLUMNS); plain text when piped;
        no colors when NO_COLOR is set. The cards shown are marked read.

        options:
          --sort ORDER     the order (default newest):
        \(orders)
          --since WHEN     cards dated from WHEN: a duration back from now (30m, 12h, 2d, 1w)
                           or a date (2026-11-29, 2026-11-29T08:00:00Z)
          --source NAME    one source, by name or URL
          --tag TAG        sources with this tag
          --unread         unread cards only
          --limit N        at most N cards
          --group BY       headings by source or by day (UTC); default none
          --json           a JSON array of cards: the fields of 'feeds parse --json' plus
                           cardID, source, sourceID, read, firstSeen
          --keep-unread    do not mark the cards shown as read
        """
    }
    static let spec = Arguments.Spec(valued: ["--sort", "--since", "--source", "--tag", "--limit", "--group"],
                                     flags: ["--unread", "--json", "--keep-unread"])

    /// The registry's orders, one per line, for help texts.
    static var orders: String {
        CardOrder.all.map { "                     \($0.name): \($0.label)" }.joined(separator: "\n")
    }

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'", command: name) }
        let order = try ReaderOptions.order(args, default: .newest, command: name)
        let grouping = try ReaderOptions.grouping(args, command: name)
        let workspace = try global.workspace()
        let now = UpdateRunner.systemClock()
        let query = try ReaderOptions.query(args, store: workspace.store, now: now, command: name)
        let cards = try workspace.store.cards(query, order: order)
        if cards.isEmpty && !args.flag("--json") && Terminal.stdoutIsTTY {
            Diagnostics.warning(query.unreadOnly ? "no unread cards" : "no cards to show")
        }
        ReaderOptions.show(cards, json: args.flag("--json"), grouping: grouping, now: now)
        if !args.flag("--keep-unread") {
            let unread = cards.filter { !$0.isRead }.map(\.id)
            if !unread.isEmpty { try workspace.store.markRead(.cards(unread)) }
        }
        return .ok
    }
}
