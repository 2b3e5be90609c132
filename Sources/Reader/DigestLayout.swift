import FeedModel
import Storage

extension Digest {
    /// The digest with where each card ends (see `RenderedCards`); `render` is its text.
    public func layout(_ cards: [StoredCard], grouping: Grouping = .none) -> RenderedCards {
        var out = RenderedCards()
        for (heading, members) in Self.groups(cards, grouping, zone: zone) {
            if let heading {
                if out.byteCount > 0 { out.append("\n") }
                out.append(style.styled("== " + TerminalText.line(heading) + " (\(members.count))", .header) + "\n\n")
            }
            for index in members { out.append(block(cards[index]) + "\n", card: index) }
        }
        return out
    }

    /// Indices of `cards` under their headings: groups in the order their first card has,
    /// cards in their order inside. Days are days of `zone`.
    static func groups(_ cards: [StoredCard], _ grouping: Grouping, zone: TimeZoneOffset) -> [(String?, [Int])] {
        guard grouping != .none else { return cards.isEmpty ? [] : [(nil, Array(cards.indices))] }
        var order: [String] = []
        var members: [String: [Int]] = [:]
        for (index, card) in cards.enumerated() {
            let key = grouping == .source ? card.sourceName : Age.day(card.sortDate, zone: zone)
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(index)
        }
        return order.map { ($0, members[$0]!) }
    }
}

extension DigestJSON {
    /// The JSON array with where each card's object ends (its line's comma included).
    public static func layout(_ cards: [StoredCard]) -> RenderedCards {
        var out = RenderedCards()
        if cards.isEmpty { out.append("[]\n"); return out }
        out.append("[\n")
        for (index, stored) in cards.enumerated() {
            out.append(card(stored) + (index == cards.count - 1 ? "\n" : ",\n"), card: index)
        }
        out.append("]\n")
        return out
    }
}
