import Aggregator
import FeedModel
import Reader
import Storage

/// `feeds search QUERY`: full-text search of the saved cards.
enum SearchCommand: Command {
    static let name = "search"
    static let summary = "full-text search of saved cards (titles, descriptions, authors)"
    static var help: String {
        """
        usage: feeds search QUERY [--sort ORDER] [--source NAME] [--tag TAG] [--since 2d|DATE]
                                  [--unread] [--limit N] [--group source|day|none]
                                  [--brief|--json] [--utc]

        Finds saved cards by the words of their title, description (its first \(SearchIndex.descriptionLimit) bytes of
        text) and author. Case, accents and forms are ignored ('cafe' finds 'Café', 'fussball'
        'Fußball', 'first' 'ﬁrst'). Matches are highlighted on a terminal. Searching does not
        mark cards read.

        QUERY: words, all of which must match; punctuation in a word is part of it (heat-pump,
        c++, node.js, don't). Syntax only where written as syntax: "a phrase", prefix* (at the
        end of a word), AND, OR, NOT in capitals between words, parentheses, and title:word,
        author:word, description:word. Quote the query for the shell:
            feeds search '"swift concurrency" OR actor*'

        options:
          --sort ORDER     the order (default relevance):
        \(ReadCommand.orders)
          --since WHEN     cards dated from WHEN (90s, 30m, 2h, 1d, 2w, a date or an RFC 3339 time)
          --source NAME    one source, by name or URL
          --tag TAG        sources with this tag (case aside: tech finds Tech)
          --unread         unread cards only
          --limit N        at most N cards
          --group BY       headings by source or by day (local, or UTC with --utc)
          --brief          one line a card, as 'feeds read --brief'
          --utc            dates, ages and days in UTC instead of the local time zone
          --json           a JSON array of cards, as 'feeds read --json'
        """
    }
    static let spec = Arguments.Spec(valued: ["--sort", "--since", "--source", "--tag", "--limit", "--group"],
                                     flags: ["--unread", "--json", "--brief", "--utc"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard !args.positionals.isEmpty else { throw UsageError("no search query given", command: name) }
        let text = args.positionals.joined(separator: " ")
        let order = try ReaderOptions.order(args, default: .relevance, command: name)
        let grouping = try ReaderOptions.grouping(args, command: name)
        let format = try ReaderOptions.format(args, command: name)
        let workspace = try global.workspace()
        let now = UpdateRunner.systemClock()
        let query = try ReaderOptions.query(args, store: workspace.readerStore, now: now, command: name)
        let cards: [StoredCard]
        do {
            cards = try workspace.readerStore.search(text, query: query, order: order)
        } catch let error as StorageError {
            if case .badSearchQuery = error { throw UsageError(error.description, command: name) }
            throw error
        }
        if cards.isEmpty && format != .json && Terminal.stdoutIsTTY { Diagnostics.warning("no card matches \(text)") }
        _ = ReaderOptions.show(cards, format: format, grouping: grouping, now: now, zone: ReaderOptions.zone(args),
                               highlight: SearchHighlight(query: text), settle: false)
        return .ok
    }
}
