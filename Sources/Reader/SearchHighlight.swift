import Foundation
import Storage

/// The words of a search query, found again in a card's text to be highlighted, folded the way
/// the index folds them (case and diacritics: "cafe" highlights "Café").
public struct SearchHighlight: Sendable {
    /// Folded terms; `prefix` for `word*`.
    let terms: [(word: String, prefix: Bool)]

    /// The terms of an FTS5 query: its words, without the operators (AND, OR, NOT), column
    /// filters (`title:`), quotes and parentheses.
    public init(query: String) {
        var terms: [(String, Bool)] = []
        for chunk in query.split(whereSeparator: { $0.isWhitespace || $0 == "\"" || $0 == "(" || $0 == ")" }) {
            if chunk == "AND" || chunk == "OR" || chunk == "NOT" { continue }
            var text = chunk
            if let colon = text.lastIndex(of: ":") { text = text[text.index(after: colon)...] }
            let prefix = text.hasSuffix("*")
            for word in Self.words(in: String(text)) {
                terms.append((Self.fold(word), prefix && text.hasSuffix(word + "*")))
            }
        }
        self.terms = terms
    }

    public var isEmpty: Bool { terms.isEmpty }

    /// `text` with every matching word wrapped by `mark`.
    func apply(to text: String, mark: (String) -> String) -> String {
        guard !terms.isEmpty else { return text }
        var out = ""
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            out += matches(word) ? mark(word) : word
            word = ""
        }
        for character in text {
            if Self.isWordCharacter(character) { word.append(character) } else { flush(); out.append(character) }
        }
        flush()
        return out
    }

    func matches(_ word: String) -> Bool {
        let folded = Self.fold(word)
        return terms.contains { $0.prefix ? folded.hasPrefix($0.word) : folded == $0.word }
    }

    static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

    static func words(in text: String) -> [String] {
        text.split(whereSeparator: { !isWordCharacter($0) }).map(String.init)
    }

    /// The index's folding (`SearchFolding`: ß as ss, ligatures, full width, case), then
    /// diacritics, as unicode61 removes them.
    static func fold(_ word: String) -> String {
        SearchFolding.fold(word).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
