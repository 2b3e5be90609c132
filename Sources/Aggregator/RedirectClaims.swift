import FeedModel

/// Which line of the sources file fetches each address, so that a permanent redirect onto an
/// address another line already fetches is caught instead of saving every card twice (issue 19:
/// a 301 to a URL another source lists duplicated all 30 of its cards). Addresses compare in
/// their normalized form (`WebAddress.normalizedForIdentity`). A line's own URL claims its
/// address before any recorded redirect target does; among redirect targets the earlier line
/// wins, and during a run the first redirect recorded.
/// Used on the run's one saving thread only.
final class RedirectClaims {
    struct Claim {
        var line: Int
        /// The line's own URL (else a redirect it recorded).
        var listed: Bool
    }

    /// Built on first use: most runs meet no redirect, and for 5,000 lines the map of their
    /// normalized addresses is ~0.7 MB that such a run would hold for nothing.
    private lazy var byAddress: [String: Claim] = Self.claims(entries, fetchURLs: fetchURLs, folder: folder)
    private let entries: [SourceEntry]
    private let fetchURLs: [String: String]
    private let folder: String
    let sourcesFile: String

    /// `entries` in file order; `fetchURLs` the recorded redirect targets by source URL.
    init(_ entries: [SourceEntry], fetchURLs: [String: String], folder: String, sourcesFile: String) {
        (self.entries, self.fetchURLs, self.folder, self.sourcesFile) = (entries, fetchURLs, folder, sourcesFile)
    }

    /// Each line's own address, then the recorded redirect targets not already claimed.
    private static func claims(_ entries: [SourceEntry], fetchURLs: [String: String], folder: String) -> [String: Claim] {
        var byAddress: [String: Claim] = [:]
        for e in entries where e.search == nil {
            byAddress[Self.key(e.requestURL(relativeTo: folder))] = Claim(line: e.line, listed: true)
        }
        for e in entries where e.search == nil {
            guard let moved = fetchURLs[e.url] else { continue }
            let key = Self.key(moved)
            if byAddress[key] == nil { byAddress[key] = Claim(line: e.line, listed: false) }
        }
        return byAddress
    }

    static func key(_ url: String) -> String { WebAddress(parsing: url).normalizedForIdentity }

    /// Whether `target` is some line's own URL (not only where another line redirects).
    func isListed(_ target: String) -> Bool { byAddress[Self.key(target)]?.listed == true }

    /// The warning for `entry` when `target` (where it now redirects) is another line's; nil when
    /// it is nobody's or this line's own (then claimed for this line).
    func conflict(_ entry: SourceEntry, redirectsTo target: String) -> String? {
        let key = Self.key(target)
        guard let claim = byAddress[key], claim.line != entry.line else {
            byAddress[key] = byAddress[key] ?? Claim(line: entry.line, listed: false)
            return nil
        }
        let other = claim.listed ? "which line \(claim.line) already lists" : "which line \(claim.line) already fetches (it redirects there too)"
        return "\(sourcesFile):\(entry.line): \(entry.url) now redirects to \(target), \(other): delete line \(entry.line) "
            + "(its cards are not saved twice)"
    }
}
