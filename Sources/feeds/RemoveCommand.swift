import Aggregator
import Storage
import Foundation

/// `feeds remove NAME|URL`: deletes the line from the sources file and the source's cards.
enum RemoveCommand: Command {
    static let name = "remove"
    static let summary = "remove a source (its line in the sources file and its saved cards)"
    static let help = """
    usage: feeds remove [--yes] NAME|URL ...

    Removes each named source: its line in the sources file, and the source with its cards from
    the database. Comments and other lines of the file stay as they are.

    On a terminal (standard input a terminal) it first shows what goes, each source with its
    number of cards and unread cards, and asks; only y or yes removes. Without a terminal (a
    script, cron) it removes without asking, as rm does.

    options:
      --yes, -y    remove without asking
    """
    static let spec = Arguments.Spec(flags: ["--yes", "-y"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard !args.positionals.isEmpty else { throw UsageError("no source named", command: name) }
        let workspace = try global.workspace()
        var found: [(url: String, stored: StoredSource?)] = []
        for query in args.positionals {
            let matches = try workspace.match(query)
            if matches.isEmpty {
                // A source only in the database (its line was deleted by hand).
                if let stored = try workspace.updateStore.source(url: query) { found.append((query, stored)); continue }
                throw AggregatorError.noSuchSource(query)
            }
            if matches.count > 1 {
                throw UsageError("'\(query)' names \(matches.count) sources; give the URL instead", command: name)
            }
            found.append((matches[0].entry.url, matches[0].stored))
        }
        if Prompt.isInteractive, !args.flag("--yes"), !args.flag("-y"), !confirmed(found) {
            Diagnostics.error("nothing removed")
            return .ok
        }
        try SourcesFile.remove(urls: Set(found.map(\.url)), from: workspace.paths.sourcesFile)
        for f in found {
            if let id = f.stored?.id { try workspace.updateStore.removeSource(id) }
            Output.standard.line("removed \(f.url)")
        }
        return .ok
    }

    /// Shows what goes and asks; true only for y or yes.
    static func confirmed(_ found: [(url: String, stored: StoredSource?)]) -> Bool {
        var question = ""
        var unread = 0
        for f in found {
            let cards = f.stored?.cardCount ?? 0, fresh = f.stored?.unreadCount ?? 0
            unread += fresh
            let name = f.stored.map(\.displayName).flatMap { $0 == f.url ? nil : $0 }
            question += (name.map { "\($0) (\(f.url))" } ?? f.url) + ": \(count(cards, "card")), \(fresh) unread\n"
        }
        let what = found.count == 1 ? "this source" : "these \(found.count) sources"
        let their = found.count == 1 ? "its" : "their"
        question += "Remove \(what) and \(their) cards\(unread > 0 ? ", \(count(unread, "unread card")) among them" : "")? [y/N] "
        guard let answer = Prompt.ask(question)?.lowercased() else { return false }
        return answer == "y" || answer == "yes"
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
