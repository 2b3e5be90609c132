import Aggregator
import FeedModel
import FeedParsing
import Fetching
import Foundation

/// `feeds discover URL`: the feeds a site offers, without adding any.
enum DiscoverCommand: Command {
    static let name = "discover"
    static let summary = "list the feeds a web page announces (or that are at the usual paths)"
    static let help = """
    usage: feeds discover URL [--json] [--allow-internal]

    Fetches the page at URL (its first 256 KiB) and prints the feeds it announces
    (<link rel="alternate"> of RSS, Atom and JSON Feed), else those found at the usual paths
    (/feed, /rss.xml, /atom.xml, /index.xml, /feed.json), one a line: title, format, URL.
    When URL is itself a feed, prints that one. Adds nothing: 'feeds add URL' does.

    options:
      --json            one JSON array of {"title", "format", "url"}
      --allow-internal  let redirects reach loopback and private addresses on any site

    exit status: 0 feeds found, 1 none found or the page could not be fetched, 2 usage error
    """
    static let spec = Arguments.Spec(flags: ["--json", "--allow-internal"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard args.positionals.count == 1 else { throw UsageError(args.positionals.isEmpty ? "no URL given" : "one URL at a time", command: name) }
        let url = try webURL(args.positionals[0], command: name)
        let found: [FeedDiscovery.Candidate]
        do {
            switch try FeedFinder(limits: limits(allowInternal: args.flag("--allow-internal"))).find(url) {
            case .feed(let feed): found = [feed]
            case .page(let feeds): found = feeds
            }
        } catch {
            Diagnostics.error(CLI.describe(error))
            return .someFailed
        }
        if args.flag("--json") {
            let items = found.map { (c: FeedDiscovery.Candidate) -> String in
                let title: String = c.title.map { JSONText.quoted($0) } ?? "null"
                let format: String = JSONText.quoted(c.format)
                let url: String = JSONText.quoted(c.url)
                return "{\"title\":\(title),\"format\":\(format),\"url\":\(url)}"
            }
            Output.standard.write("[" + items.joined(separator: ",") + "]\n")
        } else {
            for c in found { Output.standard.line(line(c)) }
        }
        if found.isEmpty {
            Diagnostics.error(noneFound(url))
            return .someFailed
        }
        return .ok
    }

    /// `Example blog  atom  https://example.org/feed.xml`
    static func line(_ c: FeedDiscovery.Candidate) -> String {
        "\(c.title ?? "(untitled)")  \(c.format)  \(c.url)"
    }

    static func noneFound(_ url: String) -> String {
        "\(url) is a web page that announces no feed, and none is at "
            + FeedDiscovery.usualPaths.joined(separator: ", ") + ": find the feed's address on the site"
    }

    /// An absolute http(s) URL, or a usage error.
    static func webURL(_ text: String, command: String) throws -> String {
        let address = WebAddress(parsing: text)
        guard address.isWebURL else { throw UsageError("\(text) is not an http:// or https:// URL", command: command) }
        return text
    }

    /// The limits of a discovery: one page and a few small checks, each at most 15 s.
    static func limits(allowInternal: Bool) -> FetchLimits {
        var limits = FetchLimits(userAgent: "feeds/\(Version.string) (feed reader; libcurl)", maxInFlight: 4, maxPerHost: 2)
        limits.totalTimeout = .seconds(15)
        limits.allowInternalAddresses = allowInternal
        return limits
    }
}
