import Aggregator
import Storage
import Foundation

/// `feeds remove NAME|URL`: deletes the line from the sources file and the source's cards.
enum RemoveCommand: Command {
    static let name = "remove"
    static let summary = "remove a source (its line in the sources file and its saved cards)"
    static let help = """
    usage: feeds remove NAME|URL ...

    Removes each named source: its line in the sources file, and the source with its cards from
    the database. Comments and other lines of the file stay as they are.
    """
    static let spec = Arguments.Spec()

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard !args.positionals.isEmpty else { throw UsageError("no source named", command: name) }
        let workspace = try global.workspace()
        var found: [(url: String, id: SourceID?)] = []
        for query in args.positionals {
            let matches = try workspace.match(query)
            if matches.isEmpty {
                // A source only in the database (its line was deleted by hand).
                if let stored = try workspace.store.source(url: query) { found.append((query, stored.id)); continue }
                throw AggregatorError.noSuchSource(query)
            }
            if matches.count > 1 {
                throw UsageError("'\(query)' names \(matches.count) sources; give the URL instead", command: name)
            }
            found.append((matches[0].entry.url, matches[0].stored.id))
        }
        try SourcesFile.remove(urls: Set(found.map(\.url)), from: workspace.paths.sourcesFile)
        for f in found {
            if let id = f.id { try workspace.store.removeSource(id) }
            Output.standard.line("removed \(f.url)")
        }
        return .ok
    }
}
