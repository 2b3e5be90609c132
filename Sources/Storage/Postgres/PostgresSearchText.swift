/// The search language of `SearchQuery` on PostgreSQL: a card's words as a `tsvector` literal
/// and a query as a `tsquery` literal, both built here from `SearchWords` (SQLite's tokenizer)
/// and bound as parameters, never spliced into SQL. PostgreSQL parses only these literals, in
/// which every lexeme is quoted, so nothing in a card or a query is syntax to it.
///
/// Fields: the title's words weigh A, the author's B, the description's D (the default,
/// unlabelled), so `title:word` is `'word':A`, and relevance weighs them as SQLite's
/// `bm25(10.0, 1.0, 5.0)` does (`rankWeights`). Positions: the title from 1, the author after
/// the title, the description after the author, each one position apart from the field before,
/// so a phrase never runs from one field into the next (as FTS5 matches a phrase within one
/// column).
///
/// PostgreSQL's limits, where its index cannot hold what SQLite's does (documented, not hidden):
/// a word of more than `maxLexemeBytes` is left out of the card's `tsvector` (and a query word
/// that long matches nothing); positions past 16,383 count as 16,383 and a word keeps its first
/// 256 positions in a card (phrases far into a 100 KB title may then match otherwise); a card's
/// distinct words stop at `maxVectorBytes`. Descriptions are cut at 2 KB before indexing
/// (`SearchIndex.descriptionLimit`) on both backends, so only huge titles reach these.
enum PostgresSearchText {
    /// PostgreSQL's longest lexeme (MAXSTRLEN: 2,047 bytes).
    static let maxLexemeBytes = 2_047
    /// The largest position PostgreSQL stores (MAXENTRYPOS - 1).
    static let maxPosition = 16_383
    /// Positions PostgreSQL keeps per lexeme (MAXNUMPOS).
    static let maxPositions = 256
    /// The lexemes' bytes a `tsvector` may hold (MAXSTRPOS is 1 MB), with room to spare.
    static let maxVectorBytes = 900_000

    /// ts_rank's weights, for D, C, B, A: description 1, author 5, title 10, scaled to 1 as
    /// ts_rank wants (bm25's 1.0, 5.0 and 10.0 on SQLite).
    static let rankWeights = "{0.1, 0, 0.5, 1.0}"

    /// The weight label of each field of `SearchWords.fieldNames` ("" for D, the default).
    static let fieldWeights = ["A", "B", ""]
    static let columnWeights = ["title": "A", "author": "B", "description": "D"]

    /// `s` as a quoted lexeme of a `tsvector` or `tsquery` literal.
    static func quoted(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("'")
        for c in s.unicodeScalars {
            if c == "'" { out.append("'") }
            if c == "\\" { out.append("\\") }
            out.append(c)
        }
        out.append("'")
        return String(out)
    }

    /// A card's words (`SearchWords.words`: title, author, description) as a `tsvector` literal.
    static func vector(_ fields: [[String]]) -> String {
        // Built as bytes (a card's words are many; strings scalar by scalar and a string per
        // position were a sixth of a worker's CPU): each lexeme's positions text as it grows.
        var index: [String: Int] = [:]
        var order: [String] = []
        var positions: [[UInt8]] = []
        var counts: [Int] = []
        var bytes = 0
        var position = 0
        for (field, words) in fields.enumerated() {
            let weight = field < fieldWeights.count ? Array(fieldWeights[field].utf8) : []
            if field > 0 { position += 1 }  // the gap between fields
            for word in words {
                position += 1
                let size = word.utf8.count
                guard size <= maxLexemeBytes else { continue }
                let slot: Int
                if let known = index[word] {
                    slot = known
                } else {
                    guard bytes + size <= maxVectorBytes else { continue }
                    bytes += size
                    slot = order.count
                    index[word] = slot
                    order.append(word)
                    positions.append([])
                    counts.append(0)
                }
                guard counts[slot] < maxPositions else { continue }
                if counts[slot] > 0 { positions[slot].append(UInt8(ascii: ",")) }
                positions[slot] += String(min(position, maxPosition)).utf8
                positions[slot] += weight
                counts[slot] += 1
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes + positions.reduce(0) { $0 + $1.count } + 4 * order.count)
        for (slot, word) in order.enumerated() {
            if slot > 0 { out.append(UInt8(ascii: " ")) }
            appendQuoted(word, to: &out)
            out.append(UInt8(ascii: ":"))
            out += positions[slot]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `quoted`, onto bytes: ' and \\ are ASCII, never inside a multi-byte sequence.
    static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        let quote = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\")
        out.append(quote)
        for byte in s.utf8 {
            if byte == quote || byte == backslash { out.append(byte) }
            out.append(byte)
        }
        out.append(quote)
    }

    /// A query that matches no card: a lexeme and not it.
    static let nothing = "('x' & !'x')"

    /// The `tsquery` of `text` (`SearchQuery`'s language), or `StorageError.badSearchQuery` for
    /// what SQLite's search refuses: the same reasons (`SearchQuery`), and what FTS5's own
    /// parser refuses (checked on `words`' table, so both backends refuse the same queries).
    static func tsquery(_ text: String, words: SearchWords) throws -> String {
        guard !text.allSatisfy(\.isWhitespace) else {
            throw StorageError.badSearchQuery(query: text, reason: "it is empty; give at least one word")
        }
        let tokens = try SearchQuery.validated(SearchQuery.tokenize(text), text)
        do {
            try words.check(fts5: try SearchQuery.fts5(text))
        } catch StorageError.sqlite(_, let code, let message, _) where code & 0xff == 1 /* SQLITE_ERROR */ {
            throw StorageError.badSearchQuery(query: text, reason: message)
        }
        // Every term's words in one pass of the tokenizer (a 10 KB query has thousands).
        let terms = tokens.compactMap { token -> SearchWords.Fields? in
            if case let .term(text, _, _) = token { return SearchWords.Fields(title: text) }
            return nil
        }
        var parser = Parser(tokens: tokens[...], words: try words.words(terms).map { $0.first ?? [] }[...])
        return parser.or()
    }

    /// FTS5's grammar over validated tokens (operators always explicit): OR binds loosest, then
    /// AND, then NOT (`a NOT b` is a and not b), all left-associative; each level fully
    /// parenthesised in the `tsquery` (whose own precedence differs: `!`, `<->`, `&`, `|`).
    private struct Parser {
        var tokens: ArraySlice<SearchQuery.Token>
        /// The words of each term, in the order of the terms.
        var words: ArraySlice<[String]>

        mutating func or() -> String {
            var left = and()
            while tokens.first == .op("OR") {
                tokens.removeFirst()
                left = "(\(left) | \(and()))"
            }
            return left
        }

        mutating func and() -> String {
            var left = not()
            while tokens.first == .op("AND") {
                tokens.removeFirst()
                left = "(\(left) & \(not()))"
            }
            return left
        }

        mutating func not() -> String {
            var left = primary()
            while tokens.first == .op("NOT") {
                tokens.removeFirst()
                left = "(\(left) & !\(primary()))"
            }
            return left
        }

        mutating func primary() -> String {
            switch tokens.popFirst() {
            case .open?:
                let inner = or()
                if tokens.first == .close { tokens.removeFirst() }
                return inner
            case let .term(_, prefix, column)?:
                return phrase(words.popFirst() ?? [], prefix: prefix, column: column)
            default:
                // `validated` leaves no such query; a term-less one matches nothing.
                return nothing
            }
        }

        /// A term: its words as a phrase (`<->`), the last one a prefix (`:*`) when it is one,
        /// each restricted to the column's weight; no word (FTS5's empty phrase) matches nothing.
        func phrase(_ found: [String], prefix: Bool, column: String?) -> String {
            guard !found.isEmpty, found.allSatisfy({ $0.utf8.count <= maxLexemeBytes }) else { return nothing }
            let weight = column.flatMap { columnWeights[$0] } ?? ""
            let lexemes = found.enumerated().map { index, word in
                let star = prefix && index == found.count - 1 ? "*" : ""
                let label = star + weight
                return quoted(word) + (label.isEmpty ? "" : ":" + label)
            }
            return lexemes.count == 1 ? lexemes[0] : "(" + lexemes.joined(separator: " <-> ") + ")"
        }
    }
}
