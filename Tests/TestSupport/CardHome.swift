import Foundation

/// A feeds home folder with one local RSS source of `count` cards, updated: what the CLI and
/// terminal tests read. Card `i` (0 = newest) is titled "Card i <word>", an hour older than
/// card i-1, with `words` words of description; every fifth has a podcast enclosure.
public final class CardHome {
    public let directory = TemporaryDirectory("feeds-home")
    public var path: String { directory.path }

    public init(count: Int, words: Int = 12, now: Date = Date(), title: (Int) -> String = { "Card \($0)" }) throws {
        let vocabulary = ["river", "lantern", "copper", "meadow", "signal", "harbor", "pepper", "orbit"]
        var items = ""
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        for i in 0..<count {
            let date = formatter.string(from: now.addingTimeInterval(Double(-3_600 * i - 60)))
            let text = (0..<words).map { vocabulary[($0 + i) % vocabulary.count] }.joined(separator: " ")
            let enclosure = i % 5 == 0
                ? "<enclosure url=\"https://local.example/ep\(i).mp3\" type=\"audio/mpeg\" length=\"30000000\"/>" : ""
            items += """
                <item><guid>card-\(i)</guid><title>\(title(i))</title><link>https://local.example/\(i)</link>
                <pubDate>\(date)</pubDate><description>\(text)</description>\(enclosure)</item>

                """
        }
        let feed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Local feed</title><link>https://local.example/</link>
            \(items)</channel></rss>
            """
        try feed.write(to: directory.file("feed.rss"), atomically: false, encoding: .utf8)
        try "feed.rss name=Local\n".write(to: directory.file("sources"), atomically: false, encoding: .utf8)
        let update = try FeedsCommand.run(["--home", path, "update", "--all"])
        guard update.status == 0 else { throw PseudoTerminal.Failure(description: "feeds update failed: \(update.stderr)") }
    }

    /// How many cards are unread now (through `feeds read --json`).
    public func unreadCount() throws -> Int {
        let r = try FeedsCommand.run(["--home", path, "read", "--unread", "--keep-unread", "--json"])
        let cards = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [Any]
        return cards?.count ?? -1
    }
}
