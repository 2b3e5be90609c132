import FeedModel
import Markup

/// A broken invariant: what was wrong, with the offending value.
public struct InvariantViolation: Error, CustomStringConvertible {
    public let description: String
}

/// The card contract, as checks that throw `InvariantViolation`. The fuzzer turns a throw into a
/// crash (libFuzzer then saves the input); the tests replay saved inputs and fail on a throw.
public enum Invariant {
    static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) throws {
        if !condition() { throw InvariantViolation(description: "invariant broken: " + message()) }
    }

    public static func card(_ card: Card) throws {
        if let link = card.link {
            let scheme = WebAddress(parsing: link).scheme
            try check(WebAddress(parsing: link).isWebURL || (scheme == "mailto"), "card link \(link.debugDescription)")
        }
        try optionalImage(card.image, "card image")
        for enclosure in card.enclosures {
            try check(WebAddress(parsing: enclosure.url).isWebURL, "enclosure \(enclosure.url.debugDescription)")
        }
        if let description = card.description {
            try safeHTML(description, "description")
            let again = HTMLSanitizer.sanitize(description, base: nil)
            try check(again == description, "description not stable under sanitizing:\n\(description)\n---\n\(again)")
        }
        for (name, text) in [("title", card.title), ("author", card.author), ("id", card.id)] {
            if let text { try check(!text.isEmpty && text == text.trimmingASCIIWhitespace, "\(name) \(text.debugDescription) not trimmed or empty") }
        }
        if let published = card.published { try date(published, "published") }
        if let updated = card.updated { try date(updated, "updated") }
    }

    static func optionalImage(_ image: String?, _ what: String) throws {
        if let image { try check(WebAddress(parsing: image).isWebURL, "\(what) \(image.debugDescription)") }
    }

    /// 1970-01-01 to 2100-12-31 (inclusive), UTC.
    static func date(_ date: Timestamp, _ what: String) throws {
        try check(date.secondsSince1970 >= 0 && date.secondsSince1970 < 4_133_980_800, "\(what) out of range: \(date)")
    }

    /// No element, attribute or URL that could run script, whatever the case or spacing.
    public static func safeHTML(_ html: String, _ what: String) throws {
        let folded = html.lowercased()
        try check(!folded.contains("<script"), "\(what) has <script: \(html)")
        for tag in tags(folded) {
            for (name, value) in attributes(tag) {
                try check(!name.hasPrefix("on"), "\(what) has the event attribute \(name): \(html)")
                guard urlAttributes.contains(name), let value else { continue }
                // What a browser does before it looks at the scheme: entities decoded, tabs and
                // newlines removed, leading control characters and spaces skipped.
                let url = HTMLEntities.decode(value).unicodeScalars
                    .filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
                    .drop { $0.value <= 0x20 }
                let text = String(String.UnicodeScalarView(url)).lowercased()
                for scheme in ["javascript:", "vbscript:", "data:text/html"] {
                    try check(!text.hasPrefix(scheme), "\(what) has \(scheme) in \(name): \(html)")
                }
            }
        }
    }

    /// Attributes whose value a browser loads or navigates to.
    static let urlAttributes: Set<String> = [
        "href", "src", "srcset", "action", "formaction", "poster", "background", "cite", "longdesc",
        "lowsrc", "dynsrc", "data", "xlink:href", "codebase", "usemap", "manifest", "ping",
    ]

    /// The text of each tag, from "<" to ">", following quoted attribute values (which may hold
    /// ">"). Serialized HTML: "<" in text is always written "&lt;".
    static func tags(_ html: String) -> [Substring] {
        var out: [Substring] = []
        var start: String.Index? = nil
        var quote: Character? = nil
        var i = html.startIndex
        while i < html.endIndex {
            let c = html[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if start == nil {
                if c == "<" { start = i }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == ">" {
                out.append(html[start!...i])
                start = nil
            }
            i = html.index(after: i)
        }
        if let start { out.append(html[start...]) }
        return out
    }

    /// The attributes of one tag as (name, value) pairs, as an HTML tokenizer reads them.
    static func attributes(_ tag: Substring) -> [(String, String?)] {
        let chars = Array(tag.unicodeScalars)
        var i = 1
        func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" }
        while i < chars.count, !isSpace(chars[i]), chars[i] != ">", chars[i] != "/" { i += 1 }  // tag name
        var out: [(String, String?)] = []
        while i < chars.count {
            while i < chars.count, isSpace(chars[i]) || chars[i] == "/" { i += 1 }
            guard i < chars.count, chars[i] != ">" else { break }
            var name = String.UnicodeScalarView()
            repeat { name.append(chars[i]); i += 1 }
            while i < chars.count && !isSpace(chars[i]) && chars[i] != "=" && chars[i] != ">" && chars[i] != "/"
            while i < chars.count, isSpace(chars[i]) { i += 1 }
            guard i < chars.count, chars[i] == "=" else { out.append((String(name), nil)); continue }
            i += 1
            while i < chars.count, isSpace(chars[i]) { i += 1 }
            var value = String.UnicodeScalarView()
            if i < chars.count, chars[i] == "\"" || chars[i] == "'" {
                let q = chars[i]; i += 1
                while i < chars.count, chars[i] != q { value.append(chars[i]); i += 1 }
                i += 1
            } else {
                while i < chars.count, !isSpace(chars[i]), chars[i] != ">" { value.append(chars[i]); i += 1 }
            }
            out.append((String(name), String(value)))
        }
        return out
    }
}

extension String {
    var trimmingASCIIWhitespace: String {
        let bytes = Array(utf8)
        var start = 0, end = bytes.count
        while start < end, [9, 10, 11, 12, 13, 32].contains(bytes[start]) { start += 1 }
        while end > start, [9, 10, 11, 12, 13, 32].contains(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
