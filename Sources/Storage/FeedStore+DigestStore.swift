// SQLite's answers are where they were: `cards`, `cardCount` and `eachCardOfDay` in
// FeedStore+Cards.swift, the stamps in FeedStore+CardStamps.swift (from the covering indexes
// of the cards by date, migrations 18 and 19), `sources()` in FeedStore+StoreInterface.swift.
extension FeedStore: DigestStore {}
