import Aggregator
import FeedModel
import FeedParsing
import Foundation

/// `feeds add URL`: appends a line to the sources file.
enum AddCommand: Command {
    static let name = "add"
    static let summary = "add a source to the sources file"
    static let help = """
    usage: feeds add URL|PATH [--name NAME] [--tags a,b] [--every 30m] [--as-is] [--allow-internal]
           feeds add --search ENGINE "QUERY" [--endpoint URL|PATH] [--preview] [--name NAME] [--tags a,b] [--every 6h]

    Appends one line to the sources file (see README for its format). An address without a
    scheme that names no existing file (example.org/feed) is taken as https://. The source is fetched by
    the next 'feeds update'. With --search, the source is a saved web search whose results are
    saved as cards (engines: ddg, searxng, opensearch, susi, hn).

    An http(s) URL is fetched first (its first 256 KiB): a feed is added as it is; a web page
    gets the feed it announces (<link rel="alternate">), else one found at the usual paths
    (/feed, /rss.xml, /atom.xml, /index.xml, /feed.json). Several found: on a terminal you pick
    one by number; otherwise the first is taken and the others are named ('feeds discover URL'
    lists them).

    options:
      --name NAME     display name (default: the feed's own title)
      --tags a,b      comma-separated tags
      --every 30m     refresh interval (90s, 30m, 2h, 1d, 2w); default: the feed's own hints
      --search ENGINE a saved search with this engine; the argument is the query
      --endpoint URL  the engine's address (required for searxng and opensearch), or a file
      --preview       give results without a picture their page's og:image (cached)
      --as-is         add the URL as written, without fetching it (no discovery)
      --allow-internal  let redirects reach loopback and private addresses on any site
    """
    static let spec = Arguments.Spec(valued: ["--name", "--tags", "--every", "--search", "--endpoint"],
                                     flags: ["--preview", "--as-is", "--allow-internal"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        let search = args.value("--search")
        guard args.positionals.count == 1 else {
            let what = search == nil ? "URL" : "query"
            throw UsageError(args.positionals.isEmpty ? "no \(what) given" : "one \(what) at a time (quote a query with spaces)", command: name)
        }
        if search == nil, args.value("--endpoint") != nil || args.flag("--preview") {
            throw UsageError("--endpoint and --preview go with --search ENGINE", command: name)
        }
        var target = args.positionals[0]
        if search == nil, let web = TypedAddress.webURL(forTyped: target, folder: try sourcesFolder(global)) {
            Output.standard.line("\(target) is no file here: taken as \(web)")
            target = web
        }
        if let e = args.value("--every"), Interval.parse(e) == nil {
            throw UsageError(TimeSpec.problem("--every", e, durationsOnly: true), command: name)
        }
        if search == nil, !args.flag("--as-is"), WebAddress(parsing: target).isWebURL {
            let sourcesFile = try global.paths().sourcesFile
            // Already listed as typed: said before any fetch.
            if try SourcesFile.read(path: sourcesFile).contains(where: { $0.url == target }) {
                Diagnostics.error("\(target) is already in \(sourcesFile)")
                return .usage
            }
            guard let found = try discover(target, allowInternal: args.flag("--allow-internal")) else { return .someFailed }
            target = found
        }
        var line = SourcesFile.quoteIfNeededForURL(target)
        if let search {
            line = "search:" + search + " " + SourcesFile.quotedQuery(args.positionals[0])
            if let e = args.value("--endpoint") { line += " endpoint=" + SourcesFile.quoteIfNeeded(e) }
            if args.flag("--preview") { line += " preview=yes" }
        }
        if let n = args.value("--name") { line += " name=" + SourcesFile.quoteIfNeeded(n) }
        if let t = args.value("--tags") { line += " tags=" + SourcesFile.quoteIfNeeded(t) }
        if let e = args.value("--every") { line += " every=" + e }   // checked above, before any fetch
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

    /// Where relative paths of the sources file are resolved (see `Workspace.sourcesFolder`).
    static func sourcesFolder(_ global: GlobalOptions) throws -> String {
        ((try global.paths().sourcesFile as NSString).resolvingSymlinksInPath as NSString).deletingLastPathComponent
    }

    /// The feed to add for `url`: itself when it is a feed, else the one its page leads to
    /// (asked on a terminal when several). Nil, with the reason said, when there is none.
    static func discover(_ url: String, allowInternal: Bool) throws -> String? {
        let found: FoundFeeds
        do {
            found = try FeedFinder(limits: DiscoverCommand.limits(allowInternal: allowInternal)).find(url)
        } catch {
            Diagnostics.error(CLI.describe(error) + " (add it without checking: feeds add --as-is URL)")
            return nil
        }
        let feeds: [FeedDiscovery.Candidate]
        switch found {
        case .feed: return url
        case .page(let candidates): feeds = candidates
        }
        guard let first = feeds.first else {
            Diagnostics.error(DiscoverCommand.noneFound(url))
            return nil
        }
        if feeds.count == 1 {
            Output.standard.line("\(url) is a web page; its feed: \(DiscoverCommand.line(first))")
            return first.url
        }
        guard Prompt.isInteractive else {
            Diagnostics.warning("\(url) offers \(feeds.count) feeds; took the first, \(first.url) (see them all: feeds discover \(url))")
            return first.url
        }
        var question = "\(url) is a web page that offers \(feeds.count) feeds:\n"
        for (i, feed) in feeds.enumerated() { question += "  \(i + 1). \(DiscoverCommand.line(feed))\n" }
        question += "Add which one? [1-\(feeds.count), Enter for 1, q to quit] "
        while true {
            guard let answer = Prompt.ask(question) else { return first.url }
            if answer.isEmpty { return first.url }
            if answer.lowercased() == "q" {
                Diagnostics.error("nothing added")
                return nil
            }
            if let n = Int(answer), (1...feeds.count).contains(n) { return feeds[n - 1].url }
            question = "Type a number from 1 to \(feeds.count), or q: "
        }
    }
}
