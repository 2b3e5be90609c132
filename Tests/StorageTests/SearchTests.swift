import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// FTS5 search over title, description and author: syntax, folding, ranking, and the index
/// following every write of the cards.
final class SearchTests: StoreTestCase {
    private var source: SourceID!

    override func setUpWithError() throws {
        try super.setUpWithError()
        source = try addSource(name: "Feed")
    }

    private func card(_ guid: String, _ title: String?, description: String? = nil, author: String? = nil,
                      published: Timestamp? = nil) -> Card {
        Card(id: guid, title: title, description: description, link: "https://example.org/\(guid)",
             published: published, author: author)
    }

    private func found(_ text: String, _ query: CardQuery = CardQuery(), order: CardOrder = .newest) throws -> [String] {
        try store.search(text, query: query, order: order).compactMap(\.card.id)
    }

    private func assertIndexInStep(file: StaticString = #filePath, line: UInt = #line) {
        assertSearchIndexInStep(file: file, line: line)
    }

    func testDiacriticsAndCaseAreFolded() throws {
        try save([card("a", "Café de Flore"), card("b", "Cafeteria menu"), card("c", "Tea room")], to: source, at: t(1))
        XCTAssertEqual(try found("cafe"), ["a"])
        XCTAssertEqual(try found("CAFÉ"), ["a"])
        XCTAssertEqual(try found("café"), ["a"])
        XCTAssertEqual(try found("flore"), ["a"])
    }

    func testPhrasePrefixAndBooleanOperators() throws {
        try save([card("a", "The quick brown fox", published: t(1)),
                  card("b", "A brown and quick dog", published: t(2)),
                  card("c", "Compilers for Swift on Linux", published: t(3)),
                  card("d", "Compilation of Rust crates", published: t(4)),
                  card("e", "Swift on the Mac", published: t(5))], to: source, at: t(10))
        XCTAssertEqual(try found("\"quick brown\""), ["a"])
        XCTAssertEqual(try found("quick brown"), ["b", "a"], "words alone: all must match, anywhere")
        XCTAssertEqual(try found("compil*"), ["d", "c"])
        XCTAssertEqual(try found("swift AND linux"), ["c"])
        XCTAssertEqual(try found("swift OR rust"), ["e", "d", "c"])
        XCTAssertEqual(try found("swift NOT linux"), ["e"])
        XCTAssertEqual(try found("(swift OR rust) NOT compil*"), ["e"])
        XCTAssertEqual(try found("title:fox"), ["a"])
    }

    func testDescriptionsAndAuthorsAreSearched() throws {
        try save([card("a", "One", description: "<p>Hello <b>wörld</b></p>"),
                  card("b", "Two", author: "Zoë Müller"),
                  card("c", "Three", description: "nothing here", author: "Someone Else")], to: source, at: t(1))
        XCTAssertEqual(try found("world"), ["a"])
        XCTAssertEqual(try found("zoe muller"), ["b"])
        XCTAssertEqual(try found("author:muller"), ["b"])
        XCTAssertEqual(try found("description:hello"), ["a"])
        XCTAssertEqual(try found("nothing OR zoe"), ["c", "b"])
    }

    func testRelevanceRanksBestMatchFirstThenNewest() throws {
        try save([card("weak", "Notes", description: "a long text about many things, once mentioning kiwi, and more words here",
                       published: t(5)),
                  card("strong", "kiwi kiwi kiwi", published: t(1)),
                  card("twinA", "kiwi pie", published: t(2)),
                  card("twinB", "kiwi pie", published: t(2))], to: source, at: t(10))
        let ranked = try found("kiwi", order: .relevance)
        XCTAssertEqual(ranked.first, "strong")
        XCTAssertEqual(ranked.last, "weak")
        // Equal scores: the newest order breaks the tie (equal dates: later saved first).
        XCTAssertEqual(Array(ranked[1...2]), ["twinB", "twinA"])
        XCTAssertEqual(try store.search("kiwi").compactMap(\.card.id), ranked, "relevance is search's default")
        XCTAssertEqual(try found("kiwi", order: .oldest), ["strong", "twinA", "twinB", "weak"])
        XCTAssertEqual(try found("kiwi", order: .title), ["strong", "twinB", "twinA", "weak"])
    }

    /// Every order on matches with equal dates, missing dates and missing titles: the tie breaks
    /// of `CardOrder` hold for search results too, and the non-matching card never shows.
    /// Relevance ranks the newest `window` matches only (of the query with its filters), so a
    /// very common word costs a bounded amount of ranking.
    func testRelevanceRanksTheNewestMatchesOfTheWindow() throws {
        let other = try addSource("https://other.example/feed.xml", name: "Other")
        // 12 matches in "Feed": the oldest ones are the best (the word three times).
        var cards: [Card] = []
        for i in 0..<12 {
            let title = i < 4 ? "kiwi kiwi kiwi \(i)" : "kiwi \(i)"
            cards.append(card("f\(i)", title, description: "filler text", published: t(i + 1)))
        }
        try save(cards, to: source, at: t(20))
        try save([card("o1", "kiwi kiwi kiwi kiwi other", published: t(30))], to: other, at: t(30))
        let all = try store.search("kiwi", query: CardQuery(), order: .relevance, window: 1_000).compactMap(\.card.id)
        XCTAssertEqual(all.count, 13)
        XCTAssertEqual(Array(all.prefix(5)), ["o1", "f3", "f2", "f1", "f0"], "best first, then newest")
        // Window 5: the newest five matches by save order (o1, f11, f10, f9, f8), ranked.
        let windowed = try store.search("kiwi", query: CardQuery(), order: .relevance, window: 5).compactMap(\.card.id)
        XCTAssertEqual(windowed, ["o1", "f11", "f10", "f9", "f8"])
        // The window counts the matches that pass the filters: "Feed"'s newest five.
        let feedOnly = try store.search("kiwi", query: CardQuery(sourceID: source), order: .relevance, window: 5)
        XCTAssertEqual(feedOnly.compactMap(\.card.id), ["f11", "f10", "f9", "f8", "f7"])
        // Fewer matches than the window: no bound.
        XCTAssertEqual(try store.search("kiwi", query: CardQuery(), order: .relevance, window: 13).count, 13)
        XCTAssertEqual(try store.search("other", query: CardQuery(), order: .relevance, window: 5).compactMap(\.card.id), ["o1"])
    }

    func testEveryOrderOnMatchesWithEqualAndMissingDates() throws {
        let other = try addSource("https://a.example/feed", name: "Alpha")
        try save([card("a", "plum one", published: t(2)), card("b", "Plum two", published: t(2)),
                  card("c", nil, description: "plum, untitled"), card("d", "plum undated"),
                  card("x", "pear", published: t(3))], to: source, at: t(10))
        try save([card("e", "plum alpha", published: t(1))], to: other, at: t(11))
        XCTAssertEqual(try found("plum", order: .newest), ["b", "a", "e", "d", "c"], "equal dates: saved later first; undated last")
        XCTAssertEqual(try found("plum", order: .oldest), ["e", "a", "b", "c", "d"])
        XCTAssertEqual(try found("plum", order: .source), ["e", "b", "a", "d", "c"], "Alpha before Feed")
        XCTAssertEqual(try found("plum", order: .title), ["e", "a", "b", "d", "c"], "untitled last")
        let ranked = try found("plum", order: .relevance)
        XCTAssertEqual(Set(ranked), ["a", "b", "c", "d", "e"])
        XCTAssertEqual(ranked.last, "c", "a match in the description weighs less than one in a title")
        for order in CardOrder.all {
            XCTAssertEqual(try found("plum", order: order), try found("plum", order: order), "stable: \(order)")
        }
    }

    /// A limited search in a listing order either walks the order's index or sorts the matches
    /// (see `walksOrder`): both plans give the same cards in the same order, and each plan is
    /// the one its SQL says.
    func testBothSearchPlansGiveTheSameCards() throws {
        let other = try addSource("https://a.example/feed", name: "Alpha")
        try save((0..<30).map { i in card("f\(i)", i % 3 == 0 ? "fig \(i)" : "date \(i)",
                                         published: i % 5 == 0 ? nil : t(i % 4)) }, to: source, at: t(10))
        try save((0..<10).map { i in card("a\(i)", "fig alpha \(i)", published: t(1)) }, to: other, at: t(11))
        _ = try store.markRead(.cards([CardID(rawValue: 3), CardID(rawValue: 31)]))
        try store.refreshSearchIndex()
        for order in CardOrder.all where order != .relevance {
            for query in [CardQuery(limit: 7), CardQuery(unreadOnly: true, limit: 5), CardQuery(sourceID: source, limit: 4),
                          CardQuery(since: t(2), limit: 50)] {
                let walked = FeedStore.listing(query, order: order, search: "fig", walk: true)
                let sorted = FeedStore.listing(query, order: order, search: "fig", walk: false)
                XCTAssertTrue(walked.sql.contains("EXISTS") && !sorted.sql.contains("EXISTS"))
                let a = try store.readCards(walked.sql, walked.values).compactMap(\.card.id)
                XCTAssertFalse(a.isEmpty)
                XCTAssertEqual(a, try store.readCards(sorted.sql, sorted.values).compactMap(\.card.id), "\(order) \(query)")
                XCTAssertEqual(try found("fig", query, order: order), a, "search() picks one of them")
            }
        }
    }

    /// A limited relevance search sorts only the matches scoring at least as well as the
    /// limit-th best (the `cut`) and reads whole rows for the winners only; without a limit the
    /// whole window is sorted. Both give the same cards in the same order, ties at the cut
    /// included (equal scores, then the newest order), with and without filters; the window of
    /// an unfiltered search reads the FTS5 index alone.
    func testLimitedRelevanceListsTheStartOfTheFullRanking() throws {
        let other = try addSource("https://a.example/feed", name: "Alpha", tags: ["news"])
        // Four scores only, many ties: twins of equal text, dated, undated and equal dates.
        try save((0..<24).map { i in card("f\(i)", String(repeating: "lime ", count: 1 + i % 4) + "tart",
                                         published: i % 5 == 0 ? nil : t(i % 3)) }, to: source, at: t(10))
        try save((0..<8).map { i in card("a\(i)", i % 2 == 0 ? "lime lime pie" : "lime tart", published: t(1)) },
                 to: other, at: t(11))
        _ = try store.markRead(.cards([CardID(rawValue: 3), CardID(rawValue: 26)]))
        try store.refreshSearchIndex()
        let unfiltered = FeedStore.listing(CardQuery(limit: 5), order: .relevance, search: "lime", window: 20)
        XCTAssertFalse(unfiltered.sql.contains("card_search JOIN cards"), "no card row read for the window")
        XCTAssertTrue(unfiltered.sql.contains("cut AS"))
        for window in [3, 20, 1_000] {
            for base in [CardQuery(), CardQuery(unreadOnly: true), CardQuery(sourceID: source), CardQuery(tag: "news"),
                         CardQuery(since: t(1))] {
                let whole = FeedStore.listing(try store.resolvingTag(base), order: .relevance, search: "lime", window: window)
                XCTAssertFalse(whole.sql.contains("cut AS"))
                let all = try store.readCards(whole.sql, whole.values).compactMap(\.card.id)
                XCTAssertFalse(all.isEmpty)
                XCTAssertEqual(all.count, Set(all).count)
                for limit in [1, 2, 5, 7, 13, 40] {
                    var query = base
                    query.limit = limit
                    let limited = FeedStore.listing(try store.resolvingTag(query), order: .relevance, search: "lime", window: window)
                    XCTAssertTrue(limited.sql.contains("cut AS"))
                    XCTAssertEqual(try store.readCards(limited.sql, limited.values).compactMap(\.card.id),
                                   Array(all.prefix(limit)), "window \(window), \(query)")
                    XCTAssertEqual(try store.search("lime", query: query, order: .relevance, window: window).compactMap(\.card.id),
                                   Array(all.prefix(limit)))
                }
            }
        }
    }

    /// A filtered relevance search takes the ids its filters let through first and tests each
    /// full-text match against them (`CardIDFilter`) instead of reading the match's card row:
    /// the same cards in the same order as the plan that joins the rows, windows included.
    func testFilteredRelevanceTestsMatchesAgainstTheFilteredIDs() throws {
        let other = try addSource("https://b.example/feed", name: "Beta", tags: ["news"])
        try save((0..<30).map { i in card("s\(i)", String(repeating: "plum ", count: 1 + i % 3) + "jam",
                                         published: i % 4 == 0 ? nil : t(i % 5)) }, to: source, at: t(10))
        try save((0..<12).map { i in card("o\(i)", i % 3 == 0 ? "plum plum cake" : "plum jam", published: t(2)) },
                 to: other, at: t(11))
        _ = try store.markRead(.cards([CardID(rawValue: 2), CardID(rawValue: 5), CardID(rawValue: 33)]))
        try store.refreshSearchIndex()
        let preselected = FeedStore.listing(CardQuery(sourceID: source), order: .relevance, search: "plum", preselected: PreselectedWalk(upper: 30, lower: 1))
        XCTAssertTrue(preselected.sql.contains(CardIDFilter.functionName))
        XCTAssertFalse(preselected.sql.contains("card_search JOIN cards"), "no card row read for the window")
        for window in [4, 25, 1_000] {
            for base in [CardQuery(unreadOnly: true), CardQuery(sourceID: source), CardQuery(tag: "news"), CardQuery(since: t(3)),
                         CardQuery(sourceID: other, unreadOnly: true), CardQuery(tag: "nothing")] {
                for limit in [nil, 1, 6] {
                    var query = base
                    query.limit = limit
                    let joined = FeedStore.listing(try store.resolvingTag(query), order: .relevance, search: "plum", window: window)
                    let expected = try store.readCards(joined.sql, joined.values).compactMap(\.card.id)
                    XCTAssertEqual(try store.search("plum", query: query, order: .relevance, window: window).compactMap(\.card.id),
                                   expected, "window \(window), \(query)")
                }
            }
        }
        XCTAssertEqual(try store.search("plum", query: CardQuery(tag: "nothing"), order: .relevance, window: 10), [])
        // The set is emptied after each search: the function passes nothing outside one.
        XCTAssertEqual(try store.db.prepare("SELECT \(CardIDFilter.functionName)(1)").queryOne { $0.int64(0) }, 0)
    }

    func testSearchKeepsTheQueryFilters() throws {
        let other = try addSource("https://other.example/feed", name: "Other", tags: ["news"])
        try save([card("a", "apple pie", published: t(1)), card("b", "apple tart", published: t(2))], to: source, at: t(3))
        try save([card("c", "apple cake", published: t(4))], to: other, at: t(5))
        XCTAssertEqual(try found("apple", CardQuery(sourceID: source)), ["b", "a"])
        XCTAssertEqual(try found("apple", CardQuery(tag: "news")), ["c"])
        XCTAssertEqual(try found("apple", CardQuery(limit: 1)), ["c"])
        XCTAssertEqual(try found("apple", CardQuery(limit: 1), order: .relevance).count, 1)
        _ = try store.markRead(.cards([CardID(rawValue: 2)]))
        XCTAssertEqual(try found("apple", CardQuery(unreadOnly: true)), ["c", "a"])
        XCTAssertEqual(try found("apple", CardQuery(sourceID: other), order: .source), ["c"])
    }

    // MARK: - The index follows the cards

    func testUpdatedCardIsFoundByItsNewWordsOnly() throws {
        try save([card("a", "Old headline", author: "Ann")], to: source, at: t(1))
        XCTAssertEqual(try found("headline"), ["a"])
        let summary = try save([card("a", "Fresh title", author: "Bob")], to: source, at: t(2))
        XCTAssertEqual(summary.updated, 1)
        XCTAssertEqual(try found("headline"), [])
        XCTAssertEqual(try found("ann"), [])
        XCTAssertEqual(try found("fresh"), ["a"])
        XCTAssertEqual(try found("bob"), ["a"])
        try save([card("a", "Fresh title", author: "Bob")], to: source, at: t(3))  // unchanged: touch only
        _ = try store.markRead(.all)
        XCTAssertEqual(try found("fresh"), ["a"])
        assertIndexInStep()
    }

    func testRemovedSourceAndPrunedCardsAreNoLongerFound() throws {
        let other = try addSource("https://other.example/feed", name: "Other")
        try save([card("a", "zebra crossing")], to: source, at: t(1))
        try save([card("b", "zebra stripes")], to: other, at: t(1))
        XCTAssertEqual(try found("zebra"), ["b", "a"])
        XCTAssertTrue(try store.removeSource(source))
        XCTAssertEqual(try found("zebra"), ["b"])
        assertIndexInStep()
        // Retention deletes a read card the source no longer lists.
        try save([card("c", "okapi")], to: other, at: t(2))
        _ = try store.markRead(.all)
        XCTAssertEqual(try store.prune(now: t(400), defaultKeepDays: 30), 1)
        XCTAssertEqual(try found("zebra"), [])
        XCTAssertEqual(try found("okapi"), ["c"])
        assertIndexInStep()
    }

    // MARK: - What is indexed, and when

    private func pending() throws -> Int { try searchPending() }

    /// SQLite gives a new card the highest id + 1: after the newest card is deleted, a new one
    /// gets an id that was indexed once. It must count as new.
    func testANewCardReusingADeletedIdIsIndexed() throws {
        let other = try addSource("https://other.example/feed", name: "Other")
        try save([card("a", "apple")], to: source, at: t(1))
        try save([card("b", "banana")], to: other, at: t(2))
        XCTAssertEqual(try found("banana"), ["b"])
        XCTAssertTrue(try store.removeSource(other))
        try save([card("c", "cherry")], to: source, at: t(3))
        XCTAssertEqual(try store.cards().map(\.id.rawValue), [2, 1], "the deleted card's id came back")
        XCTAssertEqual(try found("cherry"), ["c"])
        XCTAssertEqual(try found("banana"), [])
        XCTAssertEqual(try found("apple"), ["a"])
        assertIndexInStep()
    }

    /// Deleting cards below the mark re-indexes nothing: the logged deletes only remove words.
    func testRetentionOfOldCardsKeepsTheMark() throws {
        try save([card("a", "apple"), card("b", "banana")], to: source, at: t(1))
        try store.refreshSearchIndex()
        try store.db.execute("DELETE FROM cards WHERE id = 1")
        XCTAssertEqual(try pending(), 1, "the delete is logged")
        XCTAssertEqual(try store.refreshSearchIndex(), 0, "and re-indexes nothing")
        XCTAssertEqual(try found("apple"), [])
        XCTAssertEqual(try found("banana"), ["b"])
        assertIndexInStep()
    }

    /// A new card may get an id below the index's mark that no card had when the index last
    /// looked (ids 1 and 3 indexed, 3 deleted: the next card is 2). It is logged and indexed.
    func testANewCardBelowTheMarkIsIndexed() throws {
        try save([card("a", "apple"), card("b", "banana"), card("c", "cherry")], to: source, at: t(1))
        try store.db.execute("DELETE FROM cards WHERE id = 2")
        try store.refreshSearchIndex()
        try store.db.execute("DELETE FROM cards WHERE id = 3")
        try save([card("d", "damson")], to: source, at: t(2))
        XCTAssertEqual(try store.cards().map(\.id.rawValue), [2, 1], "the new card took id 2")
        XCTAssertEqual(try found("damson"), ["d"])
        XCTAssertEqual(try found("banana OR cherry"), [])
        assertIndexInStep()
    }

    func testDescriptionsAreIndexedThroughTheConverterAndBounded() throws {
        var converted: [String] = []
        store.descriptionText = { html in
            converted.append(html)
            return html.replacingOccurrences(of: "<p>", with: " ").replacingOccurrences(of: "</p>", with: " ")
        }
        let long = "<p>" + String(repeating: "filler ", count: SearchIndex.descriptionLimit / 7 + 10) + "needle</p>"
        try save([card("a", "One", description: "<p>markup words</p>"), card("b", "Two", description: long)],
                 to: source, at: t(1))
        XCTAssertEqual(try found("markup"), ["a"])
        XCTAssertEqual(try found("p"), [], "tags went through the converter, not into the index")
        XCTAssertEqual(try found("filler"), ["b"])
        XCTAssertEqual(try found("needle"), [], "words past the bound are not indexed")
        XCTAssertEqual(converted.count, 2)
        XCTAssertEqual(try store.refreshSearchIndex(), 0, "nothing left to index")
        XCTAssertEqual(converted.count, 2, "an empty refresh converts nothing")
    }

    func testOnlyNewAndChangedTextIsQueued() throws {
        try save([card("a", "Alpha", author: "Ann"), card("b", "Beta")], to: source, at: t(1))
        XCTAssertEqual(try pending(), 2, "saved cards wait for the index")
        XCTAssertEqual(try store.refreshSearchIndex(), 2)
        XCTAssertEqual(try pending(), 0)
        try save([card("a", "Alpha", author: "Ann"), card("b", "Beta")], to: source, at: t(2))
        XCTAssertEqual(try pending(), 0, "unchanged cards cost the index nothing")
        var moved = card("a", "Alpha", author: "Ann")
        moved.link = "https://example.org/elsewhere"
        XCTAssertEqual(try save([moved, card("b", "Beta, revised")], to: source, at: t(3)).updated, 2)
        XCTAssertEqual(try pending(), 1, "a new link changes no indexed word; a new title does")
        XCTAssertEqual(try found("revised"), ["b"], "a search indexes what is pending first")
        assertIndexInStep()
    }

    func testDeletingAPendingCardLeavesNothingQueued() throws {
        try store.refreshSearchIndex()
        try save([card("a", "Gamma")], to: source, at: t(1))
        XCTAssertTrue(try store.removeSource(source))
        XCTAssertEqual(try store.refreshSearchIndex(), 0, "the card went before it was indexed")
        XCTAssertEqual(try pending(), 0)
        XCTAssertEqual(try store.db.prepare("SELECT count(*) FROM card_search_changes").queryOne { $0.int(0) }, 0,
                       "the log is emptied up to what the index read")
        assertIndexInStep()
    }

    // MARK: - Bad queries

    func testBadQueriesAreStorageErrorsWithAClearMessage() throws {
        try save([card("a", "anything")], to: source, at: t(1))
        // (`foo:bar`, `(swift` and `e-mail` were errors before issue 19: now they are words.)
        for text in ["\"unclosed", "AND", "swift OR", "NOT swift", "a AND OR b", "+++"] {
            XCTAssertThrowsError(try store.search(text), text) { error in
                guard case let .badSearchQuery(query, reason)? = error as? StorageError else {
                    return XCTFail("\(text): unexpected \(error)")
                }
                XCTAssertEqual(query, text)
                XCTAssertFalse(reason.isEmpty)
                let message = error.localizedDescription
                XCTAssertTrue(message.hasPrefix("cannot search for \(text): "), message)
                XCTAssertTrue(message.contains("\"a phrase\""), message)
            }
        }
        for blank in ["", "   "] {
            XCTAssertThrowsError(try store.search(blank)) { error in
                XCTAssertEqual(error as? StorageError, .badSearchQuery(query: blank, reason: "it is empty; give at least one word"))
            }
        }
        XCTAssertEqual(try found("\"e-mail\""), [], "quoted punctuation is fine")
    }

    // MARK: - Migration

    func testMigrationFromVersionOneBackfillsTheIndex() throws {
        let path = try olderDatabase(migrations: 1, """
            INSERT INTO sources (id, url, name, kind, created_at) VALUES (1, 'https://old.example/feed', 'Old', 'feed', 0);
            INSERT INTO cards (source_id, card_key, title, description, author, kind, content_hash,
                               first_seen_at, changed_at, last_seen_at, sort_date, published)
            VALUES (1, 'k1', 'Crème brûlée', '<p>dessert</p>', 'Chef', 'article', 'h', 10, 10, 10, 5, 5),
                   (1, 'k2', 'Soup', NULL, NULL, 'article', 'h', 10, 10, 10, 10, NULL);
            """)
        let migrated = try FeedStore(path: path)
        XCTAssertEqual(try migrated.databaseSchemaVersion(), FeedStore.schemaVersion)
        XCTAssertEqual(try migrated.search("creme brulee").compactMap(\.key.rawValue), ["k1"])
        XCTAssertEqual(try migrated.search("dessert OR soup", order: .newest).map(\.key.rawValue), ["k1", "k2"],
                       "k2 has no date: after the dated card")
        store = migrated
        assertIndexInStep()
        XCTAssertEqual(try migrated.integrityCheck(), "ok")
    }
}
