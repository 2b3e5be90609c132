import FeedModel
import FeedParsing
import Fetching
import Reader
import Storage

/// The `text` fuzz target: what the text writers print from hostile strings. The input is the
/// fields of one card and its source, separated by 0xFF bytes (never part of UTF-8, so any
/// text fits in a field): title, description (HTML), link, image, author, source name, and a
/// redirect's Location. The card goes through the digest in every style and grouping, the
/// Location through a fetch error's message and the one-line neutraliser; the bytes are also
/// parsed as a feed and its cards shown. Nothing may carry a control character from the input.
enum TextWriters {
    static func run(_ bytes: [UInt8]) throws {
        let fields = bytes.split(separator: 0xFF, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        func field(_ i: Int) -> String? { i < fields.count && !fields[i].isEmpty ? fields[i] : nil }
        let card = Card(title: field(0), description: field(1), link: field(2), image: field(3), author: field(4))
        var cards = [stored(card, source: field(5) ?? "source")]
        if let parsed = try? FeedParser.parse(bytes, options: ParseOptions(baseURL: "https://fuzz.example/feed/")) {
            cards += parsed.cards.prefix(20).map { stored($0, source: parsed.feed.title ?? "feed") }
        }
        try digests(cards)
        let location = field(6) ?? fields.joined()
        for error in [FetchError.redirectRefused(location: location), .invalidURL(location), .tls(detail: location),
                      .couldNotConnect(host: location, detail: location)] {
            try terminalSafe(error.errorDescription ?? "", keepsLines: false, styled: false, "fetch error")
        }
        try terminalSafe(TerminalText.line(fields.joined()), keepsLines: false, styled: false, "one-line field")
        try terminalSafe(TerminalText.lines(fields.joined()), keepsLines: true, styled: false, "laid-out text")
    }

    static func digests(_ cards: [StoredCard]) throws {
        let now = Timestamp(secondsSince1970: 1_800_000_000)
        for mode in [DigestStyle.Mode.plain, .monochrome, .color] {
            for grouping in Digest.Grouping.allCases {
                let digest = Digest(style: DigestStyle(width: 40, mode: mode), now: now,
                                    highlight: SearchHighlight(query: "a OR e"))
                try terminalSafe(digest.render(cards, grouping: grouping), keepsLines: true, styled: mode != .plain,
                                 "digest (\(mode), \(grouping))")
            }
        }
    }

    static func stored(_ card: Card, source: String) -> StoredCard {
        let t = Timestamp(secondsSince1970: 1_700_000_000)
        return StoredCard(id: CardID(rawValue: 1), card: card, key: card.key, sourceID: SourceID(rawValue: 1),
                          sourceName: source, isRead: false, firstSeenAt: t, changedAt: t, lastSeenAt: t, sortDate: t)
    }

    /// No scalar below U+0020 but "\n" (where the writer lays out lines), no DEL, C1 or bidi
    /// control; in styled text, ESC only as the start of the digest's own `ESC [ digits ; m`.
    static func terminalSafe(_ text: String, keepsLines: Bool, styled: Bool, _ what: String) throws {
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if styled, s == "\u{1B}" {
                var j = i + 1
                try Invariant.check(j < scalars.count && scalars[j] == "[", "\(what): ESC not starting a style: \(text.debugDescription)")
                j += 1
                while j < scalars.count, scalars[j] == ";" || ("0"..."9").contains(scalars[j]) { j += 1 }
                try Invariant.check(j < scalars.count && scalars[j] == "m", "\(what): an escape other than a style: \(text.debugDescription)")
                i = j + 1
                continue
            }
            if s == "\n" && keepsLines { i += 1; continue }
            try Invariant.check(!TerminalText.isNeutralised(s),
                                "\(what): control U+\(String(s.value, radix: 16)) reaches the terminal: \(text.debugDescription)")
            i += 1
        }
    }
}
