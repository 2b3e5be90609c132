/// The one rule for images of local sources: a feed read from a file (`file:///dir/feed.rss`)
/// may name pictures that are files inside its folder (`img/a.png`), so an offline feed (the
/// demo's samples, a feed a script writes to disk) shows pictures. A feed fetched over HTTP
/// never gets a file image: the parser applies this only to documents whose own URL is a file
/// (`FeedParsing`), and the image cache reads a file only for a card of a local source, inside
/// that source's folder (`ImageCache.requests`).
public enum LocalImage {
    /// The folder of a document read from `base` when that is a `file://` URL
    /// (`file:///dir/feed.rss` -> `file:///dir`), else nil: a document from the web has none.
    public static func folder(ofDocument base: String?) -> String? {
        guard let base, base.utf8.count > 8, base.prefix(8).lowercased() == "file:///",
              let slash = base.lastIndex(of: "/") else { return nil }
        let folder = String(base[..<slash])
        return folder.utf8.count > 7 ? folder : nil
    }

    /// `s` when it is a `file://` URL of a file inside `folder` (see `folder(ofDocument:)`): an image
    /// of a local source, given relative to the feed file (`img/a.png`) or absolute. No dot
    /// segment, no encoded slash or dot, no query, fragment, space or control byte: the path
    /// cannot climb out of the folder however it is decoded.
    public static func inside(_ s: String, folder: String) -> String? {
        // Bytewise: String's hasPrefix compares Characters (canonical equivalence).
        guard s.utf8.count > folder.utf8.count + 1, s.utf8.starts(with: (folder + "/").utf8) else { return nil }
        let rest = Substring(s.utf8.dropFirst(folder.utf8.count + 1))
        guard !rest.isEmpty, !rest.hasSuffix("/"),
              !rest.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "\\") })
        else { return nil }
        let lower = rest.lowercased()
        guard !lower.contains("%2f"), !lower.contains("%2e"), !lower.contains("%5c"), !lower.contains("%00") else { return nil }
        for segment in rest.split(separator: "/", omittingEmptySubsequences: false) where segment.isEmpty || segment == "." || segment == ".." {
            return nil
        }
        return s
    }
}
