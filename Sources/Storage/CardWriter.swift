import FeedModel

/// Upserts one card at a time with four statements (prepared once per connection: `prepare` is
/// the store's statement cache). Must run inside the caller's transaction.
struct CardWriter {
    enum Outcome { case inserted, updated, unchanged }

    private let find: Statement
    private let insert: Statement
    private let update: Statement
    private let touch: Statement
    private let db: Database

    init(_ db: Database, prepare: (String) throws -> Statement) throws {
        self.db = db
        find = try prepare("SELECT id, content_hash FROM cards WHERE source_id = ?1 AND card_key = ?2")
        // ?3…?13 are the content columns in `contentValues` order; ?14 is now.
        insert = try prepare("""
            INSERT INTO cards (source_id, card_key, guid, title, description, link, image, published,
                               updated, author, kind, enclosures, content_hash,
                               first_seen_at, changed_at, last_seen_at, sort_date)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14, ?14,
                    coalesce(?8, ?9, ?14))
            """)
        // Same numbering so both share `contentValues`; ?1 is the card's id, ?2 (the key) is bound
        // but unused (SQLite allows gaps).
        // first_seen_at and is_read are left alone on purpose. changed_at moves forward on every
        // change, a second at least: two edits within one second would otherwise leave it (and
        // the digest's page stamps, FeedStore+CardStamps.swift) where the first one put it.
        update = try prepare("""
            UPDATE cards SET guid = ?3, title = ?4, description = ?5, link = ?6, image = ?7,
                published = ?8, updated = ?9, author = ?10, kind = ?11, enclosures = ?12,
                content_hash = ?13, changed_at = max(?14, changed_at + 1), last_seen_at = ?14,
                sort_date = coalesce(?8, ?9, first_seen_at)
            WHERE id = ?1
            """)
        touch = try prepare("UPDATE cards SET last_seen_at = ?2 WHERE id = ?1")
    }

    func save(_ card: Card, key: CardKey, sourceID: SourceID, now: Timestamp) throws -> Outcome {
        let enclosures = EnclosureJSON.encode(card.enclosures)
        return try save(card, key: key, enclosures: enclosures, hash: ContentHash.of(card, enclosuresJSON: enclosures),
                        sourceID: sourceID, now: now).outcome
    }

    /// Saves a card whose enclosures JSON and content hash are already computed; returns what
    /// happened and the card's row id.
    func save(_ card: Card, key: CardKey, enclosures: String, hash: String, sourceID: SourceID,
              now: Timestamp) throws -> (outcome: Outcome, id: Int64) {
        let existing = try find.queryOne([SQLValue(sourceID), .text(key.rawValue)]) { row in
            (id: row.int64(0), hash: row.string(1))
        }
        guard let existing else {
            try insert.execute([SQLValue(sourceID), .text(key.rawValue)]
                               + Self.contentValues(card, enclosures: enclosures, hash: hash) + [SQLValue(now)])
            return (.inserted, db.lastInsertRowID)
        }
        if existing.hash == hash {
            try touch.execute([.integer(existing.id), SQLValue(now)])
            return (.unchanged, existing.id)
        }
        try update.execute([.integer(existing.id), .text(key.rawValue)]
                           + Self.contentValues(card, enclosures: enclosures, hash: hash) + [SQLValue(now)])
        return (.updated, existing.id)
    }

    /// guid, title, description, link, image, published, updated, author, kind, enclosures, hash.
    private static func contentValues(_ card: Card, enclosures: String, hash: String) -> [SQLValue] {
        [SQLValue(card.id), SQLValue(card.title), SQLValue(card.descriptionText), SQLValue(card.link),
         SQLValue(card.image), SQLValue(card.published), SQLValue(card.updated), SQLValue(card.author),
         .text(card.kind.rawValue), .text(enclosures), .text(hash)]
    }
}
