import Aggregator
import FeedModel
import Foundation
import Reader
import Storage

/// `feeds read`: saved cards as a digest in the terminal (or JSON, or one line a card), marked
/// read once delivered whole.
enum ReadCommand: Command {
    static let name = "read"
    static let summary = "show saved cards as a digest (marks them read)"
    static var help: String {
        """
        usage: feeds read [--sort ORDER] [--since 2d|DATE] [--source NAME] [--tag TAG] [--unread]
                          [--limit N] [--group source|day|none] [--brief|--json] [--utc]
                          [--keep-unread]

        Prints saved cards: title, source, age, card id (#42, for 'feeds mark'), link, the
        description as wrapped plain text, the image URL and enclosures ([audio] URL (30.0 MB)).
        Styled and paged ($PAGER, default 'less -R'; PAGER= for none) on a terminal, to the
        terminal's width (or COLUMNS); plain text when piped; no colors when NO_COLOR is set.
        Dates are local (TZ) unless --utc.

        A card is marked read once all of it was delivered: to a pipe, when the reader has
        read it (so '| head -3' marks only the cards head read whole); to the pager, when the
        pager has read it before you quit. The rest stay unread.

        options:
          --sort ORDER     the order (default newest):
        \(orders)
          --since WHEN     cards dated from WHEN: a duration back from now (90s, 30m, 2h, 1d,
                           2w), a date (2026-11-29) or an RFC 3339 time (2026-11-29T08:00:00Z)
          --source NAME    one source, by name or URL
          --tag TAG        sources with this tag (case aside: tech finds Tech)
          --unread         unread cards only
          --limit N        at most N cards
          --group BY       headings by source or by day (local, or UTC with --utc); default none
          --brief          one line a card: date and time, source, title, id (N: unread);
                           marks nothing read
          --utc            dates, ages and days in UTC instead of the local time zone
          --json           a JSON array of cards: the fields of 'feeds parse --json' plus
                           cardID, source, sourceID, read, firstSeen
          --keep-unread    do not mark the cards shown as read
        """
    }
    static let spec = Arguments.Spec(valued: ["--sort", "--since", "--source", "--tag", "--limit", "--group"],
                                     flags: ["--unread", "--json", "--brief", "--utc", "--keep-unread"])

    /// The registry's orders, one per line, for help texts.
    static var orders: String {
        CardOrder.all.map { "                     \($0.name): \($0.label)" }.joined(separator: "\n")
    }

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'", command: name) }
        let order = try ReaderOptions.order(args, default: .newest, command: name)
        let grouping = try ReaderOptions.grouping(args, command: name)
        let format = try ReaderOptions.format(args, command: name)
        let workspace = try global.workspace()
        let now = UpdateRunner.systemClock()
        let query = try ReaderOptions.query(args, store: workspace.readerStore, now: now, command: name)
        let cards = try workspace.readerStore.cards(query, order: order)
        if cards.isEmpty && format != .json && Terminal.stdoutIsTTY {
            Diagnostics.warning(query.unreadOnly ? "no unread cards" : "no cards to show")
        }
        // A one-line list is not reading: --brief marks nothing.
        let marks = !args.flag("--keep-unread") && format != .brief
        let delivered = ReaderOptions.show(cards, format: format, grouping: grouping, now: now,
                                           zone: ReaderOptions.zone(args), settle: marks)
        if marks {
            let unread = delivered.map { cards[$0] }.filter { !$0.isRead }.map(\.id)
            if !unread.isEmpty { try workspace.readerStore.setRead(true, .cards(unread)) }
        }
        return .ok
    }
}
