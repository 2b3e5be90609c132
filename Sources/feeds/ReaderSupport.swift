import Aggregator
import Console
import FeedModel
import FeedParsing
import Foundation
import Reader
import Storage

/// What `read`, `search` and `mark` share: option values to store queries, and the terminal.
enum ReaderOptions {
    /// `--sort NAME` through the registry; an unknown name lists the valid ones.
    static func order(_ args: Arguments, default fallback: CardOrder, command: String) throws -> CardOrder {
        guard let name = args.value("--sort") else { return fallback }
        do { return try CardOrder.named(name) } catch { throw UsageError(CLI.describe(error), command: command) }
    }

    /// `--since`, `--before`: a duration back from now or a date or time (`TimeSpec`).
    static func moment(_ text: String, option: String, now: Timestamp, command: String) throws -> Timestamp {
        guard let spec = TimeSpec.parse(text) else { throw UsageError(TimeSpec.problem(option, text), command: command) }
        return spec.moment(before: now)
    }

    /// `--source NAME|URL`: the source's id.
    static func source(_ name: String, in store: any SourceStore, command: String) throws -> SourceID {
        if let byName = try store.sources(named: name).first { return byName.id }
        if let byURL = try store.source(url: name) { return byURL.id }
        throw UsageError("no source named '\(name)' (see 'feeds sources' for names and URLs)", command: command)
    }

    /// `--limit N`, N >= 1.
    static func limit(_ args: Arguments, command: String) throws -> Int? {
        guard let text = args.value("--limit") else { return nil }
        guard let n = Int(text), n >= 1 else { throw UsageError("--limit needs a number of cards, got '\(text)'", command: command) }
        return n
    }

    static func grouping(_ args: Arguments, command: String) throws -> Digest.Grouping {
        guard let text = args.value("--group") else { return .none }
        guard let grouping = Digest.Grouping(rawValue: text) else {
            throw UsageError("--group takes source, day or none, got '\(text)'", command: command)
        }
        return grouping
    }

    /// The filters every listing command shares.
    static func query(_ args: Arguments, store: any SourceStore, now: Timestamp, command: String) throws -> CardQuery {
        var query = CardQuery(tag: args.value("--tag"), unreadOnly: args.flag("--unread"), limit: try limit(args, command: command))
        if let name = args.value("--source") { query.sourceID = try source(name, in: store, command: command) }
        if let since = args.value("--since") { query.since = try moment(since, option: "--since", now: now, command: command) }
        return query
    }

    /// How `read` and `search` print cards.
    enum Format { case digest, brief, json }

    static func format(_ args: Arguments, command: String) throws -> Format {
        if args.flag("--json") && args.flag("--brief") { throw UsageError("--json and --brief do not go together", command: command) }
        return args.flag("--json") ? .json : args.flag("--brief") ? .brief : .digest
    }

    /// `--utc`, else the local zone (`TZ`).
    static func zone(_ args: Arguments) -> TimeZoneOffset { args.flag("--utc") ? .utc : .local }

    /// Prints cards: JSON, or the digest or brief list (styled and paged on a terminal, plain
    /// when piped). Returns the indices of the cards the reader took whole (see
    /// `DeliveredWrite`): with `settle`, a pipe's reader must have read them, not just the pipe.
    static func show(_ cards: [StoredCard], format: Format, grouping: Digest.Grouping, now: Timestamp,
                     zone: TimeZoneOffset, highlight: SearchHighlight? = nil, settle: Bool) -> [Int] {
        let environment = ProcessInfo.processInfo.environment
        let isTerminal = Terminal.stdoutIsTTY
        let style = DigestStyle(width: TerminalSize.columns(environment), mode: DigestStyle.mode(isTerminal: isTerminal, environment: environment))
        let rendered: RenderedCards
        switch format {
        case .json: rendered = DigestJSON.layout(cards)
        case .brief: rendered = BriefList(style: style, zone: zone).layout(cards, grouping: grouping)
        case .digest:
            var digest = Digest(style: style, now: now, highlight: highlight)
            digest.zone = zone
            rendered = digest.layout(cards, grouping: grouping)
        }
        let bytes = Array(rendered.text.utf8)
        if format != .json, isTerminal, Pager.needed(lines: rendered.lineCount, rows: TerminalSize.rows(environment)),
           let command = Pager.command(environment: environment) {
            Output.standard.flush()
            do {
                let (outcome, status) = try Pager.page(bytes, command: command, environment: environment)
                // `sh -c` reports a missing program itself (127, 126): the text then comes plain.
                if !(outcome.delivered == 0 && (status == 126 || status == 127)) {
                    return rendered.cardsDelivered(outcome.delivered)
                }
            } catch {
                Diagnostics.warning("cannot start the pager (PAGER): \(error); printing without it")
            }
        }
        let outcome = Output.standard.deliver(bytes, settle: settle)
        return rendered.cardsDelivered(outcome.delivered)
    }
}

/// The terminal's size: `COLUMNS`/`LINES` when set, else the window size of standard output.
enum TerminalSize {
    static func columns(_ environment: [String: String]) -> Int {
        if let c = environment["COLUMNS"].flatMap(Int.init), c > 0 { return c }
        return TerminalWindow.size()?.columns ?? 80
    }

    static func rows(_ environment: [String: String]) -> Int {
        if let r = environment["LINES"].flatMap(Int.init), r > 0 { return r }
        return TerminalWindow.size()?.rows ?? 24
    }
}
