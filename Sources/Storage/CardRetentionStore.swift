import FeedModel

/// Forgetting old cards, on either backend (the rules are FeedStore+Retention.swift's; the
/// PostgreSQL store's in PostgresStore+Retention.swift; CardRetentionContractTests runs both
/// from one seed and compares what is left).
public protocol CardRetentionStore: AnyObject {
    /// Deletes read cards the source no longer lists that are past its `keep_days` (else
    /// `defaultKeepDays`) or beyond its `keep_count` (else `defaultKeepCount`); how many went.
    @discardableResult
    func prune(now: Timestamp, defaultKeepDays: Int?, defaultKeepCount: Int?) throws -> Int
    /// Deletes cards of `sourceID` the source no longer lists beyond `max`: read ones first,
    /// then unread ones, oldest first; how many of each went.
    func capCards(sourceID: SourceID, max: Int) throws -> (read: Int, unread: Int)
}

extension FeedStore: CardRetentionStore {}
