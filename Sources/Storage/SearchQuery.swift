/// A search as people type it, as an FTS5 query. Every word is a word: punctuation inside one
/// (`heat-pump`, `c++`, `don't`, `node.js`, `C#`, `50%`, `a/b`) is what the index splits words
/// on, never FTS5 syntax (each word goes to FTS5 quoted, as a phrase of its parts). Syntax is
/// only what is written as syntax:
/// - `"a phrase"` (a quote opening a word), `word*` and `"a phrase"*` (prefix),
/// - `AND`, `OR`, `NOT` in capitals between two terms (lower case they are words),
/// - `title:`, `author:`, `description:` before a word or phrase,
/// - parentheses, when they pair up (otherwise they are punctuation).
/// What cannot be read (a quote never closed, an operator without a term on each side) is a
/// `StorageError.badSearchQuery` saying why. Query words are folded as the index is
/// (`SearchFolding`).
public enum SearchQuery {
    enum Token: Equatable {
        case term(String, prefix: Bool, column: String?)
        case op(String)
        case open, close
    }

    static let columns: Set<String> = ["title", "author", "description"]
    static let operators: Set<String> = ["AND", "OR", "NOT"]

    /// The FTS5 query for `text`.
    public static func fts5(_ text: String) throws -> String {
        let tokens = try validated(tokenize(text), text)
        return tokens.map { token in
            switch token {
            case let .term(words, prefix, column):
                return (column.map { $0 + " : " } ?? "") + quoted(SearchFolding.fold(words)) + (prefix ? "*" : "")
            case let .op(name): return name
            case .open: return "("
            case .close: return ")"
            }
        }.joined(separator: " ")
    }

    /// `s` as an FTS5 string: in quotes, each quote doubled (scalar by scalar: a quote with a
    /// combining mark after it is one Character, and still a quote to FTS5).
    static func quoted(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("\"")
        for c in s.unicodeScalars {
            out.append(c)
            if c == "\"" { out.append(c) }
        }
        out.append("\"")
        return String(out)
    }

    static func bad(_ text: String, _ reason: String) -> StorageError { .badSearchQuery(query: text, reason: reason) }

    /// Whether a term has anything the index keeps as a word (a letter or a digit): `-`, `&` or
    /// `+++` alone are no term (as a phrase FTS5 would match nothing with them).
    static func hasWord(_ s: String) -> Bool {
        s.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }

    static func tokenize(_ text: String) throws -> [Token] {
        var tokens: [Token] = []
        var chars = Array(text.unicodeScalars)[...]
        func isBlank(_ c: Unicode.Scalar) -> Bool { c.properties.isWhitespace }
        while let c = chars.first {
            if isBlank(c) { chars.removeFirst(); continue }
            if c == "(" { tokens.append(.open); chars.removeFirst(); continue }
            if c == ")" { tokens.append(.close); chars.removeFirst(); continue }
            // A column filter: `title:` and what follows it, with no blank between. The colon
            // is looked for in this word only: looking through the whole rest of the text for
            // each word made a 10 KB query of short words cost 3 s (debug) before any search.
            var column: String?
            let wordEnd = chars.firstIndex(where: isBlank) ?? chars.endIndex
            if let colon = chars[..<wordEnd].firstIndex(of: ":") {
                let name = String(String.UnicodeScalarView(chars[..<colon])).lowercased()
                let after = chars.index(after: colon)
                if columns.contains(name), after < chars.endIndex, !isBlank(chars[after]) {
                    column = name
                    chars = chars[after...]
                }
            }
            if chars.first == "\"" {
                chars.removeFirst()
                guard let end = chars.firstIndex(of: "\"") else {
                    throw bad(text, "a quote opens a phrase that is never closed (close it, or leave the quote out)")
                }
                let phrase = String(String.UnicodeScalarView(chars[..<end]))
                chars = chars[chars.index(after: end)...]
                let prefix = chars.first == "*"
                if prefix { chars.removeFirst() }
                if hasWord(phrase) { tokens.append(.term(phrase, prefix: prefix, column: column)) }
                continue
            }
            // A word: up to a blank; closing parentheses at its end are taken apart (they are
            // grouping when they pair up, see `validated`).
            var end = chars.firstIndex(where: isBlank) ?? chars.endIndex
            var closes = 0
            while end > chars.startIndex, chars[chars.index(before: end)] == ")" { end = chars.index(before: end); closes += 1 }
            var word = String(String.UnicodeScalarView(chars[..<end]))
            chars = chars[(chars.firstIndex(where: isBlank) ?? chars.endIndex)...]
            if column == nil, operators.contains(word) {
                tokens.append(.op(word))
            } else {
                let prefix = word.hasSuffix("*")
                while word.hasSuffix("*") { word.removeLast() }
                if hasWord(word) { tokens.append(.term(word, prefix: prefix, column: column)) }
            }
            tokens += Array(repeating: .close, count: closes)
        }
        return tokens
    }

    /// `tokens` as a query FTS5 reads, or the reason they are not one.
    static func validated(_ tokens: [Token], _ text: String) throws -> [Token] {
        var tokens = tokens
        // Parentheses that do not pair up are punctuation (`f(x`, `:)`): dropped.
        var depth = 0
        var paired = true
        for t in tokens {
            if t == .open { depth += 1 }
            if t == .close { depth -= 1; if depth < 0 { paired = false } }
        }
        if !paired || depth != 0 { tokens.removeAll { $0 == .open || $0 == .close } }
        // `()` is nothing.
        var changed = true
        while changed {
            changed = false
            for i in tokens.indices.dropLast() where tokens[i] == .open && tokens[i + 1] == .close {
                tokens.removeSubrange(i...i + 1); changed = true; break
            }
        }
        // Each operator between two terms (a term or a closing parenthesis before it, a term
        // or an opening one after it).
        for (i, t) in tokens.enumerated() {
            guard case let .op(name) = t else { continue }
            let before = i > 0 ? tokens[i - 1] : nil
            let after = i + 1 < tokens.count ? tokens[i + 1] : nil
            guard before?.endsOperand == true, after?.startsOperand == true else {
                let example = name == "NOT" ? "'tea NOT green' finds tea without green" : "'tea \(name) coffee'"
                throw bad(text, "\(name) needs a word on each side (\(example)); to search for the word itself, write it in lower case or quotes")
            }
        }
        guard tokens.contains(where: { if case .term = $0 { return true } else { return false } }) else {
            throw bad(text, "it has no word to search for (letters or digits)")
        }
        // Terms side by side all match (FTS5 takes no implicit AND next to a parenthesis).
        var joined: [Token] = []
        for t in tokens {
            if let last = joined.last, last.endsOperand, t.startsOperand { joined.append(.op("AND")) }
            joined.append(t)
        }
        return joined
    }
}

extension SearchQuery.Token {
    var endsOperand: Bool { if case .term = self { return true }; return self == .close }
    var startsOperand: Bool { if case .term = self { return true }; return self == .open }
}
