import FeedModel
import FeedParsing
import Foundation

/// One line of the sources file.
public struct SourceEntry: Sendable, Hashable {
    /// The URL or path as written: the source's identity in the database.
    public var url: String
    public var name: String?
    public var tags: [String]
    /// `every=`: the user's refresh interval, seconds.
    public var everySeconds: Int?
    public var keepDays: Int?
    public var keepCount: Int?
    /// `max-items=`: items of one fetch kept at most (default `defaultMaxItems`).
    public var maxItems: Int?
    /// `max-cards=`: cards of this source kept at most (default `defaultMaxCards`).
    public var maxCards: Int?
    /// 1-based line in the file (0 for entries not read from a file).
    public var line: Int
    /// Set for a saved search (`search:ENGINE "QUERY"` line); `url` is then its identity.
    public var search: SavedSearch? {
        get { searchBox?.search }
        set { searchBox = newValue.map(SearchBox.init) }
    }
    /// `search`, boxed: a `SavedSearch` is ~90 bytes inline, in every entry though few are
    /// searches, and an update run holds the entries of all its sources for its whole length
    /// (twice: the file's and the run's; a fifth of them at 5,000 feeds).
    private var searchBox: SearchBox?
    /// `skip=` and `keep=` rules: the line's own, then the `global` line's (see `CardRule`).
    public var rules: [CardRule] = []

    public init(url: String, name: String? = nil, tags: [String] = [], everySeconds: Int? = nil,
                keepDays: Int? = nil, keepCount: Int? = nil, maxItems: Int? = nil, maxCards: Int? = nil,
                line: Int = 0, search: SavedSearch? = nil) {
        self.url = url
        self.name = name
        self.tags = tags
        self.everySeconds = everySeconds
        self.keepDays = keepDays
        self.keepCount = keepCount
        self.maxItems = maxItems
        self.maxCards = maxCards
        self.line = line
        self.search = search
    }

    /// A saved search held by reference (see `searchBox`); compared and hashed by value.
    private final class SearchBox: Hashable, Sendable {
        let search: SavedSearch
        init(_ search: SavedSearch) { self.search = search }
        static func == (a: SearchBox, b: SearchBox) -> Bool { a.search == b.search }
        func hash(into hasher: inout Hasher) { hasher.combine(search) }
    }

    /// Whether `url` is a local file (a path, or a file:// URL).
    public var isFile: Bool { search.map(\.endpointIsFile) ?? !SourcesFile.hasWebScheme(url) }

    /// The URL to request: http(s) as written; a path (relative ones against `folder`, the sources
    /// file's folder) or a file:// URL as an absolute file:// URL.
    public func requestURL(relativeTo folder: String) -> String {
        if let search { return search.requestURL(relativeTo: folder) }
        if SourcesFile.hasWebScheme(url) { return url }
        var path = url
        if path.lowercased().hasPrefix("file://") {
            path = String(path.dropFirst(7))
            if path.hasPrefix("localhost/") { path = String(path.dropFirst(9)) }
            if !path.hasPrefix("/") { path = folder + "/" + path }  // file://relative/x (lenient)
        } else if path.lowercased().hasPrefix("file:") {
            path = String(path.dropFirst(5))
            if !path.hasPrefix("/") { path = folder + "/" + path }
        } else if !path.hasPrefix("/") {
            path = folder + "/" + path
        }
        let encoded = path.addingPercentEncoding(withAllowedCharacters: SourcesFile.pathCharacters) ?? path
        return "file://" + encoded
    }

    /// The line written for this entry: `URL name="…" tags=a,b every=30m keep-days=N keep-cards=N`.
    public var formatted: String {
        var parts = [SourcesFile.quoteIfNeeded(url)]
        if let search {
            // The query is always quoted, so a query like `a=b` never reads as an option.
            parts = ["search:" + search.engine.rawValue, SourcesFile.quoted(search.query)]
            if let e = search.endpoint { parts.append("endpoint=" + SourcesFile.quoteIfNeeded(e)) }
            if let f = search.format { parts.append("format=" + f) }
            if let c = search.count { parts.append("count=\(c)") }
            if search.preview { parts.append("preview=yes") }
            if let w = search.webSearch { parts.append("websearch=" + w.rawValue) }
            if let w = search.webSearchEndpoint { parts.append("websearch-endpoint=" + SourcesFile.quoteIfNeeded(w)) }
        }
        // An empty name is no name (`name=` alone is an error when read).
        if let name, !name.isEmpty { parts.append("name=" + SourcesFile.quoteIfNeeded(name)) }
        // Each tag as a word (no comma or blank: those separate tags when read); quoted when a
        // tag holds a quote, a control or a `#` (possible when the file quoted it; found by fuzzing).
        let words = tags.compactMap(SourcesFile.tagWord)
        if !words.isEmpty { parts.append("tags=" + SourcesFile.quoteIfNeeded(words.joined(separator: ","))) }
        if let everySeconds { parts.append("every=" + Interval.format(everySeconds)) }
        if let keepDays { parts.append("keep-days=\(keepDays)") }
        if let keepCount { parts.append("keep-cards=\(keepCount)") }
        if let maxItems { parts.append("max-items=\(maxItems)") }
        if let maxCards { parts.append("max-cards=\(maxCards)") }
        for rule in rules where !rule.isGlobal { parts.append(rule.action.rawValue + "=" + SourcesFile.quoted(rule.written)) }
        return parts.joined(separator: " ")
    }

    /// Items of one fetch kept by default: the first 5,000 in the feed's order (newest first,
    /// in nearly every feed). A feed of 10^6 items cost 594 MB of memory to update, and its
    /// cards would fill the database; no real feed lists this many.
    public static let defaultMaxItems = 5_000
    /// Cards of one source kept by default: twice the items of a fetch, so a feed that renews
    /// its whole list each time keeps the previous list too (see `FeedStore.capCards`).
    public static let defaultMaxCards = 10_000

    public var itemLimit: Int { maxItems ?? Self.defaultMaxItems }
    public var cardLimit: Int { maxCards ?? Self.defaultMaxCards }
}

/// The sources file: plain text, one source a line, meant to be edited by hand and kept in git.
///
///     # comment lines and blank lines are ignored; so is the rest of a line after " #"
///     https://example.org/feed.xml   name="Example blog"  tags=tech,news  every=30m
///     samples/local.rss              keep-days=30  keep-cards=200
///
/// The first word is the URL: `http://`, `https://`, `file://`, or a path (relative paths are
/// resolved against the folder of the sources file). Then options, `key=value`, in any order;
/// a value with spaces is written in double quotes. Inside quotes `\"` is a quote, `\\` a
/// backslash, `\n`, `\r`, `\t` a line feed, carriage return and tab, `\u{202E}` any character by
/// its code point, and a backslash before anything else stands for that character. So every
/// value can be written, and `feeds add` and `feeds import` write every value so that it reads
/// back as itself (`quoted`): a title with a line break never splits a line.
/// - `name=` a display name (default: the feed's own title);
/// - `tags=` comma-separated words;
/// - `every=` refresh interval, a duration of `TimeSpec` (`90s`, `30m`, `2h`, `1d`, `2w`; a bare
///   number is minutes); without it the feed's own hints (ttl, Cache-Control…) decide;
/// - `keep-days=` (days, or a duration of whole days: `2w`), `keep-cards=` retention (read
///   cards only; unread cards are never deleted);
/// - `max-items=` items of one fetch kept (default 5,000: the first in the feed's order), and
///   `max-cards=` cards of the source kept (default 10,000; see `FeedStore.capCards`);
/// - `skip=REGEX`, `keep=REGEX` block and keep rules (`CardRule`), also on a line
///   `global skip=… keep=…` for every feed.
/// A URL listed twice is an error, as is an unknown option; errors name the line, and a line
/// in error is skipped (`listing`), the others read.
///
/// A saved web search is a line `search:ENGINE "QUERY" [options]` (engines: ddg, searxng,
/// opensearch, susi, hn); its identity is `search:ENGINE QUERY`. Besides the options above it
/// takes `endpoint=URL|PATH` (the engine's address, or a saved response file; required for
/// searxng and opensearch), `preview=yes` (page preview images for results without one),
/// `format=json|rss` (searxng), `count=N` (opensearch, hn), and for susi `websearch=ENGINE` and
/// `websearch-endpoint=URL` (where its `websearch` answers go; default ddg):
///
///     search:ddg "swift concurrency"  every=6h preview=yes
///     search:searxng "sqlite wal" endpoint=https://searx.example/ format=rss
public enum SourcesFile {
    /// The lines of the file that read, skipping (not stopping at) the ones that do not: one
    /// mistyped line must not stop every other source. `Workspace` keeps the problems for the
    /// commands to report; a missing file is no sources.
    public static func read(path: String) throws -> [SourceEntry] {
        try readListing(path: path).entries
    }

    /// The file read line by line: what reads, and why each other line does not.
    public static func readListing(path: String) throws -> SourcesListing {
        guard FileManager.default.fileExists(atPath: path) else { return SourcesListing(exists: false) }
        guard let data = contents(atPath: path) else {
            throw AggregatorError.cannotRead(path: path, reason: "permission denied or not a file")
        }
        return listing(data, path: path)
    }

    /// The listing of a sources file's bytes as read from `path`.
    static func listing(_ data: Data, path: String) -> SourcesListing {
        listing(String(decoding: data, as: UTF8.self), path: path)
    }

    /// Every line that reads, or the first problem (a line given on the command line, a test).
    public static func parse(_ text: String, path: String = "sources") throws -> [SourceEntry] {
        let all = listing(text, path: path)
        if let first = all.problems.first { throw first.error }
        return all.entries
    }

    /// Every line that reads, and for each that does not, its error; a line listing a URL
    /// again is skipped (the first stays).
    public static func listing(_ text: String, path: String = "sources") -> SourcesListing {
        var result = SourcesListing(exists: true)
        var seen: [String: Int] = [:]
        var globalRules: [CardRule] = []
        // Lines split on the byte "\n" (0x0A is never part of another character in UTF-8): as
        // Characters, "\r\n" is one Character that is not "\n", and a file saved with CRLF line
        // ends would read as one long line. Bytes, not unicode scalars: building each line
        // scalar by scalar was half of the start-up of every command with 5,000 sources.
        // In the text's contiguous bytes: splitting its UTF8View (an index walk) was 3 % of
        // `feeds sources` with 5,000 lines.
        var text = text
        text.withUTF8 { bytes in
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            // The entries' array at its size at once: growing it copied every entry (a few
            // hundred bytes each) again and again with 5,000 lines.
            result.entries.reserveCapacity(lines.count)
            seen.reserveCapacity(lines.count)
            for (index, rawBytes) in lines.enumerated() {
                // The line's bytes, valid UTF-8 (the text's, split at "\n"), read as they are;
                // a String of the line only for a problem (its identity): making one for every
                // line, then reading its bytes again, was ~7 % of reading 5,000 lines.
                let bytes = UnsafeBufferPointer(rebasing: rawBytes)
                do {
                    if let entry = try readLine(index + 1, bytes, path: path, seen: &seen, globalRules: &globalRules) {
                        result.entries.append(entry)
                    }
                } catch let error as AggregatorError {
                    let raw = String(decoding: bytes, as: UTF8.self)
                    result.problems.append(SourcesListing.Problem(error: error, identity: identity(ofLine: raw)))
                } catch {
                    result.problems.append(SourcesListing.Problem(error: .sourcesFile(path: path, line: index + 1, reason: "\(error)"), identity: nil))
                }
            }
        }
        // A `global` line's rules go to every feed, whichever lines come before it.
        if !globalRules.isEmpty {
            for i in result.entries.indices where result.entries[i].search == nil { result.entries[i].rules += globalRules }
        }
        return result
    }

    /// One line's bytes (valid UTF-8): its entry, nil for a blank, comment or `global` line
    /// (whose rules it adds to `globalRules`), or the error naming the line.
    static func readLine(_ number: Int, _ rawLine: UnsafeBufferPointer<UInt8>, path: String, seen: inout [String: Int],
                         globalRules: inout [CardRule]) throws -> SourceEntry? {
            func bad(_ reason: String) -> AggregatorError { .sourcesFile(path: path, line: number, reason: reason) }
            let marked: [(word: String, quoted: Bool)]
            do { marked = try tokenizeMarked(bytes: rawLine) } catch let e as TokenError { throw bad(e.reason) }
            var words = marked.map(\.word)
            guard var url = words.first else { return nil }
            if url == "global", words.count > 1, !marked[0].quoted {
                globalRules += try globalLine(words.dropFirst(), bad: bad)
                return nil
            }
            var search: SavedSearch?
            // (A "search:" needs its ":", and no character lowercases to one: most lines are
            // not lowercased at all. So does every problem `urlProblem` finds: a path without a
            // ":" is not looked at again.)
            let hasColon = url.utf8.contains(UInt8(ascii: ":"))
            if hasColon, isSearchWord(url) {
                let engineName = String(url.dropFirst(7))
                guard let engine = SearchEngine(name: engineName) else {
                    throw bad("unknown search engine '\(engineName)': known are \(SearchEngine.namesForHelp) (search:ddg \"QUERY\")")
                }
                guard marked.count >= 2, marked[1].quoted || !marked[1].word.unicodeScalars.contains("="), !marked[1].word.isEmpty else {
                    throw bad("\(url) needs a query after it: \(url) \"QUERY\" [options]")
                }
                search = SavedSearch(engine: engine, query: marked[1].word)
                url = search!.identity
                words.removeFirst()
                words[0] = url
            }
            // The byte "=" is the scalar "=" in UTF-8 (and no other scalar holds it).
            guard search != nil || !url.utf8.contains(UInt8(ascii: "=")) || url.contains("://") || url.contains("/") else {
                throw bad("a line starts with the URL, found option '\(url)'")
            }
            if search == nil, hasColon, let reason = urlProblem(url) { throw bad(reason) }
            // One lookup for a new URL (most lines); a URL listed again keeps its first line.
            if let first = seen.updateValue(number, forKey: url) {
                seen[url] = first
                throw bad("\(url) is already listed on line \(first)")
            }
            var entry = SourceEntry(url: url, line: number)
            entry.search = search
            for word in words.dropFirst() {
                // Split on the scalar "=" (a combining mark after it would hide it from a
                // Character search), found as its byte: in UTF-8 the byte "=" is always that
                // scalar, and the bytes either side of it are whole scalars. (Building the key
                // and the value scalar by scalar was a tenth of `feeds sources` with 5,000 lines.)
                guard let eq = word.utf8.firstIndex(of: UInt8(ascii: "=")) else {
                    throw bad("expected key=value after the URL, found '\(word)' (quote values with spaces)")
                }
                // Lowercased only when it has a capital A-Z or a byte past ASCII (most keys are
                // written in lowercase: `lowercased()` of each was 3 % of reading a line).
                let written = String(decoding: word.utf8[..<eq], as: UTF8.self)
                let key = written.utf8.allSatisfy({ $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) }) ? written : written.lowercased()
                let value = String(decoding: word.utf8[word.utf8.index(after: eq)...], as: UTF8.self)
                switch key {
                case "name":
                    guard !value.isEmpty else { throw bad("name= is empty") }
                    entry.name = value
                case "tags", "tag":
                    // On bytes: every separator is ASCII (see `separatesTags`).
                    entry.tags = value.utf8.split(whereSeparator: SourcesFile.separatesTags)
                        .map { String(decoding: $0, as: UTF8.self) }
                case "every":
                    guard let seconds = Interval.parse(value) else { throw bad(TimeSpec.problem("every=", value, durationsOnly: true)) }
                    entry.everySeconds = seconds
                case "keep-days":
                    entry.keepDays = try Interval.days(value, option: "keep-days=", bad: bad)
                case "keep" where !(value.allSatisfy { $0.isASCII && $0.isNumber } && !value.isEmpty):
                    // `keep=N`, digits only, is the old spelling of keep-cards=N; anything else a rule.
                    guard entry.search == nil else { throw bad("keep= goes on feed lines and the global line, not on search lines") }
                    entry.rules.append(try rule(key, value, isGlobal: false, count: entry.rules.count, bad: bad))
                case "keep-cards", "keep":
                    guard let n = Int(value), n >= 0 else { throw bad("keep-cards=\(value) is not a number of cards") }
                    entry.keepCount = n
                case "max-items":
                    guard let n = Int(value), n >= 1 else { throw bad("max-items=\(value) is not a number of items (1 or more)") }
                    entry.maxItems = n
                case "max-cards":
                    guard let n = Int(value), n >= 1 else { throw bad("max-cards=\(value) is not a number of cards (1 or more)") }
                    entry.maxCards = n
                case "skip":
                    guard entry.search == nil else { throw bad("skip= goes on feed lines and the global line, not on search lines") }
                    entry.rules.append(try rule(key, value, isGlobal: false, count: entry.rules.count, bad: bad))
                default:
                    guard entry.search != nil else {
                        if SavedSearch.optionNames.contains(key) { throw bad("\(key)= is an option of search lines (search:ENGINE \"QUERY\" \(key)=...)") }
                        throw bad("unknown option '\(key)': known are name=, tags=, every=, keep-days=, keep-cards=, max-items=, max-cards=, skip=, keep=")
                    }
                    try entry.search!.setOption(key, value, bad: bad)
                }
            }
            if let search = entry.search, let reason = search.problem { throw bad(reason) }
            return entry
    }

    /// The rules of a `global skip=… keep=…` line: what every feed's cards go through.
    static func globalLine(_ words: ArraySlice<String>, bad: (String) -> AggregatorError) throws -> [CardRule] {
        var rules: [CardRule] = []
        for word in words {
            guard let eq = word.unicodeScalars.firstIndex(of: "=") else {
                throw bad("expected key=value after global, found '\(word)' (quote values with spaces)")
            }
            let key = String(word.unicodeScalars[..<eq]).lowercased()
            guard key == "skip" || key == "keep" else { throw bad("the global line takes skip= and keep= only, found '\(key)='") }
            rules.append(try rule(key, String(word.unicodeScalars[word.unicodeScalars.index(after: eq)...]), isGlobal: true,
                                  count: rules.count, bad: bad))
        }
        return rules
    }

    static func rule(_ key: String, _ value: String, isGlobal: Bool, count: Int, bad: (String) -> AggregatorError) throws -> CardRule {
        guard count < CardRule.maxPerLine else { throw bad("more than \(CardRule.maxPerLine) skip= and keep= rules on one line") }
        switch CardRule.parse(key == "skip" ? .skip : .keep, value, isGlobal: isGlobal) {
        case .success(let rule): return rule
        case .failure(let error): throw bad(error.reason)
        }
    }

    /// Why `url` cannot be a source, or nil when it can.
    static func urlProblem(_ url: String) -> String? {
        // Every problem below needs a ":" (a scheme's), and no character lowercases to one: a
        // path without it is fine, found without lowercasing it (most lines of a big file are
        // paths or URLs; lowercasing each was 3 % of `feeds sources` with 5,000 lines).
        guard url.utf8.contains(UInt8(ascii: ":")) else { return nil }
        // Printable ASCII (nearly every URL): there each Character is one byte and lowercasing
        // touches A-Z only, so the rules below read the same on bytes (lowercasing and walking
        // Characters was 40 % of reading a line of 5,000: ~24 M instructions).
        if isPrintableASCII(url) { return asciiURLProblem(url) }
        let lower = url.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            let rest = url.drop { $0 != "/" }.dropFirst(2)
            return rest.isEmpty || rest.hasPrefix("/") ? "\(url) has no host name" : nil
        }
        if lower.hasPrefix("file:") { return nil }
        if let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/"),
           url[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) {
            return "unsupported URL scheme '\(url[..<colon])': use http://, https://, file:// or a file path"
        }
        return nil
    }

    /// Whether a line's first word starts with `search:` in any case: on its bytes when it is
    /// printable ASCII (where lowercasing touches A-Z only and a Character is a byte).
    static func isSearchWord(_ word: String) -> Bool {
        guard isPrintableASCII(word) else { return word.lowercased().hasPrefix("search:") }
        return hasLowercasePrefix(word.utf8, "search:")
    }

    private static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Whether `bytes`, their letters A-Z lowercased, start with `prefix` (lowercase ASCII).
    private static func hasLowercasePrefix<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ prefix: String) -> Bool {
        bytes.count >= prefix.utf8.count
            && zip(bytes, prefix.utf8).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
    }

    /// `urlProblem` of a URL of printable ASCII, on its bytes.
    private static func asciiURLProblem(_ url: String) -> String? {
        let bytes = Array(url.utf8)
        func hasPrefix(_ prefix: String) -> Bool { hasLowercasePrefix(bytes, prefix) }
        if hasPrefix("http://") || hasPrefix("https://") {
            // What follows the first "/" and the byte after it: the host, unless empty or a "/".
            let rest = (bytes.firstIndex(of: UInt8(ascii: "/")) ?? bytes.count) + 2
            return rest >= bytes.count || bytes[rest] == UInt8(ascii: "/") ? "\(url) has no host name" : nil
        }
        if hasPrefix("file:") { return nil }
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), !bytes[..<colon].contains(UInt8(ascii: "/")),
           bytes[..<colon].allSatisfy({ b in
               (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
                   || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
           }) {
            return "unsupported URL scheme '\(String(decoding: bytes[..<colon], as: UTF8.self))': use http://, https://, file:// or a file path"
        }
        return nil
    }

    static func hasWebScheme(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    static let pathCharacters: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: "%?#")
        return set
    }()

    struct TokenError: Error { var reason: String }

    /// Words separated by blanks; `"…"` quotes (inside a word, as in name="A B"); ` #` starts a comment.
    static func tokenize(_ line: String) throws -> [String] {
        try tokenizeMarked(line).map(\.word)
    }

    /// `tokenize`, telling for each word whether any of it was quoted (a search query is the
    /// word after `search:ENGINE`, and a quoted `"a=b"` is a query, not an option).
    static func tokenizeMarked(_ line: String) throws -> [(word: String, quoted: Bool)] {
        var line = line
        return try line.withUTF8 { try tokenizeMarked(bytes: $0) }
    }

    /// `tokenizeMarked` of a line's UTF-8 bytes. Every byte this looks for is ASCII, and in
    /// UTF-8 an ASCII byte is always that character (a multi-byte character has no byte below
    /// 0x80), so this reads the line exactly as scalar by scalar would, a character's bytes
    /// copied as they are. Scalars, not Characters: a combining mark after `"` or `#` would
    /// join it into one Character that is neither (found by fuzzing: a quote the writer added
    /// was not read). A word is the line's bytes between two offsets unless quotes or escapes
    /// break it up, when its runs are copied into a buffer: copying byte by byte, through the
    /// String's iterator, was 40 % of reading a line (5,000 lines before every command).
    static func tokenizeMarked(bytes: UnsafeBufferPointer<UInt8>) throws -> [(word: String, quoted: Bool)] {
        var words: [(word: String, quoted: Bool)] = []
        words.reserveCapacity(4)  // a URL and a few options: one allocation, where growing took three
        var current: [UInt8] = []  // the word so far, when quotes or escapes broke it up
        var runStart = -1          // where the word's current run of plain bytes starts; -1: none
        var inWord = false
        var quoted = false
        var wasQuoted = false
        func endRun(at end: Int) {
            guard runStart >= 0 else { return }
            current.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<end]))
            runStart = -1
        }
        func endWord(at end: Int) {
            let word: String
            if current.isEmpty, runStart >= 0 {
                word = String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<end]), as: UTF8.self)
                runStart = -1
            } else {
                endRun(at: end)
                word = String(decoding: current, as: UTF8.self)
                current.removeAll(keepingCapacity: true)
            }
            words.append((word, wasQuoted))
            inWord = false
            wasQuoted = false
        }
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if quoted {
                if c == UInt8(ascii: "\\") {
                    endRun(at: i)
                    guard i + 1 < bytes.count else { throw TokenError(reason: "a line ends with \\ inside quotes") }
                    let next = bytes[i + 1]
                    i += 2
                    switch next {
                    case UInt8(ascii: "n"): current.append(0x0A)
                    case UInt8(ascii: "r"): current.append(0x0D)
                    case UInt8(ascii: "t"): current.append(0x09)
                    case UInt8(ascii: "u"): current.append(contentsOf: String(try codePoint(bytes, at: &i)).utf8)
                    default: current.append(next)  // the rest of a multi-byte character follows as it is
                    }
                    continue
                }
                if c == UInt8(ascii: "\"") {
                    endRun(at: i)
                    quoted = false
                } else if runStart < 0 {
                    runStart = i
                }
                i += 1
                continue
            }
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
                if inWord { endWord(at: i) }
                i += 1
                continue
            }
            if c == UInt8(ascii: "#") && !inWord { break }
            inWord = true
            if c == UInt8(ascii: "\"") {
                endRun(at: i)
                quoted = true
                wasQuoted = true
            } else if runStart < 0 {
                runStart = i
            }
            i += 1
        }
        if quoted { throw TokenError(reason: "unclosed quote: a \" opened on this line is never closed") }
        if inWord { endWord(at: bytes.count) }
        return words
    }

    /// `{HEX}` after `\u` inside quotes, from `bytes[i]` on (`i` left after the `}`): the
    /// character with that code point.
    static func codePoint(_ bytes: UnsafeBufferPointer<UInt8>, at i: inout Int) throws -> Unicode.Scalar {
        let bad = TokenError(reason: "\\u inside quotes takes a code point in braces, like \\u{202E}")
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { throw bad }
        i += 1
        var hex = ""
        while i < bytes.count {
            let c = bytes[i]
            i += 1
            if c == UInt8(ascii: "}") {
                guard !hex.isEmpty, let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else { throw bad }
                return scalar
            }
            guard hex.count < 6, c < 0x80, Unicode.Scalar(c).properties.isASCIIHexDigit else { throw bad }
            hex.unicodeScalars.append(Unicode.Scalar(c))
        }
        throw bad
    }

    /// Whether `url` can be a line of the file: no blank, quote, `#` or control character
    /// (none belongs in a URL; an OPML file's `xmlUrl="a&#10;b"` is refused here).
    public static func isAcceptable(_ url: String) -> Bool {
        !url.isEmpty && urlProblem(url) == nil
            && !url.unicodeScalars.contains(where: { $0 == " " || $0 == "\"" || $0 == "#" || TerminalText.isNeutralised($0) })
    }

    /// What splits a `tags=` value: commas and blanks.
    static func separatesTags(_ c: Unicode.Scalar) -> Bool { c.isASCII && separatesTags(UInt8(c.value)) }

    /// `separatesTags` of a UTF-8 byte (every separator is ASCII, and an ASCII byte is always
    /// that character in UTF-8).
    static func separatesTags(_ b: UInt8) -> Bool {
        b == UInt8(ascii: ",") || b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r")
    }

    /// `tag` as a tag of the file: commas and blanks (which separate tags when read) as `-`;
    /// nil when nothing is left.
    public static func tagWord(_ tag: String) -> String? {
        var out = String.UnicodeScalarView()
        for c in tag.unicodeScalars {
            if separatesTags(c) { if let last = out.last, last != "-" { out.append("-") } } else { out.append(c) }
        }
        while out.last == "-" { out.removeLast() }
        return out.isEmpty ? nil : String(out)
    }

    /// A URL or path for the first word of a line (quoted when it has spaces).
    public static func quoteIfNeededForURL(_ url: String) -> String { quoteIfNeeded(url) }

    /// A search query for a line, in double quotes (always: `"a=b"` is a query, not an option).
    public static func quotedQuery(_ s: String) -> String { quoted(s) }

    /// `s` in double quotes, always.
    static func quoted(_ s: String) -> String {
        // Scalar by scalar, as the tokenizer reads (a `"` followed by a combining mark is one
        // Character, which a Character-based replace would not see).
        var out = String.UnicodeScalarView()
        out.append("\"")
        for c in s.unicodeScalars {
            switch c {
            case "\\", "\"": out.append("\\"); out.append(c)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            // Other controls, bidi overrides and line separators: by code point, so the file
            // shows them and an editor or a terminal showing it never acts on them.
            case _ where TerminalText.isNeutralised(c):
                out.append(contentsOf: ("\\u{" + String(c.value, radix: 16, uppercase: true) + "}").unicodeScalars)
            default: out.append(c)
            }
        }
        out.append("\"")
        return String(out)
    }

    /// The identity a line describes: its first word, or `search:ENGINE QUERY` for a search line.
    static func identity(ofLine line: String) -> String? {
        guard let words = try? tokenize(line), let first = words.first else { return nil }
        if first.lowercased().hasPrefix("search:"), words.count >= 2, let engine = SearchEngine(name: String(first.dropFirst(7))) {
            return SavedSearch(engine: engine, query: words[1]).identity
        }
        return first
    }

    public static func quoteIfNeeded(_ s: String) -> String {
        // "\r" splits words like a space does (found by fuzzing: a quoted "\r" was written bare).
        guard s.unicodeScalars.contains(where: { $0 == " " || $0 == "\"" || $0 == "#" || $0 == "\\" || TerminalText.isNeutralised($0) })
                || s.isEmpty else { return s }
        return quoted(s)
    }

    /// The file's bytes, or nil when it cannot be read. Not `FileManager.contents(atPath:)` on
    /// an empty file: Foundation on Linux leaks its 4 KiB read buffer there (LeakSanitizer,
    /// `make test-sanitizers`), and an empty sources file is what a fresh home has.
    static func contents(atPath path: String) -> Data? {
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
           size.intValue == 0, FileManager.default.isReadableFile(atPath: path) {
            return Data()
        }
        return FileManager.default.contents(atPath: path)
    }

    // MARK: Editing (feeds add, remove, import)

    /// Appends lines for `entries` to the file (creating it and its folder), keeping everything
    /// already in it byte for byte.
    public static func append(_ entries: [SourceEntry], to path: String) throws {
        guard !entries.isEmpty else { return }
        var text = ""
        if let data = contents(atPath: path) {
            text = String(decoding: data, as: UTF8.self)
            if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        } else {
            text = "# feeds sources: one source a line; see README (name=, tags=, every=, keep-days=, keep-cards=)\n"
        }
        for e in entries { text += e.formatted + "\n" }
        try write(text, to: path)
    }

    /// Removes the lines of the sources whose URL is in `urls`; comments and other lines stay.
    public static func remove(urls: Set<String>, from path: String) throws {
        guard let data = contents(atPath: path) else { return }
        // Split on the scalar "\n", as `parse` does (a CRLF line end stays with its line).
        let lines = String(decoding: data, as: UTF8.self).unicodeScalars
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0)) }
        let kept = lines.filter { line in
            guard let identity = identity(ofLine: line) else { return true }
            return !urls.contains(identity)
        }
        try write(kept.joined(separator: "\n"), to: path)
    }

    /// Writes through a temporary file and a rename, so a crash never leaves half a file.
    static func write(_ text: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            let temporary = path + ".tmp"
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
            if rename(temporary, path) != 0 { throw AggregatorError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        } catch let e as AggregatorError {
            throw e
        } catch {
            throw AggregatorError.cannotWrite(path: path, reason: error.localizedDescription)
        }
    }
}

/// Durations of the sources file, in the one grammar (`TimeSpec`).
public enum Interval {
    /// `every=`: a refresh interval, `45s`, `30m`, `2h`, `1d`, `1w` (a bare number is minutes),
    /// more than nothing and at most a million weeks.
    public static func parse(_ text: String) -> Int? {
        guard let seconds = TimeSpec.durationSeconds(text, bareUnit: 60), seconds > 0, seconds <= 604_800 * 1_000_000 else { return nil }
        return Int(seconds)
    }

    /// `keep-days=`: whole days, `30` (days), `2w`, `1d`; nothing else.
    static func days(_ text: String, option: String, bad: (String) -> AggregatorError) throws -> Int {
        guard let seconds = TimeSpec.durationSeconds(text, bareUnit: 86_400) else { throw bad(TimeSpec.problem(option, text, durationsOnly: true)) }
        guard seconds % 86_400 == 0 else { throw bad("\(option)\(text) is not whole days: write 30 (days), 2w or 3d") }
        return Int(seconds / 86_400)
    }

    public static func format(_ seconds: Int) -> String {
        for (unit, size) in [("w", 604_800), ("d", 86_400), ("h", 3600), ("m", 60)] where seconds >= size && seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }
}
