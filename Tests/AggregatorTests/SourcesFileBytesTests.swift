@testable import Aggregator
import Foundation
import TestSupport
import XCTest

/// Issue 21: the sources file's options are split and its URLs checked on UTF-8 bytes, not
/// scalar by scalar or Character by Character (a third of reading a 5,000-line file). A
/// generator of words around every byte those look for ("=", ",", ":", blanks) with what could
/// make bytes and scalars or Characters disagree (combining marks after them, a prepended mark
/// before them, non-ASCII letters whose case maps to ASCII, CR LF, non-ASCII blanks): each line
/// reads exactly as the scalar-by-scalar reading (kept here as the reference) says.
final class SourcesFileBytesTests: XCTestCase {
    static let pieces: [String] = [
        "=", "==", ",", ", ", "\u{301}", "\u{600}", "\u{600}=", "=\u{301}", ",\u{301}", ":", ":\u{301}", "://", "/",
        "http", "HTTP", "https", "file", "FILE", "search", "SEARCH", "\u{17F}earch", "\u{212A}", "\u{130}", "K",
        "a", "Z9", "+", "-", ".", "é", "e\u{301}", "日本", "🦆", "\u{A0}", "\u{2028}", "\r", "\\r", "\\n", "\\u{2C}", "x",
    ]

    static func word(_ random: inout SplitMix64) -> String {
        (0..<Int.random(in: 1...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    /// The reference: how the options' key, value and tags were read, scalar by scalar.
    static func referenceOption(_ word: String) -> (key: String, value: String)? {
        guard let eq = word.unicodeScalars.firstIndex(of: "=") else { return nil }
        return (String(word.unicodeScalars[..<eq]).lowercased(), String(word.unicodeScalars[word.unicodeScalars.index(after: eq)...]))
    }

    static func referenceTags(_ value: String) -> [String] {
        value.unicodeScalars.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            .map { String(String.UnicodeScalarView($0)) }
    }

    /// The reference `urlProblem`: lowercased, then Characters.
    static func referenceURLProblem(_ url: String) -> String? {
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

    /// The reason of a listing's first problem.
    static func reason(_ listing: SourcesListing) -> String {
        guard case let .sourcesFile(_, _, reason)? = listing.problems.first?.error else { return "" }
        return reason
    }

    func testURLProblemsAsCharactersSayThem() {
        var random = SplitMix64(seed: 2101)
        var problems = 0
        for _ in 0..<20_000 {
            let url = Self.word(&random) + (Bool.random(using: &random) ? "" : Self.word(&random))
            XCTAssertEqual(SourcesFile.urlProblem(url), Self.referenceURLProblem(url), url.debugDescription)
            if Self.referenceURLProblem(url) != nil { problems += 1 }
        }
        XCTAssertGreaterThan(problems, 500, "the generator makes URLs with problems too")
    }

    func testOptionsAndTagsReadAsScalarsSayThem() throws {
        var random = SplitMix64(seed: 2102)
        var checked = 0
        for round in 0..<5_000 {
            let name = Self.word(&random), tags = Self.word(&random) + "," + Self.word(&random)
            let line = "feeds/f\(round).rss name=" + SourcesFile.quoted(name) + " tags=" + SourcesFile.quoted(tags)
            let entries = SourcesFile.listing(line).entries
            XCTAssertEqual(entries.count, 1, line.debugDescription)
            guard let entry = entries.first else { continue }
            XCTAssertEqual(entry.name, name, line.debugDescription)
            XCTAssertEqual(entry.tags, Self.referenceTags(tags), line.debugDescription)
            checked += 1
        }
        XCTAssertEqual(checked, 5_000)
        // A bare word: its key and value where the first scalar "=" is, whatever is around it;
        // the line reads as the key says (an unknown option is the line's problem).
        for round in 0..<5_000 {
            let word = Self.word(&random)
            let listing = SourcesFile.listing("feeds/g\(round).rss " + SourcesFile.quoted(word))
            guard let (key, value) = Self.referenceOption(word) else {
                XCTAssertTrue(listing.entries.isEmpty, word.debugDescription)
                XCTAssertTrue(Self.reason(listing).contains("expected key=value"), word.debugDescription)
                continue
            }
            switch key {
            case "name" where !value.isEmpty: XCTAssertEqual(listing.entries.first?.name, value, word.debugDescription)
            case "tags", "tag": XCTAssertEqual(listing.entries.first?.tags, Self.referenceTags(value), word.debugDescription)
            case "name": XCTAssertTrue(listing.entries.isEmpty, word.debugDescription)
            default:
                XCTAssertTrue(listing.entries.isEmpty, word.debugDescription)
                XCTAssertTrue(Self.reason(listing).contains("unknown option '\(key)'"), word.debugDescription)
            }
        }
    }

    /// `search:` in any ASCII case is a search line; a word whose lowercasing only looks like it
    /// (long s, a combining mark on the colon) is not, as before.
    func testSearchLinesAsLowercasingSaysThem() {
        for (first, isSearch) in [("search:ddg", true), ("SEARCH:ddg", true), ("SeArCh:ddg", true),
                                  ("\u{17F}earch:ddg", false), ("search:\u{301}ddg", false), ("search", false)] {
            let listing = SourcesFile.listing(first + " \"q\"")
            XCTAssertEqual(listing.entries.first?.search != nil || Self.reason(listing).contains("search engine"),
                           isSearch, first.debugDescription)
        }
    }

    /// URLs of printable ASCII, which `urlProblem` reads on their bytes: as the reference says,
    /// and so does the `search:` test of a line's first word.
    func testASCIIURLProblemsAndSearchWordsAsCharactersSayThem() {
        let ascii: [String] = Self.pieces.filter { $0.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
            + ["//", "/", "///", "HtTp://", "hTTps://", "FiLe:", "file:", "http://", "https://", "search:", "SeArCh:", "sea", "rch:",
               "h", "ttp", ":", " ", "~", "@", "host", "[::1]", "%41", "?", "#"]
        var random = SplitMix64(seed: 2102)
        var problems = 0
        for _ in 0..<20_000 {
            let url = (0..<Int.random(in: 1...6, using: &random)).map { _ in ascii.randomElement(using: &random)! }.joined()
            let expected = Self.referenceURLProblem(url)
            XCTAssertEqual(SourcesFile.urlProblem(url), expected, url.debugDescription)
            XCTAssertEqual(SourcesFile.isSearchWord(url), url.lowercased().hasPrefix("search:"), url.debugDescription)
            if expected != nil { problems += 1 }
        }
        XCTAssertGreaterThan(problems, 500, "the generator makes URLs with problems too")
    }

    /// The reference tokenizer: scalar by scalar, each word built scalar by scalar.
    static func referenceTokens(_ line: String) -> (words: [(String, Bool)], error: String?) {
        var words: [(String, Bool)] = []
        var current = String.UnicodeScalarView()
        var inWord = false, quoted = false, wasQuoted = false
        var scalars = line.unicodeScalars.makeIterator()
        while let c = scalars.next() {
            if quoted {
                if c == "\\" {
                    guard let next = scalars.next() else { return ([], "a line ends with \\ inside quotes") }
                    switch next {
                    case "n": current.append("\n")
                    case "r": current.append("\r")
                    case "t": current.append("\t")
                    case "u":
                        let bad = "\\u inside quotes takes a code point in braces, like \\u{202E}"
                        guard scalars.next() == "{" else { return ([], bad) }
                        var hex = ""
                        var closed = false
                        while let h = scalars.next() {
                            if h == "}" { closed = true; break }
                            guard hex.count < 6, h.isASCII, h.properties.isASCIIHexDigit else { return ([], bad) }
                            hex.unicodeScalars.append(h)
                        }
                        guard closed, !hex.isEmpty, let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else { return ([], bad) }
                        current.append(scalar)
                    default: current.append(next)
                    }
                } else if c == "\"" {
                    quoted = false
                } else {
                    current.append(c)
                }
                continue
            }
            if c == " " || c == "\t" || c == "\r" {
                if inWord { words.append((String(current), wasQuoted)); current = .init(); inWord = false; wasQuoted = false }
                continue
            }
            if c == "#" && !inWord { break }
            inWord = true
            if c == "\"" { quoted = true; wasQuoted = true } else { current.append(c) }
        }
        if quoted { return ([], "unclosed quote: a \" opened on this line is never closed") }
        if inWord { words.append((String(current), wasQuoted)) }
        return (words, nil)
    }

    /// Lines of quotes, escapes (good and bad), blanks, comments and words, with combining marks
    /// after the bytes the tokenizer looks for: the words and quoted marks the tokenizer reads
    /// off the bytes (a word is a slice of the line unless quotes or escapes break it up) are
    /// the reference's, and so is every error.
    func testTokenizerReadsLinesAsScalarByScalarDoes() {
        let pieces = Self.pieces + ["\"", "\"\"", "\\", "\\\"", "\\u{1F986}", "\\u{110000}", "\\u{}", "\\u{zz}", "\\u", "\\t",
                                    "#", " #", "\"\u{301}", "#\u{301}", " ", "\t", "name=", "tags=\"a b\"", "\\é"]
        var random = SplitMix64(seed: 21)
        for _ in 0..<20_000 {
            let line = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let reference = Self.referenceTokens(line)
            do {
                let words = try SourcesFile.tokenizeMarked(line)
                XCTAssertNil(reference.error, line.debugDescription)
                XCTAssertEqual(words.map(\.word), reference.words.map(\.0), line.debugDescription)
                XCTAssertEqual(words.map(\.quoted), reference.words.map(\.1), line.debugDescription)
            } catch let error as SourcesFile.TokenError {
                XCTAssertEqual(error.reason, reference.error, line.debugDescription)
            } catch {
                XCTFail("\(error)")
            }
        }
    }
}
