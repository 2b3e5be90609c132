import FeedModel

/// A page's preview image as last looked up (see migration `page_previews`).
public struct PagePreviewEntry: Hashable, Sendable {
    /// The image the page declared; nil when it declared none or could not be read.
    public var image: String?
    public var checkedAt: Timestamp

    public init(image: String?, checkedAt: Timestamp) {
        self.image = image
        self.checkedAt = checkedAt
    }
}

// The page-preview cache of search cards: pages are looked at once, then again only after the
// entry expires, so a result that stays in the top ten is not fetched at every update.
extension FeedStore {
    /// The cached entries of `pageURLs` that exist (any age; the caller decides what is stale).
    public func pagePreviews(for pageURLs: [String]) throws -> [String: PagePreviewEntry] {
        // json_each ends a string at U+0000: such a URL would find the entry of what precedes it.
        let pageURLs = pageURLs.filter(URLKey.isStorable)
        guard !pageURLs.isEmpty else { return [:] }
        let statement = try db.prepare("""
            SELECT page_url, image_url, checked_at FROM page_previews
            WHERE page_url IN (SELECT value FROM json_each(?1))
            """)
        let list = "[" + pageURLs.map(JSONText.quoted).joined(separator: ",") + "]"
        var found: [String: PagePreviewEntry] = [:]
        for (url, entry) in try statement.query([.text(list)], { row in
            (row.string(0) ?? "", PagePreviewEntry(image: row.string(1), checkedAt: row.timestamp(2)))
        }) { found[url] = entry }
        return found
    }

    /// Records what each page declared (nil: nothing), replacing older entries, in one transaction;
    /// a page whose URL `URLKey` refuses is not recorded (it is looked at again next time).
    public func savePagePreviews(_ entries: [String: String?], checkedAt: Timestamp) throws {
        guard !entries.isEmpty else { return }
        let statement = try db.prepare("""
            INSERT INTO page_previews (page_url, image_url, checked_at) VALUES (?1, ?2, ?3)
            ON CONFLICT (page_url) DO UPDATE SET image_url = excluded.image_url, checked_at = excluded.checked_at
            """)
        try db.writeTransaction {
            for (url, image) in entries where URLKey.isStorable(url) {
                try statement.execute([.text(url), SQLValue(image), SQLValue(checkedAt)])
            }
        }
    }

    /// Every entry, by page URL (`StoreCopy`).
    func allPagePreviews() throws -> [(url: String, entry: PagePreviewEntry)] {
        try db.prepare("SELECT page_url, image_url, checked_at FROM page_previews ORDER BY page_url").query([]) { row in
            (url: row.string(0) ?? "", entry: PagePreviewEntry(image: row.string(1), checkedAt: row.timestamp(2)))
        }
    }
}
