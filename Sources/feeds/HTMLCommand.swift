import Aggregator
import FeedModel
import Fetching
import Foundation
import HTMLDigest
import ImageCache

/// `feeds html`: the static digest site.
enum HTMLCommand: Command {
    static let name = "html"
    static let summary = "write the digest as static HTML pages (with cached images)"
    static let help = """
    usage: feeds html --out DIR [--since 7d|DATE] [--title TEXT] [--tag TAG] [--no-images]

    Writes the digest into DIR: index.html (the latest cards, a row per source, the source with
    the newest card first), a page per sort order, an archive page per day (UTC; a day of more
    than 500 cards on further pages DAY-2.html, DAY-3.html, ..., linked; each card's whole post
    is there, the other pages link to it), a page per source and per tag of the sources file,
    digest.atom, sources.opml and style.css, with the cards' images (and the pictures inside
    posts) copied from the image cache. The pages run no script and load nothing from outside
    DIR: a picture inside a post that is not cached is a link. Files whose content did not change are not rewritten, and
    every file is replaced atomically, so DIR can be served while it is being written.
    DIR may hold files of your own: feeds lists what it wrote in DIR/.feeds-site and deletes
    only those (pages of days and sources gone, images no card shows), never anything else.
    DIR/.feeds-pages records what each page of the archive, a source and a tag was written
    from: a rerun renders only the pages whose cards changed (new, edited, removed), the
    latest pages and the lists; delete it to have every page rendered again. DIR/.feeds-excerpts
    keeps the latest pages' excerpts, each with a hash of the text it was made from;
    DIR/.feeds-index each source's section of index.html, copied on a rerun while the source's
    cards, unread count and the cards' ages ("5 h ago") read the same.

    options:
      --out DIR          the folder to write (created when missing)
      --since WHEN       the latest digest: cards since 90s, 30m, 36h, 7d, 2w ... ago (from
                         the start of that hour, so reruns within the hour change nothing),
                         or since a date (2026-11-01, UTC) or an RFC 3339 time; default 7d
      --title TEXT       the site's title (default "feeds digest")
      --tag TAG          only the sources with this tag (case aside: tech finds Tech)
      --no-images        do not download images (cached ones are still shown); otherwise at
                         most 200 a run: the latest cards' images, the pictures in their
                         posts, then older cards' images, newest first (a site rewritten
                         from cron fills in over a few runs). Needed on PostgreSQL
                         (--database) for now, where the image cache is not yet: the pages
                         show no pictures there
      --allow-internal   let images be on loopback, private and link-local addresses (your
                         own network) whatever site they are on; without it only images on
                         their source's own site (scheme, host and port) may be

    Prints the path of index.html. Exit status 0, or 2 for usage errors and unwritable folders.
    """
    static let spec = Arguments.Spec(valued: ["--out", "--since", "--title", "--tag"], flags: ["--no-images", "--allow-internal"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard args.positionals.isEmpty else { throw UsageError("html takes no arguments", command: name) }
        guard let outValue = args.value("--out"), !outValue.isEmpty else { throw UsageError("--out DIR is required", command: name) }
        let out = outValue.hasPrefix("/") ? outValue : FileManager.default.currentDirectoryPath + "/" + outValue
        let now = UpdateRunner.systemClock()
        let since = try SinceOption.parse(args.value("--since") ?? "7d", now: now, command: name)
        var options = DigestOptions(title: args.value("--title") ?? "feeds digest", since: since, now: now)
        options.tag = args.value("--tag")

        let workspace = try global.workspace()
        let model = try DigestModel.load(from: workspace.digestStore, options: options)
        // On PostgreSQL too: the records are the database's, the files this machine's cache folder.
        let cache = try workspace.imageCache()
        if !args.flag("--no-images") {
            let summary = try ImageDownloads.run(workspace, model: model, since: since, now: now,
                                                 allowInternal: args.flag("--allow-internal"))
            if Terminal.stdoutIsTTY { Output.standard.line(ImageDownloads.line(summary)) }
        }
        let cached = try cache.storedImages()
        let images = cached.mapValues { DigestImage(sourceFile: $0.path, fileName: $0.fileName, width: $0.width, height: $0.height) }
        // The published list: addresses without credentials, local files by name only.
        let listed = Set(model.sources.map(\.id))
        let items = try workspace.sources().filter { listed.contains($0.stored.id) }.map { s in
            OPML.ExportItem(url: PublicAddress.of(s.entry.url) ?? "", title: model.name(of: s.stored),
                            siteURL: s.stored.feed.link.flatMap(PublicAddress.of), tags: s.entry.tags)
        }
        let report = try DigestWriter(directory: out, options: options)
            .write(model, images: images, extraFiles: ["sources.opml": OPML.export(items)])
        try cache.markUsed(report.shownImages, now: now)
        if Terminal.stdoutIsTTY {
            Output.standard.line("\(report.written.count) files written, \(report.unchanged) unchanged, \(report.removed.count) removed")
        }
        Output.standard.line(report.indexPath)
        return .ok
    }
}
