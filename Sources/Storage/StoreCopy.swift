// Foundation only for `LocalizedError` (as `StorageError`).
import Foundation
import FeedModel

/// Copies a home's SQLite database into an empty PostgreSQL one (what `feeds migrate --from
/// sqlite:PATH --to postgres://...` is to run): every source with its fetch state, every card
/// with its dates and read state, one source at a time (memory bounded by the largest source),
/// the image cache's records (stored images, failures with their back-off, images left out for
/// room) and the page previews of saved searches as they are, then the counts of both compared.
///
/// Not copied: the search index, which PostgreSQL builds from the cards as they are copied;
/// the image files, which stay in the cache folder of the home (the machine that writes the
/// HTML site keeps using it). A cache row or a preview whose URL PostgreSQL cannot key
/// (`URLKey`: U+0000, which no feeds since writes) is left out and not counted.
public enum StoreCopy {
    public struct Counts: Hashable, Sendable, CustomStringConvertible {
        public var sources: Int
        public var cards: Int
        public var unread: Int
        /// Rows of the image cache (stored images, failures, left out for room).
        public var images: Int
        public var previews: Int

        public init(sources: Int, cards: Int, unread: Int, images: Int = 0, previews: Int = 0) {
            (self.sources, self.cards, self.unread, self.images, self.previews) = (sources, cards, unread, images, previews)
        }

        public var description: String {
            func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
            return "\(count(sources, "source")), \(count(cards, "card")) (\(unread) unread), "
                + "\(count(images, "image record")), \(count(previews, "page preview"))"
        }
    }

    public enum Failure: Error, Equatable, Sendable, LocalizedError, CustomStringConvertible {
        /// The target already has sources: copying into it would mix two homes.
        case targetNotEmpty(server: String, sources: Int)
        /// The counts differ at the end (another program wrote to either store meanwhile?).
        case countsDiffer(source: Counts, target: Counts)

        public var errorDescription: String? { description }

        public var description: String {
            switch self {
            case let .targetNotEmpty(server, sources):
                return "PostgreSQL \(server) already has \(sources) source\(sources == 1 ? "" : "s"); copy into an empty database"
            case let .countsDiffer(source, target):
                return "the copy does not match: the SQLite database has \(source), PostgreSQL has \(target); was a feeds command running during the copy?"
            }
        }
    }

    /// Copies everything of `source` into `target`, which must hold no source; returns the
    /// counts, equal on both sides (else `.countsDiffer`).
    @discardableResult
    public static func copy(from source: FeedStore, to target: PostgresStore) throws -> Counts {
        let existing = try target.sourceConfigurations().count
        guard existing == 0 else { throw Failure.targetNotEmpty(server: target.server, sources: existing) }
        for stored in try source.sources() {
            let id = try target.importSource(stored)
            // Oldest saved first: ids grow in the same order as in the source database.
            let cards = try source.cards(ids: source.listingIDs(CardQuery(sourceID: stored.id), order: .newest).map(\.id))
            try target.importCards(cards.sorted { $0.id < $1.id }, to: id)
        }
        let images = try source.imageRecords().filter { URLKey.isStorable($0.url) }
        try target.importImages(images)
        let previews = try source.allPagePreviews().filter { URLKey.isStorable($0.url) }
        try target.importPagePreviews(previews)
        var before = try counts(source)
        (before.images, before.previews) = (images.count, previews.count)
        var after = try counts(target)
        (after.images, after.previews) = (try target.imageRecordCount(), try target.pagePreviewCount())
        guard before == after else { throw Failure.countsDiffer(source: before, target: after) }
        return after
    }

    static func counts(_ store: some SourceStore & CardReadingStore) throws -> Counts {
        Counts(sources: try store.sourceConfigurations().count, cards: try store.cardCount(CardQuery()),
               unread: try store.cardCount(CardQuery(unreadOnly: true)))
    }
}
