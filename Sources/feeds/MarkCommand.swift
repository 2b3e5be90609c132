import Aggregator
import FeedModel
import Storage

/// `feeds mark read|unread`: sets the read state of cards.
enum MarkCommand: Command {
    static let name = "mark"
    static let summary = "mark cards read or unread (by id, by source, all, or by date)"
    static let help = """
    usage: feeds mark read|unread CARD-ID ...
           feeds mark read|unread --source NAME
           feeds mark read|unread --all
           feeds mark read|unread [--since 2d|DATE] [--before 2d|DATE]

    Card ids are the #numbers 'feeds read' shows (cardID in --json). Prints how many cards
    changed state. 'feeds mark unread --since 1d' undoes a read of the last day's cards.

    options:
      --source NAME    every card of one source, by name or URL
      --all            every card
      --since WHEN     cards dated from WHEN, as 'feeds read --since' (90s, 30m, 2h, 1d, 2w
                       back from now, a date or an RFC 3339 time); with --before, the cards
                       between the two
      --before WHEN    cards dated before WHEN (same grammar)
    """
    static let spec = Arguments.Spec(valued: ["--source", "--since", "--before"], flags: ["--all"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard let state = args.positionals.first, state == "read" || state == "unread" else {
            throw UsageError("say 'feeds mark read' or 'feeds mark unread'", command: name)
        }
        let ids = args.positionals.dropFirst()
        let dated = args.value("--since") != nil || args.value("--before") != nil
        let chosen = [!ids.isEmpty, args.value("--source") != nil, args.flag("--all"), dated]
        guard chosen.filter({ $0 }).count == 1 else {
            throw UsageError("give card ids, or one of --source, --all, --since/--before", command: name)
        }
        let workspace = try global.workspace()
        let selection: CardSelection
        if !ids.isEmpty {
            selection = .cards(try ids.map { text in
                let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
                guard let n = Int64(digits), n > 0 else { throw UsageError("'\(text)' is not a card id (a number, as in #42)", command: name) }
                return CardID(rawValue: n)
            })
            // A mistyped or pruned id is said, not counted silently as "0 cards marked".
            if case let .cards(wanted) = selection {
                let missing = try wanted.filter { try workspace.readerStore.card(id: $0) == nil }
                guard missing.isEmpty else {
                    let list = missing.map { "#\($0.rawValue)" }.joined(separator: ", ")
                    throw UsageError("no card \(list) in the database (ids are the #numbers 'feeds read' shows)", command: name)
                }
            }
        } else if let source = args.value("--source") {
            selection = .source(try ReaderOptions.source(source, in: workspace.readerStore, command: name))
        } else if dated {
            let now = UpdateRunner.systemClock()
            let since = try args.value("--since").map { try ReaderOptions.moment($0, option: "--since", now: now, command: name) }
            let before = try args.value("--before").map { try ReaderOptions.moment($0, option: "--before", now: now, command: name) }
            selection = .dated(since: since, before: before)
        } else {
            selection = .all
        }
        let changed = try workspace.readerStore.setRead(state == "read", selection)
        Output.standard.line("\(changed) card\(changed == 1 ? "" : "s") marked \(state)")
        return .ok
    }
}
