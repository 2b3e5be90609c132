/// The browser commands for a URL, from `$BROWSER` as xdg-utils and man(1) read it: a list of
/// commands separated by colons, tried in turn until one starts and does not fail. In each,
/// `%s` is the URL (else it is added as the last argument), `%%` a percent sign and `%c` a
/// colon; the words are split on blanks and never go through a shell, so the URL is one
/// argument whatever it holds. Without `$BROWSER` (or with only blanks in it): `xdg-open URL`.
public enum Browser {
    public static func commands(url: String, environment: [String: String]) -> [[String]] {
        let entries = (environment["BROWSER"] ?? "").split(separator: ":").compactMap { entry -> [String]? in
            let words = entry.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !words.isEmpty else { return nil }
            let expanded = words.map { $0.expandingPercents(url: url) }
            return expanded.map(\.text) + (expanded.contains(where: \.hadURL) ? [] : [url])
        }
        return entries.isEmpty ? [["xdg-open", url]] : entries
    }

    /// The first command (the tests' and the old single-command spelling's).
    public static func command(url: String, environment: [String: String]) -> [String] {
        commands(url: url, environment: environment)[0]
    }
}

extension String {
    /// `%s` as `url`, `%%` as `%`, `%c` as `:`, any other `%` kept; and whether `%s` was there.
    func expandingPercents(url: String) -> (text: String, hadURL: Bool) {
        var out = ""
        var hadURL = false
        var rest = Substring(self)
        while let mark = rest.firstIndex(of: "%") {
            out += rest[..<mark]
            let after = rest.index(after: mark)
            guard after < rest.endIndex else { rest = rest[mark...]; break }
            switch rest[after] {
            case "s": out += url; hadURL = true
            case "%": out += "%"
            case "c": out += ":"
            default: out += rest[mark...after]
            }
            rest = rest[rest.index(after: after)...]
        }
        return (out + rest, hadURL)
    }
}
