import Aggregator
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

    /// `--since 2d` (s, m, h, d, w back from now) or `--since DATE` (2026-11-29, RFC 3339, RFC 822…).
    static func moment(_ text: String, option: String, now: Timestamp, command: String) throws -> Timestamp {
        if let last = text.last, let unit = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800][String(last)],
           let n = Int64(text.dropLast()), n >= 0 {
            return now.adding(-n.saturatingMultiply(Int64(unit)))
        }
        if let date = FeedDate.parse(text) { return date }
        throw UsageError("\(option) takes a duration back from now (30m, 12h, 2d, 1w) or a date (2026-11-29), got '\(text)'",
                         command: command)
    }

    /// `--source NAME|URL`: the source's id.
    static func source(_ name: String, in store: FeedStore, command: String) throws -> SourceID {
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
    static func query(_ args: Arguments, store: FeedStore, now: Timestamp, command: String) throws -> CardQuery {
        var query = CardQuery(tag: args.value("--tag"), unreadOnly: args.flag("--unread"), limit: try limit(args, command: command))
        if let name = args.value("--source") { query.sourceID = try source(name, in: store, command: command) }
        if let since = args.value("--since") { query.since = try moment(since, option: "--since", now: now, command: command) }
        return query
    }

    /// Prints cards: JSON, or the digest (styled and paged on a terminal, plain when piped).
    static func show(_ cards: [StoredCard], json: Bool, grouping: Digest.Grouping, now: Timestamp,
                     highlight: SearchHighlight? = nil) {
        if json {
            Output.standard.write(DigestJSON.array(cards))
            return
        }
        let environment = ProcessInfo.processInfo.environment
        let isTerminal = Terminal.stdoutIsTTY
        let style = DigestStyle(width: TerminalSize.columns(environment), mode: DigestStyle.mode(isTerminal: isTerminal, environment: environment))
        let text = Digest(style: style, now: now, highlight: highlight).render(cards, grouping: grouping)
        if isTerminal, Pager.page(text, environment: environment) { return }
        Output.standard.write(text)
    }
}

/// The terminal's size: `COLUMNS`/`LINES` when set, else the window size of standard output.
enum TerminalSize {
    static func columns(_ environment: [String: String]) -> Int {
        if let c = environment["COLUMNS"].flatMap(Int.init), c > 0 { return c }
        return window()?.columns ?? 80
    }

    static func rows(_ environment: [String: String]) -> Int {
        if let r = environment["LINES"].flatMap(Int.init), r > 0 { return r }
        return window()?.rows ?? 24
    }

    private static func window() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}

/// `$PAGER` (default `less -R`) for text longer than the screen.
enum Pager {
    /// Pipes `text` through the pager and waits for it; false when the text fits the screen,
    /// `PAGER` is empty, or the pager cannot start (the caller then prints the text itself).
    static func page(_ text: String, environment: [String: String]) -> Bool {
        let lines = text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        guard lines >= TerminalSize.rows(environment) else { return false }
        let command = environment["PAGER"] ?? "less -R"
        guard !command.trimmingCharacters(in: .whitespaces).isEmpty else { return false }
        Output.standard.flush()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let input = Pipe()
        process.standardInput = input
        do { try process.run() } catch { return false }
        // A pager quit early closes the pipe: writing then must not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return true
    }
}
