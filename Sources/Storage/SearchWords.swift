/// The words of search text exactly as the SQLite index has them: folded by `SearchFolding`,
/// then split and stripped of diacritics by SQLite's own FTS5 tokenizer (`unicode61
/// remove_diacritics 2`, the index's), run on an in-memory FTS5 table of this process. What the
/// PostgreSQL store puts into its `tsvector`s and makes of a query's terms
/// (PostgresStore+Search.swift): one folding and one tokenizer for both backends, so a query
/// matches the same cards on both.
///
/// Why not PostgreSQL's parser (`to_tsvector('simple', ...)`): it splits otherwise. It keeps
/// `heat-pump` whole besides its parts, reads `node.js` as a host, URLs, e-mail addresses,
/// paths and version numbers as single words, and classes non-ASCII letters by the database's
/// locale; `simple` only spares the stemming. The words computed here go into the `tsvector`
/// as lexemes directly, so PostgreSQL's parser never sees card text.
///
/// The in-memory table also parses queries (`check(fts5:)`): a query FTS5 cannot read (a
/// parser stack overflow of 100 nested parentheses...) is refused by both backends alike.
/// One per store, for one thread, like the store.
final class SearchWords {
    /// A card's fields as indexed (the description's text already extracted and cut, see
    /// `SearchIndex.descriptionText`), before folding.
    struct Fields {
        var title: String?
        var author: String?
        var description: String?
    }

    /// The field names in the scratch table's column order (`Fields`' order).
    static let fieldNames = ["title", "author", "description"]

    private let db: Database
    private let insert: Statement
    private let instances: Statement
    private let clear: Statement
    private let match: Statement

    init() throws {
        db = try Database(path: ":memory:")
        try db.execute("""
            CREATE VIRTUAL TABLE words USING fts5 (title, author, description, tokenize = 'unicode61 remove_diacritics 2');
            CREATE VIRTUAL TABLE word_instances USING fts5vocab (words, 'instance');
            """)
        insert = try db.prepare("INSERT INTO words (rowid, title, author, description) VALUES (?1, ?2, ?3, ?4)")
        instances = try db.prepare("SELECT doc, col, \"offset\", term FROM word_instances")
        clear = try db.prepare("DELETE FROM words")
        match = try db.prepare("SELECT rowid FROM words WHERE words MATCH ?1")
    }

    /// Each card's words, field by field (`fieldNames`' order), in the order they appear.
    func words(_ cards: [Fields]) throws -> [[[String]]] {
        guard !cards.isEmpty else { return [] }
        var placed = Array(repeating: Array(repeating: [Int: String](), count: 3), count: cards.count)
        try db.writeTransaction {
            for (index, card) in cards.enumerated() {
                try insert.execute([.integer(Int64(index + 1)), SQLValue(SearchFolding.fold(card.title)),
                                    SQLValue(SearchFolding.fold(card.author)), SQLValue(SearchFolding.fold(card.description))])
            }
            try instances.each { row in
                let doc = Int(row.int64(0)) - 1
                guard placed.indices.contains(doc), let field = Self.fieldNames.firstIndex(of: row.string(1) ?? "") else { return }
                placed[doc][field][row.int(2)] = row.string(3) ?? ""
            }
            try clear.execute()
        }
        return placed.map { fields in fields.map { byOffset in byOffset.keys.sorted().map { byOffset[$0]! } } }
    }

    /// Throws SQLite's error for an FTS5 query it cannot parse (`StorageError.sqlite`), as the
    /// SQLite index would for the same query.
    func check(fts5 query: String) throws {
        _ = try match.query([.text(query)]) { $0.int64(0) }
    }
}
