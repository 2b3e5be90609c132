import CLibXML2
import FeedModel
import Markup

/// Where a captured element's text goes.
enum CaptureTarget {
    case title, link, id, guid, permalinkGuid, content, summary, published, updated, author
    case authorName, authorEmail, looseImage
    case feedTitle, feedLink, feedDescription, feedImage, ttl, updatePeriod, updateFrequency
}

/// The text of one element being read, children included: child elements are written back as
/// markup (inline XHTML, or HTML that a feed put unescaped into its description).
struct Capture {
    var target: CaptureTarget
    var depth: Int
    var kind: TextKind
    var base: String?
    var rank: Int
    var base64: Bool
    var buffer: [UInt8] = []
    var truncated = false

    mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        HTMLEscaping.append(bytes, to: &buffer, attribute: false)
    }

    var text: String { String(decoding: buffer, as: UTF8.self) }
}

/// Feed-level fields, ranked like an entry's.
struct FeedFields {
    var title = Ranked<TextValue>()
    var link = Ranked<String>()
    var description = Ranked<TextValue>()
    var image = Ranked<String>()
    var ttlMinutes: Int?
    var updatePeriod: String?
    var updateFrequency: Int?

    func info() -> FeedInfo {
        var info = FeedInfo()
        info.title = title.value?.plain
        info.link = CardURL.link(link.value)
        info.description = description.value?.html
        info.image = CardURL.image(image.value)
        info.refreshHintSeconds = refreshHint
        return info
    }

    /// The longest RSS ttl read, in minutes (ten years): a longer one is no hint (the scheduler
    /// waits a day at most anyway), and the range keeps `ttl * 60` far from overflowing.
    static let ttlRange: ClosedRange<Int64> = 0...(10 * 365 * 24 * 60)
    /// sy:updateFrequency: times per sy:updatePeriod, at least once.
    static let updateFrequencyRange: ClosedRange<Int64> = 1...1_000_000

    /// RSS ttl (minutes), else sy:updatePeriod / sy:updateFrequency.
    var refreshHint: Int? {
        if let ttl = ttlMinutes, ttl > 0 { return ttl.saturatingMultiply(60) }
        guard let period = updatePeriod?.lowercased() else { return nil }
        let seconds: Int
        switch period {
        case "hourly": seconds = 3600
        case "daily": seconds = 86_400
        case "weekly": seconds = 7 * 86_400
        case "monthly": seconds = 30 * 86_400
        case "yearly": seconds = 365 * 86_400
        default: return nil
        }
        let interval = seconds / max(1, updateFrequency ?? 1)
        return interval > 0 ? interval : nil  // more than once a second is no hint
    }
}

private let voidElements: Set<String> = ["br", "img", "hr", "input", "meta", "link", "area", "base", "col",
                                         "embed", "param", "source", "track", "wbr"]

extension XMLFeedBuilder {
    func beginCapture(_ target: CaptureTarget, kind: TextKind, base: String?, depth: Int, rank: Int, base64: Bool = false) {
        capture = Capture(target: target, depth: depth, kind: kind, base: base, rank: rank, base64: base64,
                          buffer: takeSpareBuffer())
    }

    /// A child element inside captured text: written back as markup, with href/src resolved
    /// against the base in force at that element (nested xml:base).
    func captureStart(_ local: UnsafePointer<xmlChar>, _ attrs: SAXAttributes, base: String?) {
        let name = String(cString: local)
        var s = "<" + name
        for i in 0..<attrs.count {
            let attrName = String(cString: attrs.localName(i))
            if attrs.prefix(i) != nil && attrName == "base" { continue }
            var value = attrs.value(i)
            if attrName == "href" || attrName == "src" { value = CardURL.resolve(value, against: base) }
            s += " " + attrName + "=\"" + HTMLEscaping.attribute(value) + "\""
        }
        s += ">"
        capture!.buffer.append(contentsOf: s.utf8)
        if capture!.kind == .text || capture!.kind == .guess { capture!.kind = .html }
    }

    static func isBlank(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    func captureEnd(_ local: UnsafePointer<xmlChar>) {
        let name = String(cString: local)
        if voidElements.contains(name) { return }
        capture!.buffer.append(contentsOf: "</\(name)>".utf8)
    }

    func finishCapture(_ c: inout Capture) {
        // Titles and bodies are only offered here; their String is made with the card.
        if !c.base64 {
            switch c.target {
            case .title, .content, .summary, .feedTitle, .feedDescription:
                let lazy = TextValue(utf8: c.buffer, kind: c.kind, base: c.base)
                switch c.target {
                case .title: if entryIsOpen { withEntry { $0.title.offer(lazy, rank: c.rank) } }
                case .content:
                    // An empty body (`<content:encoded/>`) must not hide the description.
                    if entryIsOpen, !Self.isBlank(c.buffer) { withEntry { $0.content.offer(lazy, rank: c.rank) } }
                case .summary: if entryIsOpen { withEntry { $0.summary.offer(lazy, rank: c.rank) } }
                case .feedTitle: feed.title.offer(lazy, rank: c.rank)
                default: feed.description.offer(lazy, rank: c.rank)
                }
                return
            case .published, .updated:
                // A date in ASCII (nearly all are) is read from the bytes, without a String: the
                // same as below, where `nonBlank` also trims vertical tab and form feed (left to it).
                guard c.buffer.count <= 1024, c.buffer.allSatisfy({ $0 < 0x80 && $0 != 0x0B && $0 != 0x0C }) else { break }
                let date = c.buffer.withUnsafeBufferPointer { FeedDate.parse(bytes: $0) }
                keepSpareBuffer(&c.buffer)
                guard entryIsOpen else { return }
                if c.target == .published {
                    withEntry { $0.published.offer(date, rank: c.rank, replacingEqual: true) }
                } else {
                    withEntry { $0.updated.offer(date, rank: c.rank, replacingEqual: true) }
                }
                return
            default: break
            }
        }
        var text = c.text
        keepSpareBuffer(&c.buffer)
        if c.base64, let decoded = Base64.decode(text) { text = String(decoding: decoded, as: UTF8.self) }
        let value = TextValue(text: text, kind: c.kind, base: c.base)
        let trimmed = FastText.nonBlank(text)
        if let isEntry = c.target.isEntryTarget, isEntry {
            guard entryIsOpen else { return }
            switch c.target {
            case .title: withEntry { $0.title.offer(value, rank: c.rank) }
            case .link: withEntry { $0.link.offer(value.url, rank: c.rank) }
            case .id: withEntry { $0.id.offer(trimmed, rank: c.rank) }
            case .guid: withEntry { $0.id.offer(trimmed, rank: c.rank) }
            case .permalinkGuid:
                withEntry {
                    $0.id.offer(trimmed, rank: c.rank)
                    if $0.permalinkGuid == nil { $0.permalinkGuid = trimmed }
                }
            case .content: if trimmed != nil { withEntry { $0.content.offer(value, rank: c.rank) } }
            case .summary: withEntry { $0.summary.offer(value, rank: c.rank) }
            case .published: withEntry { $0.published.offer(trimmed.flatMap(FeedDate.parse), rank: c.rank, replacingEqual: true) }
            case .updated: withEntry { $0.updated.offer(trimmed.flatMap(FeedDate.parse), rank: c.rank, replacingEqual: true) }
            case .author: withEntry { $0.offerAuthor(value.plain, rank: c.rank) }
            case .looseImage:
                let url = value.plain.map { CardURL.resolve($0, against: c.base) }
                withEntry { if $0.looseImage == nil { $0.looseImage = url } }
            default: break
            }
            return
        }
        switch c.target {
        case .authorName: setAuthorName(trimmed)
        case .authorEmail: setAuthorEmail(trimmed)
        case .feedTitle: feed.title.offer(value, rank: c.rank)
        case .feedLink: feed.link.offer(value.url, rank: c.rank)
        case .feedDescription: feed.description.offer(value, rank: c.rank)
        case .feedImage: feed.image.offer(value.url, rank: c.rank)
        case .ttl: feed.ttlMinutes = number(trimmed, FeedFields.ttlRange, "<ttl>", unit: "minutes")
        case .updatePeriod: feed.updatePeriod = trimmed
        case .updateFrequency:
            feed.updateFrequency = number(trimmed, FeedFields.updateFrequencyRange, "<sy:updateFrequency>", unit: "times per period")
        default: break
        }
    }
}

/// Warnings about one value the parser refused (a number out of range): the document itself is
/// fine, so a feed with no items and such a warning is an empty feed, not a malformed one.
public enum IgnoredValue {
    static let ending = "; ignored"

    static func warning(_ what: String) -> String { what + ending }

    /// True for a warning made by `warning(_:)`.
    public static func isIgnoredValue(_ warning: String) -> Bool { warning.hasSuffix(ending) }
}

extension XMLFeedBuilder {
    /// A feed-level number read with its range check; one out of range (or not a number) is no
    /// value, with a warning that says so.
    func number(_ text: String?, _ range: ClosedRange<Int64>, _ element: String, unit: String) -> Int? {
        guard let text else { return nil }
        if let n = OutsideNumber.int(text, in: range) { return n }
        // What was written, as printable ASCII only (it goes to a terminal), and not all of it.
        let shown = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F }.prefix(24)))
        warnings.append(IgnoredValue.warning("\(element) '\(shown)' is not a number of \(unit) from \(range.lowerBound) to \(range.upperBound)"))
        return nil
    }
}

extension CaptureTarget {
    /// true for item fields, false for feed fields, nil for author parts (routed separately).
    var isEntryTarget: Bool? {
        switch self {
        case .authorName, .authorEmail: return nil
        case .feedTitle, .feedLink, .feedDescription, .feedImage, .ttl, .updatePeriod, .updateFrequency: return false
        default: return true
        }
    }
}

/// RFC 4648 base64, lenient about white space and missing padding.
enum Base64 {
    static func decode(_ s: String) -> [UInt8]? {
        var out: [UInt8] = []
        var acc: UInt32 = 0
        var bits = 0
        for c in s.utf8 {
            let v: UInt32
            switch c {
            case 65...90: v = UInt32(c - 65)
            case 97...122: v = UInt32(c - 97 + 26)
            case 48...57: v = UInt32(c - 48 + 52)
            case 43, 45: v = 62
            case 47, 95: v = 63
            case 61, 32, 9, 10, 13: continue
            default: return nil
            }
            acc = acc << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((acc >> UInt32(bits)) & 0xFF))
            }
        }
        return out
    }
}
