import FeedModel

/// What `feeds html` (the HTMLDigest module) reads of a store, on either backend: the
/// sources, bounded listings and counts of the latest pages, and the archive one UTC day at a
/// time with each day's and each source's stamp (`CardStamp`), so a rerun reads only what
/// changed. Both backends group by the same UTC day arithmetic (floor division of the sort
/// date by 86,400 s) and list a day in the same order, so the same cards give the same site
/// byte for byte (DigestOnBothBackendsTests).
public protocol DigestStore: AnyObject {
    /// Every source, by id (with its counts).
    func sources() throws -> [StoredSource]
    /// Cards matching `query`, in `order` (as `CardReadingStore.cards(_:order:)`).
    func cards(_ query: CardQuery, order: CardOrder) throws -> [StoredCard]
    /// Cards matching `query` (its limit ignored), counted.
    func cardCount(_ query: CardQuery) throws -> Int
    /// Each UTC day's stamp (the day as its first second), newest day first, of the cards
    /// `query`'s filters let through (its limit ignored); days without cards are missing.
    func cardStampsByDay(_ query: CardQuery) throws -> [(day: Timestamp, stamp: CardStamp)]
    /// Each source's stamp, of all its cards; a source without cards is missing.
    func cardStampsBySource() throws -> [SourceID: CardStamp]
    /// Both of every card: `cardStampsByDay(CardQuery())` and `cardStampsBySource()` (SQLite
    /// reads them in one walk of its index).
    func cardStampsByDayAndSource() throws -> (byDay: [(day: Timestamp, stamp: CardStamp)], bySource: [SourceID: CardStamp])
    /// The cards of the UTC day starting at `day` that `query`'s filters let through, dated
    /// ones first, newest first (undated, sort date, id: `CardOrder.newest`), one at a time:
    /// memory does not grow with the day's size.
    func eachCardOfDay(_ day: Timestamp, _ query: CardQuery, _ body: (StoredCard) throws -> Void) throws
}

extension DigestStore {
    public func cardStampsByDayAndSource() throws -> (byDay: [(day: Timestamp, stamp: CardStamp)], bySource: [SourceID: CardStamp]) {
        (try cardStampsByDay(CardQuery()), try cardStampsBySource())
    }
}
