import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// Issue 19: search as people type. Punctuation in a word is part of the word, in every
/// position, never FTS5 syntax; syntax is only what is written as syntax; the same folding
/// (ß/ss, ligatures, full width, case in every script) on both sides.
final class SearchAsTypedTests: StoreTestCase {
    private var source: SourceID!

    override func setUpWithError() throws {
        try super.setUpWithError()
        source = try addSource(name: "Feed")
    }

    private func found(_ text: String) throws -> [String] {
        try store.search(text, order: .newest).compactMap(\.card.id)
    }

    private func save(_ titles: [String: String]) throws {
        try save(titles.sorted { $0.key < $1.key }.map { Card(id: $0.key, title: $0.value, link: "https://example.org/\($0.key)") },
                 to: source, at: t(1))
    }

    func testOrdinaryWordsWithPunctuationAreWords() throws {
        try save(["hp": "Heat-pump buyers guide", "cpp": "What's new in C++ 26", "dont": "Don't panic",
                  "node": "Node.js 24 released", "mail": "E-mail is not dead", "cs": "C# records",
                  "pct": "50% off the cloud", "ab": "A/B testing, done right"])
        let expected = ["heat-pump": "hp", "c++": "cpp", "don't": "dont", "node.js": "node", "e-mail": "mail",
                        "C#": "cs", "50%": "pct", "a/b": "ab"]
        for (query, id) in expected {
            XCTAssertTrue(try found(query).contains(id), "\(query) finds \(id)")
        }
        XCTAssertEqual(try found("heat-pump"), ["hp"], "a phrase of its parts, not heat NOT pump")
        XCTAssertEqual(try found("foo:bar"), [], "an unknown column is a word, not 'no such column'")
    }

    /// Every punctuation character, alone, before, inside and after a word, doubled: never an
    /// error, and the word still found, except a quote opening a word (a phrase never closed).
    func testPunctuationInEveryPosition() throws {
        try save(["hp": "Heat pump", "other": "Solar panels"])
        let marks = Array("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~") + ["’", "–", "—", "“", "”", "«", "»", "·", "…", "¿", "§", "€"]
        for mark in marks.map(String.init) {
            let shapes = ["heat\(mark)pump", "heat\(mark)\(mark)pump", "heat\(mark) pump", "heat \(mark)pump",
                          "heat pump\(mark)", "heat \(mark) pump", "\(mark)heat pump", "heat pump \(mark)\(mark)",
                          "title:heat\(mark)pump", "heat OR \(mark)pump"]
            for query in shapes {
                // A quote opening a word with no quote after it to close the phrase.
                let opensPhrase = mark == "\"" && query.filter { $0 == "\"" }.count % 2 == 1
                    && (query.hasPrefix("\"") || query.contains(" \""))
                do {
                    let result = try found(query)
                    XCTAssertEqual(result, ["hp"], query)
                    XCTAssertFalse(opensPhrase, "\(query): an unclosed quote is reported")
                } catch let StorageError.badSearchQuery(_, reason) {
                    XCTAssertTrue(opensPhrase, "\(query): \(reason)")
                    XCTAssertFalse(reason.contains("fts5"), reason)
                }
            }
        }
    }

    /// Random queries of words, punctuation and operators: a result or a reason of our own,
    /// never SQLite's (`fts5: syntax error`, `no such column`).
    func testRandomQueriesNeverReachFTS5Syntax() throws {
        try save(["a": "Heat pump", "b": "Fußball"])
        var random = SplitMix64(seed: 19)
        let pieces = ["heat", "pump", "AND", "OR", "NOT", "and", "(", ")", "\"", "*", "-", ":", "title:", "author:",
                      "^", "+", "'", "NEAR", "NEAR(", "{", "}", ",", "%", " ", " ", " ", "ß", "ﬁ"]
        for _ in 0..<600 {
            let query = (0..<Int.random(in: 1...7, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            guard !query.allSatisfy(\.isWhitespace) else { continue }
            do {
                _ = try found(query)
            } catch let StorageError.badSearchQuery(_, reason) {
                XCTAssertFalse(reason.contains("fts5") || reason.contains("no such column"), "\(query): \(reason)")
            }
        }
    }

    func testExplicitSyntaxStillWorks() throws {
        try save(["a": "The quick brown fox", "b": "A brown and quick dog", "c": "Swift on Linux", "d": "Swift on the Mac"])
        XCTAssertEqual(try found("\"quick brown\""), ["a"])
        XCTAssertEqual(Set(try found("qui*")), ["a", "b"])
        XCTAssertEqual(try found("swift NOT linux"), ["d"])
        XCTAssertEqual(Set(try found("(linux OR mac) swift")), ["c", "d"])
        XCTAssertEqual(Set(try found("(linux OR fox) NOT swift")), ["a"])
        XCTAssertEqual(Set(try found("linux OR mac")), ["c", "d"])
        XCTAssertEqual(try found("title:fox"), ["a"])
        XCTAssertEqual(try found("brown and quick"), ["b"], "lower-case and is a word")
    }

    func testFoldingBeyondDiacritics() throws {
        try save(["ss": "Fußball heute", "lig": "The ﬁrst ﬂight", "wide": "ＦＵＬＬ width news",
                  "greek": "ΟΔΟΣ road", "cyr": "ПРИВЕТ мир", "tr": "Kırmızı İstanbul"])
        XCTAssertEqual(try found("fussball"), ["ss"])
        XCTAssertEqual(try found("FUSSBALL"), ["ss"])
        XCTAssertEqual(try found("fußball"), ["ss"])
        XCTAssertEqual(try found("first flight"), ["lig"])
        XCTAssertEqual(try found("ﬁrst"), ["lig"])
        XCTAssertEqual(try found("full"), ["wide"])
        XCTAssertEqual(try found("ｆｕｌｌ"), ["wide"])
        XCTAssertEqual(try found("οδος"), ["greek"], "final sigma folds as sigma")
        XCTAssertEqual(try found("привет"), ["cyr"])
        // Turkish: the word as written still finds itself, and both i's fold to i.
        XCTAssertEqual(try found("kırmızı"), ["tr"])
        XCTAssertEqual(try found("kirmizi"), ["tr"])
        XCTAssertEqual(try found("istanbul"), ["tr"])
        XCTAssertEqual(try found("İstanbul"), ["tr"])
    }

    /// An index written with the folding of version 1 is rebuilt (the index is derived data).
    func testIndexOfTheOldFoldingIsRebuilt() throws {
        try save(["ss": "Fußball heute"])
        XCTAssertEqual(try found("fussball"), ["ss"])
        let index = try attachedSearchIndex()
        try index.execute("PRAGMA search.user_version = 1")
        try index.execute("DELETE FROM search.card_search")
        // The next command's connection (a new process in real use).
        let next = try FeedStore(path: store.path)
        XCTAssertEqual(try next.search("fussball").compactMap(\.card.id), ["ss"], "rebuilt, not searched as it was")
    }
}

/// The characters `SearchFolding` passes through have no folding beyond their simple case
/// (which unicode61 does): their full folding is their lower case, up to canonical equivalence.
final class SearchFoldingPassThroughTests: XCTestCase {
    func testPassingCharactersHaveNoCompatibilityOrFullCaseMapping() {
        var checked = 0
        for v in UInt32(0xA0)...0xFFFF where SearchFolding.passesThrough(v) {
            guard let c = Unicode.Scalar(v), c.properties.generalCategory != .unassigned else { continue }
            let full = SearchFolding.full(c).precomposedStringWithCanonicalMapping
            let lower = String(c).lowercased().precomposedStringWithCanonicalMapping
            XCTAssertEqual(full, lower, String(format: "U+%04X", v))
            checked += 1
        }
        XCTAssertGreaterThan(checked, 40_000)
    }

    func testFoldingIsOnlyNeededWhereItChangesSomething() {
        XCTAssertEqual(SearchFolding.fold("Привет, 東京。 Café – “quoted”"), "Привет, 東京。 Café – “quoted”")
        XCTAssertEqual(SearchFolding.fold("Fußball ﬁnal ＦＵＬＬ ẞ ı"), "Fussball final FULL ss i")
    }

    /// The folding reads scalars straight from the text's UTF-8 bytes; it must fold as the
    /// rule says, scalar by scalar: each one that passes as itself, full-width ASCII as ASCII,
    /// any other in full. Generated texts mix every length of UTF-8 sequence (1 to 4 bytes),
    /// passing and folded characters, at the start, the end and side by side.
    func testFoldingFromBytesAgreesWithTheRuleScalarByScalar() {
        func reference(_ text: String) -> String {
            var out = ""
            for c in text.unicodeScalars {
                if SearchFolding.passesThrough(c.value) { out.unicodeScalars.append(c) }
                else if (0xFF01...0xFF5E).contains(c.value) { out.unicodeScalars.append(Unicode.Scalar(c.value - 0xFEE0)!) }
                else { out += SearchFolding.full(c) }
            }
            return out
        }
        let pool: [UInt32] = [0x41, 0x7A, 0x20, 0x0A, 0xE9, 0xDF, 0x130, 0x131, 0x17F, 0x1C5, 0x3C2, 0x416, 0x5D0, 0x675,
                              0x1E9E, 0x2026, 0x202F, 0x3042, 0x4E2D, 0xAC00, 0xFB01, 0xFF26, 0xFF5E, 0xFF5F, 0x10400,
                              0x1D400, 0x1E900, 0x1F600, 0x10FFFF]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...24, using: &generator) {
                // Mostly the pool, sometimes any scalar at all.
                let v = Bool.random(using: &generator) || Bool.random(using: &generator)
                    ? pool.randomElement(using: &generator)! : UInt32.random(in: 0...0x10FFFF, using: &generator)
                if let c = Unicode.Scalar(v) { text.append(c) }
            }
            let s = String(text)
            XCTAssertEqual(SearchFolding.fold(s), reference(s), s.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
        }
    }
}
