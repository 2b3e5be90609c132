import FeedModel
import FeedParsing
import Markup
import Foundation

/// `feeds parse`: one document to cards, as text or as the JSON card model.
enum ParseCommand: Command {
    static let name = "parse"
    static let summary = "print the cards of a feed file (or - for standard input)"
    static let help = """
    usage: feeds parse [--json] [--as ENGINE] [--base URL] [--charset NAME] FILE|-

    Reads one RSS, Atom, RDF or JSON Feed document, or a saved web search response, and prints
    its cards. The format is detected from the content (the JSON of DuckDuckGo, SearXNG, SUSI and
    Hacker News included). An ill-formed feed prints what could be recovered (with warnings on
    standard error); a document that is not a feed at all is an error (exit status 2).

    options:
      --json            print {"feed": {...}, "entries": [...]}: the card model, one object
      --base URL        the document's URL, for relative links (default: none)
      --charset NAME    the charset a server declared, used when the document says nothing
      --as ENGINE       read it as the response of a search engine: ddg, searxng, opensearch,
                        susi or hn (a response of another engine is then an error)
    """
    static let spec = Arguments.Spec(valued: ["--base", "--charset", "--as"], flags: ["--json"])

    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus {
        guard args.positionals.count == 1 else {
            throw UsageError(args.positionals.isEmpty ? "no file given" : "one file at a time", command: name)
        }
        let path = args.positionals[0]
        var options = ParseOptions()
        options.baseURL = args.value("--base")
        options.charset = args.value("--charset")
        // Sanitizing and JSON writing on a second thread: `onCard` below touches only state
        // that nothing else uses until the parser's `finish()` has returned.
        options.concurrentCards = true
        let out = Output.standard
        let json = args.flag("--json")
        var count = 0
        if json { out.write("{\"entries\":[") }
        var engine: SearchEngine?
        if let name = args.value("--as") {
            guard let e = SearchEngine(name: name) else {
                throw UsageError("--as \(name) is not a search engine: use one of \(SearchEngine.namesForHelp)", command: self.name)
            }
            engine = e
        }
        let onCard = { (card: Card) in
            if json {
                out.write { buffer in
                    if count > 0 { buffer.append(UInt8(ascii: ",")) }
                    CardJSON.append(card, to: &buffer)
                }
            } else {
                out.write(CardText.block(card))
            }
            count += 1
        }
        var feed = FeedInfo()
        var warnings: [String] = []
        var formatName: String?
        do {
            let input = try ParseInput(path: path)
            let head = try input.read(upTo: 64 << 10)
            if engine != nil || ParseInput.startsWithBrace(head) {
                // Search responses and JSON Feed are read whole (within the parser's bound).
                let bytes = try head + input.readRest(limit: options.maxBytes)
                if engine == nil, let detected = SearchReader.detect(json: bytes) { engine = detected }
                if let engine {
                    let result = try SearchReader.read(bytes, engine: engine, base: options.baseURL, charset: options.charset)
                    result.cards.forEach(onCard)
                    feed = result.feed
                    warnings = result.warnings
                    formatName = engine.rawValue
                    switch result.followUp {
                    case .webSearch(let query)?:
                        warnings.append("the answer asks for a web search for \"\(query)\"; 'feeds update' runs it, 'feeds parse' does not fetch")
                    case .fetch(let url)?:
                        warnings.append("this is an OpenSearch description document; its results are at \(url) ('feeds parse' does not fetch)")
                    case nil:
                        break
                    }
                } else {
                    let parsed = try FeedParser.parse(bytes, options: options)
                    parsed.cards.forEach(onCard)
                    (feed, warnings, formatName) = (parsed.feed, parsed.warnings, parsed.format?.rawValue)
                }
            } else {
                let parser = FeedStreamParser(options: options, onCard: onCard)
                try parser.push(head)
                while true {
                    let chunk = try input.read(upTo: 64 << 10)
                    if chunk.isEmpty { break }
                    try parser.push(chunk)
                }
                let summary = try parser.finish()
                (feed, warnings, formatName) = (summary.feed, summary.warnings, summary.format?.rawValue)
            }
        } catch {
            out.discard()
            Diagnostics.error("\(path): \(CLI.describe(error))")
            return .usage
        }
        for w in warnings { Diagnostics.warning("\(path): \(w)") }
        if json {
            out.write("],\"feed\":" + CardJSON.feed(feed))
            out.write(",\"format\":" + (formatName.map { JSONText.quoted($0) } ?? "null") + "}\n")
        } else {
            let title = feed.title ?? "(untitled feed)"
            out.line("== \(title) — \(formatName ?? "unknown format"), \(count) cards")
        }
        return .ok
    }
}

/// A card as a few lines of plain text (the terminal reader does the full layout). Each line
/// is one field from the feed, neutralised for the terminal (`TerminalText.line`).
enum CardText {
    static func block(_ c: Card) -> String {
        var s = ""
        func line(_ text: String) { s += TerminalText.line(text) + "\n" }
        line("* " + c.displayTitle(plainText: { HTMLText.plainText($0) }))
        if let link = c.link { line("  " + link) }
        var meta: [String] = []
        if let d = c.date { meta.append(d.iso8601) }
        if let a = c.author { meta.append(a) }
        if !meta.isEmpty { line("  " + meta.joined(separator: " · ")) }
        if let image = c.image { line("  [image] " + image) }
        for e in c.enclosures { line("  [\(e.type ?? "file")] " + e.url) }
        if let d = c.description {
            let text = TextRules.truncate(TextRules.collapseWhitespace(HTMLText.plainText(d)), to: 300)
            if !text.isEmpty { line("  " + text) }
        }
        return s + "\n"
    }
}

/// The file (or standard input) `feeds parse` reads, in chunks: the first one tells JSON from XML
/// before the rest is read, so standard input needs no second pass.
final class ParseInput {
    private let fd: Int32
    private let path: String

    init(path: String) throws {
        self.path = path
        fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY)
        guard fd >= 0 else { throw FeedParseError.unreadable("cannot open \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { if fd != STDIN_FILENO { close(fd) } }

    /// Up to `count` bytes; empty at the end of the input.
    func read(upTo count: Int) throws -> [UInt8] {
        // Uninitialized: zeroing a buffer that read(2) fills anyway cost ~3% of a parse.
        var failure: Int32?
        let buffer = [UInt8](unsafeUninitializedCapacity: count) { raw, initialized in
            var filled = 0
            while filled < count {
                let n = Glibc.read(fd, raw.baseAddress! + filled, count - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }
                filled += n
            }
            initialized = filled
        }
        if let failure {
            throw FeedParseError.unreadable("cannot read \(path): \(String(cString: strerror(failure)))")
        }
        return buffer
    }

    /// The rest of the input, at most `limit` bytes.
    func readRest(limit: Int) throws -> [UInt8] {
        var all: [UInt8] = []
        while all.count < limit {
            let chunk = try read(upTo: min(64 << 10, limit - all.count))
            if chunk.isEmpty { break }
            all += chunk
        }
        return all
    }

    /// Whether the first character that is not white space (or a byte order mark) is `{`.
    static func startsWithBrace(_ bytes: [UInt8]) -> Bool {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        return i < bytes.count && bytes[i] == UInt8(ascii: "{")
    }
}
