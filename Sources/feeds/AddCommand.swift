import Aggregator
import FeedModel
import Foundation

/// `feeds add URL`: appends a line to the sources file.
enum AddCommand: Command {
    static let name = "add"
    static let summary = "add a source to the sources file"
    static let help = """
    usage: feeds add URL|PATH [--name NAME] [--tags a,b] [--every 30m]
           feeds add --search ENGINE "QUERY" [--endpoint URL|PATH] [--preview] [--name NAME] [--tags a,b] [--every 6h]

    Appends one line to the sources file (see README for its format). The source is fetched by
    the next 'feeds update'. With --search, the source is a saved web search whose results are
    saved as cards (engines: ddg, searxng, opensearch, susi, hn).

    options:
      --name NAME     display name (default: the feed's own title)
      --tags a,b      comma-separated tags
      --every 30m     refresh interval (90s, 30m, 2h, 1d, 2w); default: the feed's own hints
      --search ENGINE a saved search with this engine; the argument is the query
      --endpoint URL  the engine's address (required for searxng and opensearch), or a file
      --preview       give results without a picture their page's og:image (cached)
    """
    static let spec = Arguments.Spec(valued: ["--name", "--tags", "--every", "--search", "--endpoint"], flags: ["--preview"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        let search = args.value("--search")
        guard args.positionals.count == 1 else {
            let what = search == nil ? "URL" : "query"
            throw UsageError(args.positionals.isEmpty ? "no \(what) given" : "one \(what) at a time (quote a query with spaces)", command: name)
        }
        if search == nil, args.value("--endpoint") != nil || args.flag("--preview") {
            throw UsageError("--endpoint and --preview go with --search ENGINE", command: name)
        }
        var line = SourcesFile.quoteIfNeededForURL(args.positionals[0])
        if let search {
            line = "search:" + search + " " + SourcesFile.quotedQuery(args.positionals[0])
            if let e = args.value("--endpoint") { line += " endpoint=" + SourcesFile.quoteIfNeeded(e) }
            if args.flag("--preview") { line += " preview=yes" }
        }
        if let n = args.value("--name") { line += " name=" + SourcesFile.quoteIfNeeded(n) }
        if let t = args.value("--tags") { line += " tags=" + SourcesFile.quoteIfNeeded(t) }
        if let e = args.value("--every") {
            guard Interval.parse(e) != nil else { throw UsageError(TimeSpec.problem("--every", e, durationsOnly: true), command: name) }
            line += " every=" + e
        }
        // Parse the line as the file would, so add never writes what read would refuse.
        guard let entry = try SourcesFile.parse(line, path: "argument").first else { throw UsageError("no URL given", command: name) }
        let paths = try global.paths()
        if try SourcesFile.read(path: paths.sourcesFile).contains(where: { $0.url == entry.url }) {
            Diagnostics.error("\(entry.url) is already in \(paths.sourcesFile)")
            return .usage
        }
        try SourcesFile.append([entry], to: paths.sourcesFile)
        _ = try global.workspace()
        Output.standard.line("added \(entry.url) to \(paths.sourcesFile)")
        return .ok
    }
}
