/// What the published site may show of a source's address (issue 15): a URL without the
/// user info (`user:password@`) and without query or fragment parameters whose name looks like
/// a credential (`?token=`, `api_key`, `X-Amz-Signature`, ...), and nothing at all of a local
/// path. The one rule for every place the site names a source: sources.opml, the source pages,
/// the cards' source names and the error lines shown there.
public enum PublicAddress {
    /// The publishable form of `raw`, or nil when it is not an http(s) URL (a local path, a
    /// `file:` URL: nothing of it is published).
    public static func of(_ raw: String) -> String? {
        var address = WebAddress(parsing: raw)
        guard address.isWebURL, var authority = address.authority else { return nil }
        if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
        address.authority = authority
        address.query = address.query.flatMap(withoutCredentials)
        address.fragment = address.fragment.flatMap(withoutCredentials)
        return address.description
    }

    /// `name=value` pairs (split at `&` and `;`) without those `isCredentialName` flags; nil when
    /// none is left. A part without `=` is kept unless it is itself credential-like.
    static func withoutCredentials(_ parameters: String) -> String? {
        var kept: [Substring] = []
        for part in parameters.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "&" || $0 == ";" }) {
            let name = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? part
            if !isCredentialName(percentDecoded(name)) { kept.append(part) }
        }
        return kept.isEmpty ? nil : kept.joined(separator: "&")
    }

    /// Exact names of credentials in URLs (compared lower-cased, `-` read as `_`).
    static let credentialNames: Set<String> = [
        "token", "key", "apikey", "api_key", "access_token", "auth", "password", "passwd", "pass", "pwd", "secret",
        "sig", "signature", "session", "sessionid", "session_id", "sid", "jwt", "bearer", "credential", "credentials",
        "code", "ticket", "hash", "login", "private", "client_secret", "oauth_token", "oauth_signature", "authorization",
    ]

    /// Name parts that make any name a credential's (`auth_token`, `feedkey`, `x_amz_signature`).
    static let credentialParts = ["token", "secret", "passw", "apikey", "api_key", "signature", "credential", "auth_", "_auth",
                                  "session", "_key", "key_", "privatekey", "private_key"]

    public static func isCredentialName<S: StringProtocol>(_ name: S) -> Bool {
        let n = String(name).lowercased().replacingDashes()
        if credentialNames.contains(n) { return true }
        if n.hasSuffix("key") || n.hasSuffix("sig") || n.hasPrefix("x_amz_") || n.hasPrefix("x_goog_") { return true }
        return credentialParts.contains { n.contains($0) }
    }

    /// `%74oken` → `token` (invalid escapes kept as written), for names only.
    static func percentDecoded<S: StringProtocol>(_ s: S) -> String {
        let bytes = Array(s.utf8)
        var out: [UInt8] = []
        var i = 0
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x41 + 10
            case 0x61...0x66: return b - 0x61 + 10
            default: return nil
            }
        }
        while i < bytes.count {
            if bytes[i] == 0x25, i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(bytes[i] == 0x2B ? 0x20 : bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The name the site shows for a source: its own name, else its feed's title, else its
    /// public address, else (a local file) the file's name without its folders.
    public static func sourceName(name: String?, feedTitle: String?, url: String) -> String {
        if let name, !name.isEmpty { return name }
        if let feedTitle, !feedTitle.isEmpty { return feedTitle }
        return of(url) ?? fileName(url)
    }

    static func fileName(_ path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        return last.isEmpty ? "local file" : percentDecoded(last)
    }

    /// `text` (an error message, say) with every URL in it made public and every absolute path
    /// or `file:` URL replaced by its file name: a message may quote the address it failed on.
    public static func scrubbed(_ text: String) -> String {
        var out = ""
        var token = ""
        func flush() {
            guard !token.isEmpty else { return }
            // Punctuation around the address (quotes, a colon or comma after it) stays.
            let core = token.drop { "\"'(<[".contains($0) }
            var trimmed = core[...]
            while let last = trimmed.last, "\"')>].,:;".contains(last) { trimmed = trimmed.dropLast() }
            let lead = token[..<core.startIndex]
            let tail = token[trimmed.endIndex...]
            let lower = trimmed.lowercased()
            if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
                out += lead + (of(String(trimmed)) ?? "(address)") + tail
            } else if lower.hasPrefix("file:") || trimmed.hasPrefix("/") || trimmed.hasPrefix("~/") || trimmed.hasPrefix("../") {
                out += lead + fileName(String(trimmed)) + tail
            } else if trimmed.contains("@"), trimmed.contains(":") {
                // user:password@host without a scheme (curl's "could not connect to" lines do not
                // write one, but a person's message might).
                out += lead + String(trimmed[trimmed.index(after: trimmed.lastIndex(of: "@")!)...]) + tail
            } else {
                out += token
            }
            token = ""
        }
        for c in text {
            if c == " " || c == "\t" || c == "\n" {
                flush()
                out.append(c)
            } else {
                token.append(c)
            }
        }
        flush()
        return out
    }
}

private extension String {
    func replacingDashes() -> String { String(map { $0 == "-" || $0 == "." ? "_" : $0 }) }
}
