import Aggregator
import Foundation

/// `feeds export`: OPML 2.0 on standard output.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "print the sources as OPML 2.0"
    static let help = """
    usage: feeds export > subscriptions.opml

    Prints every source of the sources file as an OPML 2.0 outline (title, xmlUrl, htmlUrl,
    tags as category).
    """
    static let spec = Arguments.Spec()

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard args.positionals.isEmpty else { throw UsageError("export takes no arguments", command: name) }
        let workspace = try global.workspace()
        let items = try workspace.sources().map { s in
            OPML.ExportItem(url: s.entry.url, title: s.stored.displayName, siteURL: s.stored.feed.link, tags: s.entry.tags)
        }
        Output.standard.write(OPML.export(items))
        return .ok
    }
}
