// Foundation only for `LocalizedError` (as `StorageError`).
import Foundation
import FeedModel

/// Copies a home's SQLite database into an empty PostgreSQL one (what `feeds migrate --from
/// sqlite:PATH --to postgres://...` is to run): every source with its fetch state, every card
/// with its dates and read state, one source at a time (memory bounded by the largest source),
/// then the counts of both compared.
///
/// Not copied yet: the search index (PostgreSQL has none yet), page previews and the image
/// cache's metadata (no tables for them yet); all three are rebuilt by use.
public enum StoreCopy {
    public struct Counts: Hashable, Sendable, CustomStringConvertible {
        public var sources: Int
        public var cards: Int
        public var unread: Int

        public var description: String {
            "\(sources) source\(sources == 1 ? "" : "s"), \(cards) card\(cards == 1 ? "" : "s") (\(unread) unread)"
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
        let before = try counts(source)
        let after = try counts(target)
        guard before == after else { throw Failure.countsDiffer(source: before, target: after) }
        return after
    }

    static func counts(_ store: some SourceStore & CardReadingStore) throws -> Counts {
        Counts(sources: try store.sourceConfigurations().count, cards: try store.cardCount(CardQuery()),
               unread: try store.cardCount(CardQuery(unreadOnly: true)))
    }
}
