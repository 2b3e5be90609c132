import FeedModel
import Foundation

/// Reading the sanitizer's own output. Its markup is regular (lower-case names, attributes in
/// double quotes, `&`, `<`, `>`, `"` escaped, tracking pixels already gone), so a byte scan finds
/// what a second HTML parse would, at a fraction of the cost.
enum SanitizedHTML {
    /// The `src` of the first `<img>` that is an http(s) URL, or nil.
    static func firstImageSource(_ html: String) -> String? {
        var html = html
        return html.withUTF8 { b -> String? in
            let n = b.count
            var i = 0
            while i + 4 < n {
                guard b[i] == 0x3C, b[i + 1] == 0x69, b[i + 2] == 0x6D, b[i + 3] == 0x67, b[i + 4] == 0x20 else { i += 1; continue }
                var j = i + 4   // at the space, so the first attribute matches " src=\""
                while j < n, b[j] != 0x3E {
                    // ` src="`
                    if j + 5 < n, b[j] == 0x20, b[j + 1] == 0x73, b[j + 2] == 0x72, b[j + 3] == 0x63, b[j + 4] == 0x3D, b[j + 5] == 0x22 {
                        let start = j + 6
                        var end = start
                        while end < n, b[end] != 0x22 { end += 1 }
                        let raw = String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
                        let value = raw.contains("&") ? unescapeAttribute(raw) : raw
                        if let url = CardURL.image(value) { return url }
                        break
                    }
                    if b[j] == 0x22 { j += 1; while j < n, b[j] != 0x22 { j += 1 } }   // skip other values
                    j += 1
                }
                i = j
            }
            return nil
        }
    }

    static func unescapeAttribute(_ s: String) -> String {
        s.replacingAll("&quot;", "\"").replacingAll("&lt;", "<").replacingAll("&gt;", ">").replacingAll("&amp;", "&")
    }
}

private extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        guard contains(target) else { return self }
        return components(separatedBy: target).joined(separator: replacement)
    }
}
