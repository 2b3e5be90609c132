import FeedModel
import FeedParsing
import Markup

/// `feeds parse`: one document to cards, as text or as the JSON card model.
enum ParseCommand: Command {
    static let name = "parse"
    static let summary = "print the cards of a feed file (or - for standard input)"
    static let help = """
    usage: feeds parse [--json] [--base URL] [--charset NAME] FILE|-

    Reads one RSS, Atom, RDF or JSON Feed document and prints its cards. The format is detected
    from the content. An ill-formed feed prints what could be recovered (with warnings on
    standard error); a document that is not a feed at all is an error (exit status 2).

    options:
      --json            print {"feed": {...}, "entries": [...]}: the card model, one object
      --base URL        the document's URL, for relative links (default: none)
      --charset NAME    the charset a server declared, used when the document says nothing
    """
    static let spec = Arguments.Spec(valued: ["--base", "--charset"], flags: ["--json"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard args.positionals.count == 1 else {
            throw UsageError(args.positionals.isEmpty ? "no file given" : "one file at a time", command: name)
        }
        let path = args.positionals[0]
        var options = ParseOptions()
        options.baseURL = args.value("--base")
        options.charset = args.value("--charset")
        let out = Output.standard
        let json = args.flag("--json")
        var count = 0
        if json { out.write("{\"entries\":[") }
        let summary: FeedSummary
        do {
            summary = try FeedParser.parseFile(path, options: options) { card in
                if json {
                    if count > 0 { out.write(",") }
                    out.write(CardJSON.card(card))
                } else {
                    out.write(CardText.block(card))
                }
                count += 1
            }
        } catch {
            out.discard()
            Diagnostics.error("\(path): \(CLI.describe(error))")
            return .usage
        }
        for w in summary.warnings { Diagnostics.warning("\(path): \(w)") }
        if json {
            out.write("],\"feed\":" + CardJSON.feed(summary.feed))
            out.write(",\"format\":" + (summary.format.map { JSONText.quoted($0.rawValue) } ?? "null") + "}\n")
        } else {
            let title = summary.feed.title ?? "(untitled feed)"
            out.line("== \(title) — \(summary.format?.rawValue ?? "unknown format"), \(count) cards")
        }
        return .ok
    }
}

/// A card as a few lines of plain text (the terminal reader does the full layout).
enum CardText {
    static func block(_ c: Card) -> String {
        var s = "* " + c.displayTitle(plainText: HTMLText.plainText) + "\n"
        if let link = c.link { s += "  " + link + "\n" }
        var meta: [String] = []
        if let d = c.date { meta.append(d.iso8601) }
        if let a = c.author { meta.append(a) }
        if !meta.isEmpty { s += "  " + meta.joined(separator: " · ") + "\n" }
        if let image = c.image { s += "  [image] " + image + "\n" }
        for e in c.enclosures { s += "  [\(e.type ?? "file")] " + e.url + "\n" }
        if let d = c.description {
            let text = TextRules.truncate(TextRules.collapseWhitespace(HTMLText.plainText(d)), to: 300)
            if !text.isEmpty { s += "  " + text + "\n" }
        }
        return s + "\n"
    }
}
