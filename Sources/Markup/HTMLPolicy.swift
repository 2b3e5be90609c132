import FeedModel

/// The sanitizer's allow-lists and URL rules, shared with the text and image extractors.
public enum HTMLPolicy {
    /// What happens to an element.
    public enum Disposition: Sendable, Equatable {
        /// Kept with the listed attributes.
        case keep
        /// Removed with everything inside it.
        case drop
        /// Tags removed, content kept.
        case unwrap
    }

    /// Attributes allowed on every kept element.
    public static let globalAttributes: Set<String> = ["title", "lang", "dir"]

    /// Kept elements and the attributes each may carry besides `globalAttributes`.
    public static let allowedElements: [String: Set<String>] = [
        // text structure
        "p": [], "br": [], "hr": [], "div": [], "span": [], "pre": [], "blockquote": ["cite"],
        "h1": [], "h2": [], "h3": [], "h4": [], "h5": [], "h6": [],
        "ul": [], "ol": ["start", "reversed", "type"], "li": ["value"], "dl": [], "dt": [], "dd": [],
        "figure": [], "figcaption": [], "address": [], "details": [], "summary": [],
        "section": [], "article": [], "aside": [], "header": [], "footer": [],
        // phrases
        "a": ["href", "hreflang"], "em": [], "strong": [], "b": [], "i": [], "u": [], "s": [],
        "code": [], "kbd": [], "samp": [], "var": [], "small": [], "big": [], "sub": [], "sup": [],
        "abbr": [], "dfn": [], "q": ["cite"], "cite": [], "del": ["cite", "datetime"],
        "ins": ["cite", "datetime"], "mark": [], "time": ["datetime"], "bdi": [], "bdo": [],
        "ruby": [], "rt": [], "rp": [], "wbr": [], "strike": [], "tt": [],
        // tables
        "table": [], "caption": [], "thead": [], "tbody": [], "tfoot": [], "tr": [],
        "td": ["colspan", "rowspan", "headers"], "th": ["colspan", "rowspan", "headers", "scope", "abbr"],
        "colgroup": ["span"], "col": ["span"],
        // media
        "img": ["src", "alt", "width", "height"],
        "picture": [], "source": ["src", "type", "media"],
        "video": ["src", "poster", "width", "height", "controls", "loop", "muted", "preload"],
        "audio": ["src", "controls", "loop", "muted", "preload"],
    ]

    /// Elements removed together with their content.
    public static let droppedElements: Set<String> = [
        "script", "style", "frameset",
        "form", "input", "button", "select", "option", "optgroup", "textarea", "datalist", "output",
        "noscript", "noembed", "template", "title", "head",
        "svg", "math", "canvas", "map", "dialog", "portal", "slot", "xml", "plaintext",
    ]

    /// Embedding elements whose own content is only the fallback a browser shows when it cannot
    /// embed: the element goes, the (sanitized) fallback stays, as feedparser does. (A `src`,
    /// `data` or `code` never survives: these elements keep no attributes at all.)
    public static let fallbackContainers: Set<String> = ["iframe", "object", "applet", "noframes"]

    /// Void elements that must go. libxml2 2.9 does not know all of them as void and may hang the
    /// content that follows them (`<embed src=x> more text`) below them: the element goes, what
    /// libxml2 put inside stays (sanitized).
    public static let droppedVoidElements: Set<String> = [
        "embed", "param", "frame", "track", "area", "input", "keygen", "link", "meta", "base", "basefont",
    ]

    /// Elements that never have content (serialized without an end tag).
    public static let voidElements: Set<String> = ["br", "hr", "img", "wbr", "col", "source"]

    /// URL-valued attributes (checked and resolved).
    public static let urlAttributes: Set<String> = ["href", "src", "cite", "poster"]

    public static func disposition(of element: String) -> Disposition {
        if allowedElements[element] != nil { return .keep }
        if droppedElements.contains(element) { return .drop }
        // droppedVoidElements, fallbackContainers and unknown elements: tags removed, content kept.
        // fallbackContainers and unknown elements alike: tags removed, content kept.
        return .unwrap
    }

    public static func isAllowed(attribute: String, on element: String) -> Bool {
        isAllowed(attribute: attribute, in: allowedElements[element])
    }

    /// `isAllowed(attribute:on:)` with the element's entry of `allowedElements` at hand.
    static func isAllowed(attribute: String, in elementAttributes: Set<String>?) -> Bool {
        if attribute.hasPrefix("on") || attribute == "style" { return false }
        return globalAttributes.contains(attribute) || (elementAttributes?.contains(attribute) ?? false)
    }

    // MARK: - URLs

    /// The URL to write for an attribute value, or nil when it must go: the value is trimmed of
    /// white space and control characters and stripped of the control characters inside it
    /// (browsers ignore tab and line feed anywhere, so `java&#x09;script:` is `javascript:`),
    /// resolved against `base` when relative, and kept only when its scheme is http, https or
    /// mailto; `data:image/...` (not SVG) is allowed only when `allowDataImage`. Inner spaces are
    /// percent-encoded (by `WebAddress`).
    public static func safeURL(_ value: String, base: String?, allowDataImage: Bool = false) -> String? {
        safeURL(value, allowDataImage: allowDataImage, resolve: { WebAddress.resolve($0, against: base) })
    }

    /// `safeURL(_:base:allowDataImage:)` with the resolution against the base given as a function
    /// (`WebAddress.resolve(_:against:)` or the same with a base parsed once).
    static func safeURL(_ value: String, allowDataImage: Bool, resolve: (String) -> String) -> String? {
        // Most common of all: an absolute http(s) URL of printable ASCII without `&`, which the
        // steps below would return unchanged.
        if isPlainAbsoluteWebURL(value) { return value }
        // Common case: printable ASCII only, nothing to clean.
        let plain = value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "&") }
        var scalars = plain ? value.unicodeScalars[...] : value.unicodeScalars.filter(isKeptInURL)[...]
        while let f = scalars.first, f == " " || f == "\u{A0}" { scalars = scalars.dropFirst() }
        while let l = scalars.last, l == " " || l == "\u{A0}" { scalars = scalars.dropLast() }
        var cleaned = value
        if !plain {
            cleaned = ""
            cleaned.unicodeScalars.append(contentsOf: scalars)
        }
        if cleaned.isEmpty { return nil }
        // libxml2 2.9 decodes only HTML 4 references; a browser also decodes the HTML5 ones
        // (`javascript&colon;`). Judge the scheme on that reading too (but keep the value as
        // libxml2 read it: decoding twice would corrupt query strings).
        if cleaned.utf8.contains(UInt8(ascii: "&")) {
            let decoded = HTMLEntities.decode(cleaned).unicodeScalars.filter { $0.value > 0x20 }
            if let scheme = scheme(of: String(String.UnicodeScalarView(decoded))),
               !["http", "https", "mailto"].contains(scheme) { return nil }
        }
        if let scheme = scheme(of: cleaned) {
            if scheme == "data" {
                return allowDataImage && isImageDataURL(cleaned) ? cleaned : nil
            }
            guard scheme == "http" || scheme == "https" || scheme == "mailto" else { return nil }
            // Absolute already: kept as written, apart from inner spaces.
            if !cleaned.utf8.contains(0x20) { return cleaned }
        }
        var resolved = resolve(cleaned)
        // The base brings its own characters: cleaned the same way, so that sanitizing the
        // output again gives the same URL (found by fuzzing: a U+FFFD in an xml:base).
        if !resolved.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            resolved = String(String.UnicodeScalarView(resolved.unicodeScalars.filter(isKeptInURL)))
        }
        if let scheme = scheme(of: resolved) {
            return scheme == "http" || scheme == "https" || scheme == "mailto" ? resolved : nil
        }
        // Still relative (no usable base): harmless, kept as written.
        return scheme(of: resolved) == nil ? resolved : nil
    }

    /// `http://` or `https://` followed by printable ASCII other than `&` only.
    private static func isPlainAbsoluteWebURL(_ value: String) -> Bool {
        var value = value
        return value.withUTF8(isPlainAbsoluteWebURL)
    }

    /// The same test on UTF-8 bytes: such a URL is what `safeURL` returns for them, unchanged
    /// (the fast sanitizer writes it without making a String).
    static func isPlainAbsoluteWebURL(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b.count > 8, let p = b.baseAddress, b[0] == 0x68, b[1] == 0x74, b[2] == 0x74, b[3] == 0x70 else { return false }
        var i: Int
        if b[4] == 0x3A, b[5] == 0x2F, b[6] == 0x2F { i = 7 }
        else if b[4] == 0x73, b[5] == 0x3A, b[6] == 0x2F, b[7] == 0x2F { i = 8 }
        else { return false }
        let n = b.count
        while i + 8 <= n {
            let w = ByteScan.word(p, i)
            if ByteScan.hasLess(w, 0x21) || ByteScan.hasHigh(w) || ByteScan.has(w, 0x26) || ByteScan.has(w, 0x7F) { return false }
            i += 8
        }
        while i < n {
            if b[i] <= 0x20 || b[i] >= 0x7F || b[i] == UInt8(ascii: "&") { return false }
            i += 1
        }
        return true
    }

    /// Whether a URL keeps this character: not controls (C0, DEL, C1), byte order marks, zero
    /// width spaces or replacement characters (what is left of undecodable bytes).
    private static func isKeptInURL(_ s: Unicode.Scalar) -> Bool {
        !(s.value < 0x20 || (s.value >= 0x7F && s.value <= 0x9F) || s.value == 0xFEFF || s.value == 0x200B || s.value == 0xFFFD)
    }

    /// The absolute http(s) form of `value` resolved against `base`, or nil.
    public static func webURL(_ value: String, base: String?) -> String? {
        guard let url = safeURL(value, base: base) else { return nil }
        return WebAddress(parsing: url).isWebURL ? url : nil
    }

    /// The lower-cased scheme of a URL (the part before the first `:` when that comes before any
    /// `/`, `?` or `#`), or nil for relative references.
    static func scheme(of url: String) -> String? {
        let utf8 = url.utf8
        for i in utf8.indices {
            switch utf8[i] {
            case UInt8(ascii: ":"):
                return i == utf8.startIndex ? nil : String(url[..<i]).lowercased()
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return nil
            default:
                continue
            }
        }
        return nil
    }

    /// `data:image/png;base64,...` and friends (but not SVG, which can carry script).
    static func isImageDataURL(_ url: String) -> Bool {
        let head = url.prefix(40).lowercased()
        guard head.hasPrefix("data:image/") else { return false }
        return !head.hasPrefix("data:image/svg")
    }

    // MARK: - Tracking pixels

    /// Path fragments of known analytics beacons. Kept small on purpose: each entry must be
    /// unlikely in a real picture's URL.
    /// - `feeds.feedburner.com/~r/`, `/~ff/`: FeedBurner's per-item pixel and flare images
    /// - `stats.wordpress.com/b.gif` and `pixel.wp.com`: WordPress.com stats
    /// - `doubleclick.net`: ad impressions
    /// - `/pixel`, `pixel.gif`, `/track`, `/beacon`, `/open.gif`, `/__utm.gif`: generic counters
    public static let trackerPatterns: [String] = [
        "feedburner.com/~r/", "/~ff/", "stats.wordpress.com/b.gif", "pixel.wp.com", "doubleclick.net",
        "/pixel", "pixel.gif", "/track", "/beacon", "/open.gif", "/__utm.gif",
    ]

    /// True for an image that only counts readers: both dimensions given and at most 1 pixel,
    /// or a source on a known analytics path (`trackerPatterns`).
    public static func isTrackingPixel(src: String, width: String?, height: String?) -> Bool {
        if let w = pixels(width), let h = pixels(height), w <= 1, h <= 1 { return true }
        var src = src
        return src.withUTF8(containsTrackerPattern)
    }

    /// `isTrackingPixel(src:width:height:)` with the source as UTF-8 bytes.
    static func isTrackingPixel(src: UnsafeBufferPointer<UInt8>, width: String?, height: String?) -> Bool {
        if let w = pixels(width), let h = pixels(height), w <= 1, h <= 1 { return true }
        return containsTrackerPattern(src)
    }

    private static let trackerPatternBytes: [[UInt8]] = trackerPatterns.map { Array($0.utf8) }

    /// For each byte value, the indexes of the patterns that start with it.
    private static let trackerPatternsByFirstByte: [[Int]] = {
        var table = [[Int]](repeating: [], count: 256)
        for (index, pattern) in trackerPatternBytes.enumerated() { table[Int(pattern[0])].append(index) }
        return table
    }()

    /// Whether `src`, ASCII letters compared without case, contains one of `trackerPatterns`
    /// (one pass over the URL: only the patterns starting with the byte at hand are tried).
    private static func containsTrackerPattern(_ src: UnsafeBufferPointer<UInt8>) -> Bool {
        let byFirst = trackerPatternsByFirstByte
        let n = src.count
        for i in 0..<n {
            let candidates = byFirst[Int(lowered(src[i]))]
            if candidates.isEmpty { continue }
            for c in candidates {
                let pattern = trackerPatternBytes[c]
                guard i + pattern.count <= n else { continue }
                var j = 1
                while j < pattern.count && lowered(src[i + j]) == pattern[j] { j += 1 }
                if j == pattern.count { return true }
            }
        }
        return false
    }

    @inline(__always) private static func lowered(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b | 0x20 : b }

    /// The leading integer of a width/height value ("1", "1px", " 0 "), or nil.
    static func pixels(_ value: String?) -> Int? {
        guard let value else { return nil }
        var digits = 0, n = 0
        for c in value.utf8 {
            if c == 0x20 && digits == 0 { continue }
            guard c >= 48 && c <= 57 else { break }
            if n < 1_000_000 { n = n * 10 + Int(c - 48) }
            digits += 1
        }
        return digits > 0 ? n : nil
    }
}
