/// URLs as RFC 3986 strings, handled without Foundation so that the model imports nothing and
/// so that resolution behaves the same everywhere (xml:base chains, relative links in
/// descriptions, the document URL as the base of last resort).
public struct WebAddress: Hashable, Sendable, CustomStringConvertible {
    public var scheme: String?      // lower-cased
    public var authority: String?   // userinfo@host:port, as written
    public var path: String
    public var query: String?
    public var fragment: String?

    /// Splits a URI reference (RFC 3986 appendix B). Leading and trailing white space is removed
    /// and inner spaces are percent-encoded, as browsers do with hand-written feed URLs.
    public init(parsing raw: String) {
        // Common case: printable ASCII without spaces between ASCII white space (which is all
        // that trimming removes then, and nothing to encode): split on bytes.
        let u = raw.utf8
        var lo = u.startIndex, hi = u.endIndex
        while lo < hi, WebAddress.isASCIISpace(u[lo]) { lo = u.index(after: lo) }
        while hi > lo, WebAddress.isASCIISpace(u[u.index(before: hi)]) { hi = u.index(before: hi) }
        if u[lo..<hi].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            self = WebAddress(printableASCII: lo == u.startIndex && hi == u.endIndex ? raw : String(raw[lo..<hi]))
            return
        }
        // Everything below works on Unicode scalars, never on Characters: a combining mark
        // after ":", "/", "?" or "#" joins it into one Character, which then no longer equals
        // the delimiter (found by fuzzing: "htt:\u{06E2}/x" lost its scheme when read back).
        var sc: [Unicode.Scalar] = []
        for c in WebAddress.trimmed(raw).unicodeScalars {
            switch c {
            case "\t", "\n", "\r": continue
            case " ": sc.append(contentsOf: ["%", "2", "0"])
            case _ where c.value < 0x20 || c.value == 0x7F:
                // Other control characters are percent-encoded (the URL standard's C0 control
                // set): left raw, one at the end of the path would be trimmed away when the
                // written address is read again (found by fuzzing: "ht:/\0\u{0C}").
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                sc.append(contentsOf: ["%", hex[Int(c.value >> 4)], hex[Int(c.value & 0xF)]])
            default: sc.append(c)
            }
        }
        func text(_ part: ArraySlice<Unicode.Scalar>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: part)
            return String(view)
        }
        var from = 0, to = sc.count
        if let hash = sc.firstIndex(of: "#") {
            fragment = text(sc[(hash + 1)...])
            to = hash
        }
        if let q = sc[..<to].firstIndex(of: "?") {
            query = text(sc[(q + 1)..<to])
            to = q
        }
        if let colon = sc[..<to].firstIndex(of: ":"), colon > 0,
           WebAddress.isScheme(sc[..<colon]) {
            scheme = text(sc[..<colon]).lowercased()
            from = colon + 1
        }
        if to - from >= 2, sc[from] == "/", sc[from + 1] == "/" {
            from += 2
            let end = sc[from..<to].firstIndex(of: "/") ?? to
            authority = text(sc[from..<end])
            from = end
        }
        path = text(sc[from..<to])
    }

    /// `init(parsing:)` for a string of printable ASCII without spaces, as the same
    /// RFC 3986 appendix B split done on UTF-8 bytes.
    private init(printableASCII raw: String) {
        // On the bytes by offset: the UTF-8 view's generic index walk was most of this
        // function's cost, and it runs for every link and image of every description.
        var raw = raw
        var scheme: String?, authority: String?, path = "", query: String?, fragment: String?
        raw.withUTF8 { b in
            func text(_ from: Int, _ to: Int) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: b[from..<to]), as: UTF8.self)
            }
            func find(_ c: UInt8, _ from: Int, _ to: Int) -> Int? {
                var i = from
                while i < to { if b[i] == c { return i }; i += 1 }
                return nil
            }
            var end = b.count
            if let hash = find(UInt8(ascii: "#"), 0, end) {
                fragment = text(hash + 1, b.count)
                end = hash
            }
            if let q = find(UInt8(ascii: "?"), 0, end) {
                query = text(q + 1, end)
                end = q
            }
            var start = 0
            if let colon = find(UInt8(ascii: ":"), 0, end), colon > 0 {
                let first = b[0] | 0x20
                var isScheme = first >= 97 && first <= 122
                var i = 0
                while isScheme && i < colon {
                    let c = b[i], l = c | 0x20
                    isScheme = (l >= 97 && l <= 122) || (c >= 48 && c <= 57) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
                    i += 1
                }
                if isScheme {
                    scheme = text(0, colon).lowercased()
                    start = colon + 1
                }
            }
            if end - start >= 2, b[start] == UInt8(ascii: "/"), b[start + 1] == UInt8(ascii: "/") {
                let authorityStart = start + 2
                let authorityEnd = find(UInt8(ascii: "/"), authorityStart, end) ?? end
                authority = text(authorityStart, authorityEnd)
                start = authorityEnd
            }
            path = text(start, end)
        }
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    public var isAbsolute: Bool { scheme != nil }

    /// The host without user info or port, lower-cased; nil for URLs without authority.
    public var host: String? {
        guard let authority else { return nil }
        if authority.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: the same steps on bytes.
            let u = authority.utf8
            var start = u.startIndex
            if let at = u.lastIndex(of: UInt8(ascii: "@")) { start = u.index(after: at) }
            let rest = u[start...]
            if rest.first == UInt8(ascii: "[") {
                return rest.firstIndex(of: UInt8(ascii: "]")).map { String(authority[start...$0]) } ?? String(authority[start...])
            }
            let end = rest.lastIndex(of: UInt8(ascii: ":")) ?? u.endIndex
            return String(authority[start..<end]).lowercased()
        }
        var a = authority[...]
        if let at = a.lastIndex(of: "@") { a = a[a.index(after: at)...] }
        if a.hasPrefix("[") { return a.firstIndex(of: "]").map { String(a[...$0]) } ?? String(a) }
        if let colon = a.lastIndex(of: ":") { a = a[..<colon] }
        return a.lowercased()
    }

    public var description: String {
        var out = ""
        if let scheme { out += scheme + ":" }
        if let authority { out += "//" + authority }
        if authority == nil {
            // RFC 3986 section 4.2 and 5.3: a path that would read back as something else once
            // written (a first segment with a colon would become a scheme; "//x" an authority)
            // gets "./" or "/." in front, so that parsing the text gives this address again.
            if scheme == nil, let colon = path.utf8.firstIndex(of: UInt8(ascii: ":")),
               !path.utf8[..<colon].contains(UInt8(ascii: "/")) {
                out += "./"
            } else if path.utf8.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
                out += "/."
            }
        }
        out += path
        if let query { out += "?" + query }
        if let fragment { out += "#" + fragment }
        return out
    }

    /// RFC 3986 section 5.2: this reference resolved against `base`.
    public func resolved(against base: WebAddress) -> WebAddress {
        var t = WebAddress(scheme: nil, authority: nil, path: "", query: nil, fragment: fragment)
        if let scheme {
            t.scheme = scheme; t.authority = authority
            t.path = WebAddress.removeDotSegments(path); t.query = query
            return t
        }
        t.scheme = base.scheme
        if authority != nil {
            t.authority = authority; t.path = WebAddress.removeDotSegments(path); t.query = query
            return t
        }
        t.authority = base.authority
        if path.isEmpty {
            t.path = base.path
            t.query = query ?? base.query
        } else {
            if path.utf8.first == UInt8(ascii: "/") {
                t.path = WebAddress.removeDotSegments(path)
            } else {
                let merged: String
                if base.authority != nil && base.path.isEmpty {
                    merged = "/" + path
                } else if let slash = base.path.unicodeScalars.lastIndex(of: "/") {
                    merged = String(base.path.unicodeScalars[...slash]) + path
                } else {
                    merged = path
                }
                t.path = WebAddress.removeDotSegments(merged)
            }
            t.query = query
        }
        return t
    }

    /// Resolves `reference` against each base in turn (innermost last is applied first by the
    /// caller); returns the reference unchanged when nothing makes it absolute.
    public static func resolve(_ reference: String, against base: String?) -> String {
        let ref = WebAddress(parsing: reference)
        guard !ref.isAbsolute, let base, !base.isEmpty else { return ref.description }
        let b = WebAddress(parsing: base)
        guard b.isAbsolute else { return ref.resolved(against: b).description }
        return ref.resolved(against: b).description
    }

    /// The form used for identity and dedup: scheme and host lower-cased,
    /// default port dropped, empty path of http(s) made "/", fragment dropped.
    public var normalizedForIdentity: String {
        var n = self
        n.fragment = nil
        n.authority = n.authority.map { WebAddress.normalizedAuthority($0[...]) }
        if let auth = n.authority, let scheme = n.scheme {
            if (scheme == "http" && auth.hasSuffix(":80")) || (scheme == "https" && auth.hasSuffix(":443")) {
                n.authority = String(auth.dropLast(scheme == "http" ? 3 : 4))
            }
            if n.path.isEmpty && (scheme == "http" || scheme == "https") { n.path = "/" }
        }
        if n.query == "" { n.query = nil }
        return n.description
    }

    /// True for absolute http and https URLs with a host.
    public var isWebURL: Bool {
        (scheme == "http" || scheme == "https") && !(host ?? "").isEmpty
    }

    /// An absolute http(s) URL whose path ends in an image extension (jpg, jpeg, png, gif, webp,
    /// avif), case-insensitive, query and fragment ignored.
    public static func looksLikeImageURL(_ s: String) -> Bool {
        let a = WebAddress(parsing: s)
        guard a.isWebURL, let dot = a.path.lastIndex(of: ".") else { return false }
        let ext = a.path[a.path.index(after: dot)...].lowercased()
        return ["jpg", "jpeg", "png", "gif", "webp", "avif"].contains(ext)
    }

    // MARK: - helpers

    /// The ASCII bytes `Character.isWhitespace` is true for: tab, line feed, vertical tab, form
    /// feed, carriage return, space.
    @inline(__always) static func isASCIISpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    static func trimmed(_ s: String) -> Substring {
        // Printable ASCII at both ends: nothing to trim (white space never joins a character
        // ending in an ASCII letter or sign).
        if let f = s.utf8.first, let l = s.utf8.last, f > 0x20 && f < 0x7F, l > 0x20 && l < 0x7F { return Substring(s) }
        var sub = Substring(s)
        while let f = sub.first, f.isWhitespace || f == "\u{FEFF}" { sub = sub.dropFirst() }
        while let l = sub.last, l.isWhitespace { sub = sub.dropLast() }
        return sub
    }

    static func isScheme(_ s: ArraySlice<Unicode.Scalar>) -> Bool {
        func letter(_ c: Unicode.Scalar) -> Bool { (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") }
        guard let first = s.first, letter(first) else { return false }
        return s.allSatisfy { letter($0) || ($0 >= "0" && $0 <= "9") || $0 == "+" || $0 == "-" || $0 == "." }
    }

    static func normalizedAuthority(_ a: Substring) -> String {
        // Lower-case the host part only; user info keeps its case. ASCII (the usual) on bytes:
        // a backward search for a Character costs ~600 ns, ten times the rest.
        if a.utf8.allSatisfy({ $0 < 0x80 }) {
            guard let at = a.utf8.lastIndex(of: UInt8(ascii: "@")) else { return a.lowercased() }
            return String(a[...at]) + a[a.utf8.index(after: at)...].lowercased()
        }
        if let at = a.lastIndex(of: "@") {
            return String(a[...at]) + a[a.index(after: at)...].lowercased()
        }
        return a.lowercased()
    }

    /// RFC 3986 section 5.2.4.
    static func removeDotSegments(_ path: String) -> String {
        guard path.utf8.contains(UInt8(ascii: ".")) else { return path }
        // On scalars, like the split in init(parsing:): "/" followed by a combining mark is
        // still a delimiter.
        var output: [Substring.UnicodeScalarView] = []
        let absolute = path.utf8.first == UInt8(ascii: "/")
        var segments = Substring(path).unicodeScalars.split(separator: "/", omittingEmptySubsequences: false)
        if absolute { segments.removeFirst() }
        func isDot(_ s: Substring.UnicodeScalarView) -> Bool { s.count == 1 && s.first == "." }
        func isDotDot(_ s: Substring.UnicodeScalarView) -> Bool { s.count == 2 && s.allSatisfy { $0 == "." } }
        let trailing = segments.last.map { isDot($0) || isDotDot($0) } ?? false
        for seg in segments {
            if isDot(seg) { continue }
            if isDotDot(seg) { if !output.isEmpty { output.removeLast() }; continue }
            output.append(seg)
        }
        var result = absolute ? "/" : ""
        for (i, seg) in output.enumerated() {
            if i > 0 { result += "/" }
            result += String(Substring(seg))
        }
        if trailing && result.utf8.last != UInt8(ascii: "/") { result += "/" }
        return result
    }

    init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme; self.authority = authority; self.path = path
        self.query = query; self.fragment = fragment
    }
}

extension StringProtocol {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
