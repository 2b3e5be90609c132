import Aggregator
import FeedModel
import FeedParsing
import Fetching
import Markup

/// The fuzz targets: each takes one input and returns, or throws `InvariantViolation` when what
/// came out breaks the card contract (see `Invariant`): they check more than "no crash".
/// `feeds-fuzz` runs them under libFuzzer; HardeningTests replays the saved inputs.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// RSS, Atom, RDF (and anything else `FeedParser` detects): the whole parse.
    case xml
    /// JSON Feed through the same entry point (JSON is detected from the content).
    case json
    /// The search engines' response readers (DuckDuckGo, SearXNG, OpenSearch, SUSI, Hacker News):
    /// the first byte picks the engine (or none: detection from the JSON's shape).
    case search
    /// The JSON reader's memory: what a document costs (`JSONFootprint`) within the bound the
    /// reader promises, under the standard limits and small ones; then the same bytes through
    /// JSON Feed and every search engine's reader (libFuzzer's -malloc_limit_mb catches the rest).
    case jsonMemory
    /// The HTML sanitizer, HTML-to-text and a page head's preview image.
    case html
    /// The date parser.
    case date
    /// The sources file and OPML readers.
    case sources
    /// URL resolution and normalization.
    case url
    /// The text writers: a card's and a source's fields (controls in every one) through the
    /// digest and error messages; nothing from the input may control the terminal.
    case text
    /// The update path's numbers: a response (header lines, a blank line, a feed body) read as
    /// `feeds update` reads it (max-age, Expires, Retry-After, the feed's ttl and
    /// sy:updateFrequency, enclosure lengths), then scheduled at several moments a store may
    /// hold, after a success and after a failure: no trap, every result within its bounds.
    case schedule

    public func run(_ bytes: [UInt8]) throws {
        switch self {
        case .xml, .json: try Self.feed(bytes)
        case .search: try Self.search(bytes)
        case .jsonMemory: try Self.jsonMemory(bytes)
        case .html: try Self.html(String(decoding: bytes, as: UTF8.self))
            let preview = PagePreview.image(inPageHead: bytes, base: "https://fuzz.example/page", charset: nil)
            try Invariant.optionalImage(preview, "page preview image")
        case .date: try Self.date(String(decoding: bytes, as: UTF8.self))
        case .sources: try Self.sources(String(decoding: bytes, as: UTF8.self))
        case .url: try Self.url(bytes)
        case .text: try TextWriters.run(bytes)
        case .schedule: try ScheduleFuzz.run(bytes)
        }
    }

    private static func feed(_ bytes: [UInt8]) throws {
        // The document URL matters: relative links resolve against it. Errors are fine (not a
        // feed); only what is returned must obey the contract.
        guard let parsed = try? FeedParser.parse(bytes, options: ParseOptions(baseURL: "https://fuzz.example/feed/")) else {
            return
        }
        for card in parsed.cards { try Invariant.card(card) }
        try Invariant.optionalImage(parsed.feed.image, "feed image")
    }

    private static func search(_ bytes: [UInt8]) throws {
        guard let selector = bytes.first else { return }
        let engines = SearchEngine.allCases
        let engine = Int(selector) < engines.count ? engines[Int(selector)] : nil
        guard let result = try? SearchReader.read(Array(bytes.dropFirst()), engine: engine, query: "fuzz",
                                                  base: "https://fuzz.example/search") else { return }
        for card in result.cards { try Invariant.card(card) }
        if let total = result.totalResults { try Invariant.check(total >= 0, "negative total \(total)") }
    }

    private static func jsonMemory(_ bytes: [UInt8]) throws {
        for limits in [JSONLimits.standard, JSONLimits(maxDepth: 4, maxValues: 64)] {
            guard let f = try? JSONFootprint.measure(bytes, limits: limits) else { continue }
            // Every value takes at least one byte of input; decoding never makes a string longer.
            try Invariant.check(f.values <= bytes.count && f.values <= limits.maxValues, "\(f.values) values from \(bytes.count) bytes")
            try Invariant.check(f.nodeBytes <= JSONFootprint.bytesPerValue * bytes.count, "\(f.nodeBytes) node bytes from \(bytes.count) bytes")
            try Invariant.check(f.depth <= limits.maxDepth, "depth \(f.depth) past the limit \(limits.maxDepth)")
            try Invariant.check(f.decodedStringBytes <= f.rawStringBytes, "strings grew: \(f.rawStringBytes) -> \(f.decodedStringBytes) bytes")
        }
        try feed(bytes)
        for engine in SearchEngine.allCases {
            guard let result = try? SearchReader.read(bytes, engine: engine, query: "fuzz", base: "https://fuzz.example/search") else { continue }
            for card in result.cards { try Invariant.card(card) }
        }
    }

    private static func html(_ text: String) throws {
        let once = HTMLSanitizer.sanitize(text, base: "https://fuzz.example/")
        try Invariant.safeHTML(once, "sanitized")
        let twice = HTMLSanitizer.sanitize(once, base: "https://fuzz.example/")
        try Invariant.check(twice == once, "sanitizing twice changed the output:\n\(once)\n---\n\(twice)")
        _ = HTMLText.plainText(text)
        _ = HTMLText.plainText(once)
    }

    private static func date(_ text: String) throws {
        if let date = FeedDate.parse(text) { try Invariant.date(date, "date of \(text.debugDescription)") }
    }

    private static func sources(_ text: String) throws {
        if let entries = try? SourcesFile.parse(text, path: "fuzz") {
            // What the reader accepts, the writer writes back as the same entries.
            let written = entries.map(\.formatted).joined(separator: "\n")
            let again = try? SourcesFile.parse(written, path: "fuzz")
            // Every field, not only the URL (issue 15: a value must read back as exactly itself).
            // The `global` line's rules are copied into each entry when read and are not a line's
            // own: the writer leaves them out, so they are compared without.
            func unnumbered(_ list: [SourceEntry]?) -> [SourceEntry]? {
                list?.map { var e = $0; e.line = 0; e.rules.removeAll(where: \.isGlobal); return e }
            }
            try Invariant.check(unnumbered(again) == unnumbered(entries), "sources line did not round-trip:\n\(written)")
        }
        if let entries = try? OPML.parse(text) {
            for entry in entries { try Invariant.check(!entry.url.isEmpty, "OPML entry without a URL") }
        }
    }

    private static func url(_ bytes: [UInt8]) throws {
        // First line the base, the rest the reference.
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let base = parts.first.map(String.init) ?? ""
        let reference = parts.count > 1 ? String(parts[1]) : ""
        let resolved = WebAddress.resolve(reference, against: base)
        let absoluteBase = WebAddress(parsing: base)
        if absoluteBase.isAbsolute, !resolved.isEmpty {
            try Invariant.check(WebAddress(parsing: resolved).isAbsolute,
                            "resolving \(reference.debugDescription) against \(base.debugDescription) gave a relative \(resolved.debugDescription)")
        }
        // Resolution is stable: an absolute result resolves to itself.
        if WebAddress(parsing: resolved).isAbsolute {
            let again = WebAddress.resolve(resolved, against: base)
            try Invariant.check(again == resolved, "not idempotent: \(resolved.debugDescription) -> \(again.debugDescription)")
        }
    }
}
