// SQLite's answers are where they were: `cards`, `cardCount` and `eachCardOfDay` in
// FeedStore+Cards.swift, the stamps in FeedStore+CardStamps.swift (from the covering index
// `cards_by_date`, migration 18), `sources()` in FeedStore+StoreInterface.swift.
extension FeedStore: DigestStore {}
