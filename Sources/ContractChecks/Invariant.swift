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
        // In text "javascript:" is harmless (an article about JavaScript); inside a tag it is a URL.
        for tag in tags(folded) {
            let bare = tag.filter { !$0.isWhitespace && $0 != "\0" }
            try check(!bare.contains("javascript:") && !bare.contains("vbscript:"), "\(what) has a script URL: \(html)")
        }
        try check(!hasEventAttribute(folded), "\(what) has an event attribute: \(html)")
    }

    /// The text of each tag, from "<" to ">" (serialized HTML: attribute values never hold ">"
    /// unescaped... except quoted ones, so quotes are followed).
    private static func tags(_ html: String) -> [Substring] {
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

    /// ` on…=` inside a tag: an event handler attribute.
    private static func hasEventAttribute(_ html: String) -> Bool {
        var inTag = false
        var quote: Character? = nil
        var previous: Character = " "
        var chars = Array(html)
        chars.append(" ")
        var i = 0
        while i < chars.count - 2 {
            let c = chars[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "<" {
                inTag = true
            } else if c == ">" {
                inTag = false
            } else if inTag, c == "\"" || c == "'" {
                quote = c
            } else if inTag, c == "o", chars[i + 1] == "n", previous.isWhitespace || previous == "/" {
                var j = i + 2
                while j < chars.count, chars[j].isLetter { j += 1 }
                while j < chars.count, chars[j].isWhitespace { j += 1 }
                if j > i + 2, j < chars.count, chars[j] == "=" { return true }
            }
            previous = c
            i += 1
        }
        return false
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
