import Foundation

/// What a person means by an address typed without a scheme: `feeds add example.org/feed` is a
/// web address when no such file exists (a path that exists stays a path).
public enum TypedAddress {
    /// `https://` + `text` when `text` has no scheme, names no existing file (as typed, or in
    /// `folder`, the sources file's folder, where relative paths are resolved) and starts with
    /// a host name (`example.org`, `localhost`, `127.0.0.1:8080`, each with a dot or a port);
    /// nil when it is to be taken as written.
    static let fileExtensions: Set<String> = ["xml", "rss", "atom", "rdf", "json", "opml", "txt", "html", "htm"]

    public static func webURL(forTyped text: String, folder: String) -> String? {
        guard !text.contains("://"), !text.lowercased().hasPrefix("file:"), !text.hasPrefix("/"), !text.hasPrefix("."),
              !text.hasPrefix("~") else { return nil }
        let fm = FileManager.default
        if fm.fileExists(atPath: text) || fm.fileExists(atPath: folder + "/" + text) { return nil }
        let hostPart = text.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var host = Substring(hostPart)
        var hasPort = false
        if let colon = hostPart.lastIndex(of: ":") {
            let port = hostPart[hostPart.index(after: colon)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            host = hostPart[..<colon]
            hasPort = true
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard !host.isEmpty, labels.count >= 2 || hasPort || host.lowercased() == "localhost",
              labels.allSatisfy({ label in
                  !label.isEmpty && label.count <= 63 && !label.hasPrefix("-")
                      && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
              }),
              // A missing `feed.xml` has a dot too: a bare name ending in a file extension of feeds
              // stays a path (and fails as a missing file, which is what it is).
              hostPart.count < text.count || hasPort || !fileExtensions.contains(labels.last!.lowercased())
        else { return nil }
        return "https://" + text
    }
}
