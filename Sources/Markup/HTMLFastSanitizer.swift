import FeedModel

/// A pure-Swift sanitizer for the common, simple subset of feed HTML, producing exactly what the
/// libxml2 path of `HTMLSanitizer` produces for it, much faster.
///
/// It accepts only: text without control characters (other than tab and line feed) or C1
/// characters; the references `&amp;`, `&lt;`, `&gt;`, `&quot;`, numeric references to plain
/// characters, and a few HTML 4 names (`safeNames`); start tags of the elements in `fastElements`
/// with lower-case attribute names and quoted values (or none), with their end tags; a start tag
/// that libxml2 lets close open elements (`<a>` in an `a`, `<p>` in a `p`) closes them here too,
/// and an end tag of an element that is not open is dropped, as libxml2 does. On anything else
/// (an end tag that would close other open elements, elements left open) it gives up
/// (returns nil) and the caller uses libxml2. (libxml2 keeps white space between tags:
/// its `areBlanks` only decides about implied paragraphs, which the fragment wrapper never gets.)
enum FastSanitizer {
    /// Elements handled here: kept elements that libxml2 parses without special rules (no tables,
    /// no `pre`, no elements libxml2 2.9 does not know).
    static let fastElements: Set<String> = [
        "p", "br", "hr", "div", "span", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6",
        "ul", "ol", "li", "dl", "dt", "dd", "a", "em", "strong", "b", "i", "u", "s", "code", "kbd",
        "samp", "var", "small", "big", "sub", "sup", "abbr", "dfn", "q", "cite", "del", "ins", "img",
        "strike", "tt", "address", "pre",
    ]

    /// `ElementRule.table` for `fastElements`.
    static let fastRules: [String: ElementRule] = ElementRule.table.filter { fastElements.contains($0.key) }

    /// HTML 4 names whose character is the same in libxml2 and HTML5, with that character
    /// (written out rather than looked up: the full entity table costs more to load than the fast
    /// path saves on a small feed; a test checks them against `HTMLEntities`).
    static let safeCharacters: [String: String] = [
        "nbsp": "\u{A0}", "copy": "\u{A9}", "reg": "\u{AE}", "mdash": "\u{2014}", "ndash": "\u{2013}",
        "hellip": "\u{2026}", "rsquo": "\u{2019}", "lsquo": "\u{2018}", "rdquo": "\u{201D}",
        "ldquo": "\u{201C}", "laquo": "\u{AB}", "raquo": "\u{BB}", "middot": "\u{B7}", "bull": "\u{2022}",
        "trade": "\u{2122}", "euro": "\u{20AC}", "deg": "\u{B0}", "times": "\u{D7}", "eacute": "\u{E9}",
        "egrave": "\u{E8}", "aacute": "\u{E1}", "agrave": "\u{E0}", "uuml": "\u{FC}", "ouml": "\u{F6}",
        "auml": "\u{E4}", "szlig": "\u{DF}", "ccedil": "\u{E7}", "pound": "\u{A3}", "sect": "\u{A7}",
        "para": "\u{B6}",
    ]

    static let safeNames: [String: [UInt8]] = safeCharacters.mapValues { Array($0.utf8) }

    /// The sanitized HTML of `html` (already cut to the input limit), or nil to use libxml2.
    static func sanitize(_ html: String, base: String?) -> String? {
        var html = html
        var wroteImage = false
        return html.withUTF8 { run($0, base: base, wroteImage: &wroteImage) }.map { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: - tables (names are compared as bytes: no String per tag or attribute)

    /// The attributes the fast path knows by name: the allowed ones of `fastElements` (global
    /// ones included). Any other attribute is dropped.
    private enum Attr: UInt8 {
        case unknown, title, lang, dir, cite, start, reversed, type, value, href, hreflang, datetime, src, alt,
             width, height
        static let named: [String: Attr] = [
            "title": .title, "lang": .lang, "dir": .dir, "cite": .cite, "start": .start, "reversed": .reversed,
            "type": .type, "value": .value, "href": .href, "hreflang": .hreflang, "datetime": .datetime,
            "src": .src, "alt": .alt, "width": .width, "height": .height,
        ]
        var bit: UInt32 { 1 << UInt32(rawValue) }
        var isURL: Bool { self == .href || self == .src || self == .cite }
    }

    /// An element name of up to 16 bytes in two integers (`pack`): copying an `Element`, once
    /// per tag, then retains and releases nothing.
    private struct PackedName {
        let lo: UInt64
        let hi: UInt64
        let count: Int

        init(_ bytes: [UInt8]) {
            precondition(bytes.count <= 16, "FastSanitizer: element name longer than 16 bytes")
            lo = FastSanitizer.pack(Array(bytes.prefix(8)))
            hi = FastSanitizer.pack(Array(bytes.dropFirst(8)))
            count = bytes.count
        }

        @inline(__always)
        func matches(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
            guard end - start == count else { return false }
            if count <= 8 { return FastSanitizer.pack(p, start, end) == lo }
            return FastSanitizer.pack(p, start, start + 8) == lo && FastSanitizer.pack(p, start + 8, end) == hi
        }

        @inline(__always)
        func append(to out: inout ByteSink) {
            withUnsafeBytes(of: (lo, hi)) { out.append($0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count) }
        }
    }

    private struct Element {
        let name: PackedName
        let isVoid: Bool
        let isImg: Bool
        /// `Attr` bits allowed on it (`HTMLPolicy.isAllowed`).
        let allowed: UInt32
    }

    private struct Tables {
        let elements: [Element]
        /// Element index by packed name (names of up to 8 bytes).
        let elementByKey: PackedNameTable<Int>
        /// Names longer than 8 bytes ("blockquote"), looked up by comparison.
        let longElements: [Int]
        let attrByKey: PackedNameTable<Attr>
        /// closes[child * count + parent]: `HTMLStructure.closes(child, parent)`.
        let closes: [Bool]
        /// `safeNames` by packed name.
        let safeNameBytes: PackedNameTable<[UInt8]>

        init() {
            let names = FastSanitizer.fastElements.sorted()
            var elements: [Element] = []
            var byKey: [UInt64: Int] = [:]
            var long: [Int] = []
            for (i, name) in names.enumerated() {
                let rule = FastSanitizer.fastRules[name]!
                var allowed: UInt32 = 0
                for (attrName, attr) in Attr.named where HTMLPolicy.isAllowed(attribute: attrName, in: rule.attributes) {
                    allowed |= attr.bit
                }
                let bytes = Array(name.utf8)
                elements.append(Element(name: PackedName(bytes), isVoid: rule.isVoid, isImg: name == "img", allowed: allowed))
                if bytes.count <= 8 { byKey[FastSanitizer.pack(bytes)] = i } else { long.append(i) }
            }
            self.elements = elements
            elementByKey = PackedNameTable(byKey)
            longElements = long
            var attrs: [UInt64: Attr] = [:]
            for (name, attr) in Attr.named { attrs[FastSanitizer.pack(Array(name.utf8))] = attr }
            attrByKey = PackedNameTable(attrs)
            var closes = [Bool](repeating: false, count: names.count * names.count)
            for (c, child) in names.enumerated() {
                for (q, parent) in names.enumerated() { closes[c * names.count + q] = HTMLStructure.closes(child, parent) }
            }
            self.closes = closes
            var safe: [UInt64: [UInt8]] = [:]
            for (name, value) in FastSanitizer.safeNames { safe[FastSanitizer.pack(Array(name.utf8))] = value }
            safeNameBytes = PackedNameTable(safe)
        }
    }

    private static let tables = Tables()

    /// Up to 8 bytes as one integer (little-endian), the lookup key of a short name.
    static func pack(_ bytes: [UInt8]) -> UInt64 {
        var key: UInt64 = 0
        var shift: UInt64 = 0
        for b in bytes { key |= UInt64(b) << shift; shift += 8 }
        return key
    }

    @inline(__always)
    private static func pack(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        var key: UInt64 = 0
        var shift: UInt64 = 0
        var i = start
        while i < end { key |= UInt64(p[i]) << shift; shift += 8; i += 1 }
        return key
    }

    private static func elementIndex(_ t: Tables, _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        let count = end - start
        if count <= 8 { return t.elementByKey[pack(p, start, end)] }
        for e in t.longElements where t.elements[e].name.matches(p, start, end) { return e }
        return nil
    }

    @inline(__always)
    private static func equal(_ name: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard name.count == end - start else { return false }
        var k = 0
        while k < name.count { if name[k] != p[start + k] { return false }; k += 1 }
        return true
    }

    /// One attribute of the tag being read: its name in the input, its value (references
    /// decoded) in the `values` buffer, or none.
    private struct ReadAttribute {
        var nameStart: Int
        var nameEnd: Int
        var attr: Attr
        var valueStart: Int
        var valueEnd: Int
        var hasValue: Bool
    }

    /// The sanitized HTML of UTF-8 bytes as UTF-8 bytes (well-formed when the input is), or nil
    /// to use libxml2.
    /// `wroteImage`: set when an `img` element is kept.
    static func run(_ p: UnsafeBufferPointer<UInt8>, base: String?, wroteImage: inout Bool) -> [UInt8]? {
        let t = tables
        let elementCount = t.elements.count
        let n = p.count
        var out = ByteSink(capacity: n + n / 8 + 64)
        // Indexes of the open elements below `top`; -1 is the fragment wrapper.
        var stack: [Int] = []
        var top = -1
        var parsedBase = ParsedBase(base)
        // Byte sinks, not arrays: emptied once per tag, appended to a few bytes at a time.
        var scratch = ByteSink(capacity: 16)
        var values = ByteSink(capacity: 256)
        var attributes: [ReadAttribute] = []
        attributes.reserveCapacity(8)
        stack.reserveCapacity(16)
        var i = 0
        while i < n {
            let b = p[i]
            if b != UInt8(ascii: "<") && b != UInt8(ascii: "&") {
                // A run of text up to the next tag or reference, copied as it is but for `>`
                // (the only byte left that `HTMLEscaping` would change: `<` and `&` end the
                // run, and the bytes it drops or rewrites make this path give up).
                guard let next = copyText(p, from: i, into: &out) else { return nil }
                i = next
                continue
            }
            if b == UInt8(ascii: "&") {
                scratch.removeAll()
                guard let next = reference(p, i, inAttribute: false, into: &scratch) else { return nil }
                scratch.withUnsafeBufferPointer { HTMLEscaping.append($0, to: &out, attribute: false) }
                i = next
                continue
            }
            // A tag.
            i += 1
            guard i < n else { return nil }
            if p[i] == UInt8(ascii: "/") {
                i += 1
                let nameStart = i
                while i < n && isNameByte(p[i]) { i += 1 }
                guard i < n, p[i] == UInt8(ascii: ">"), i > nameStart else { return nil }
                i += 1
                guard top >= 0, t.elements[top].name.matches(p, nameStart, i - 1) else {
                    // An end tag of an element that is not open at all is dropped by libxml2
                    // (`htmlParseEndTag`), as after `<a>1<a>2</a></a>`; one open further up
                    // would close what is between, which is left to libxml2.
                    guard let e = elementIndex(t, p, nameStart, i - 1), !t.elements[e].isVoid,
                          e != top, !stack.contains(e) else { return nil }
                    continue
                }
                guard let parent = stack.popLast() else { return nil }
                out.append(UInt8(ascii: "<"))
                out.append(UInt8(ascii: "/"))
                t.elements[top].name.append(to: &out)
                out.append(UInt8(ascii: ">"))
                top = parent
                continue
            }
            let nameStart = i
            while i < n && isNameByte(p[i]) { i += 1 }
            guard i > nameStart, i < n else { return nil }
            guard let e = elementIndex(t, p, nameStart, i) else { return nil }
            // What this start tag closes (`htmlAutoClose`: `<a>` an open `a`, `<p>` a `p`, ...)
            // ends here, as in the tree libxml2 builds.
            while top >= 0 && t.closes[e * elementCount + top] {
                out.append(UInt8(ascii: "<"))
                out.append(UInt8(ascii: "/"))
                t.elements[top].name.append(to: &out)
                out.append(UInt8(ascii: ">"))
                top = stack.popLast()!
            }
            let element = t.elements[e]
            // Attributes.
            if !attributes.isEmpty { attributes.removeAll(keepingCapacity: true) }   // a call each time otherwise
            values.removeAll()
            var selfClosing = false
            while true {
                guard i < n else { return nil }
                let c = p[i]
                if c == UInt8(ascii: ">") { i += 1; break }
                if c == UInt8(ascii: "/") {
                    guard i + 1 < n, p[i + 1] == UInt8(ascii: ">") else { return nil }
                    selfClosing = true
                    i += 2
                    break
                }
                // At least one space before each attribute.
                guard c == 0x20 || c == 0x0A || c == 0x09 else { return nil }
                while i < n && (p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x09) { i += 1 }
                guard i < n else { return nil }
                if p[i] == UInt8(ascii: ">") || p[i] == UInt8(ascii: "/") { continue }
                let attrStart = i
                while i < n && isNameByte(p[i]) { i += 1 }
                guard i > attrStart, i < n else { return nil }
                let attrEnd = i
                for a in attributes where equal(UnsafeBufferPointer(rebasing: p[a.nameStart..<a.nameEnd]), p, attrStart, attrEnd) {
                    return nil
                }
                guard attributes.count < 32 else { return nil }
                let attr = attrEnd - attrStart <= 8 ? (t.attrByKey[pack(p, attrStart, attrEnd)] ?? .unknown) : .unknown
                if p[i] != UInt8(ascii: "=") {
                    attributes.append(ReadAttribute(nameStart: attrStart, nameEnd: attrEnd, attr: attr, valueStart: 0, valueEnd: 0, hasValue: false))
                    continue
                }
                i += 1
                guard i < n, p[i] == UInt8(ascii: "\"") || p[i] == UInt8(ascii: "'") else { return nil }
                let quote = p[i]
                i += 1
                let valueStart = values.count
                guard let end = readValue(p, from: i, quote: quote, into: &values) else { return nil }
                i = end
                attributes.append(ReadAttribute(nameStart: attrStart, nameEnd: attrEnd, attr: attr, valueStart: valueStart,
                                                valueEnd: values.count, hasValue: true))
            }
            if selfClosing && !element.isVoid { return nil }
            if !element.isVoid {
                guard stack.count < 100 else { return nil }
            }
            // The element as the libxml2 path writes it.
            if writeStartTag(element, attributes, p, values, &parsedBase, into: &out) {
                if element.isImg { wroteImage = true }
            } else if !element.isVoid {
                // A dropped element with content (only `img` and `source` can go, both void).
                return nil
            }
            if !element.isVoid {
                stack.append(top)
                top = e
            }
        }
        guard stack.isEmpty else { return nil }
        return out.array
    }

    /// Copies the text at `p[start]` up to the next `<` or `&` (or the end) to `out` as
    /// `HTMLEscaping.append(_:to:attribute: false)` would write it, and returns where it stopped;
    /// nil for text this path leaves to libxml2 (controls other than tab and line feed, C1
    /// characters, U+F000...U+FFFF).
    @inline(__always)
    private static func copyText(_ p: UnsafeBufferPointer<UInt8>, from start: Int, into out: inout ByteSink) -> Int? {
        let n = p.count
        guard let base = p.baseAddress else { return start }
        var runStart = start
        var i = start
        let spaces = SIMD16<UInt8>(repeating: 0x20), lts = SIMD16<UInt8>(repeating: 0x3C)
        let gts = SIMD16<UInt8>(repeating: 0x3E), amps = SIMD16<UInt8>(repeating: 0x26)
        let dels = SIMD16<UInt8>(repeating: 0x7F), c2s = SIMD16<UInt8>(repeating: 0xC2), efs = SIMD16<UInt8>(repeating: 0xEF)
        while i < n {
            if i + 16 <= n {
                // Sixteen bytes at a time to the next byte looked at below: a control, `<`, `>`,
                // `&`, DEL, or the two lead bytes this path cares about (other non-ASCII goes by).
                let v = ByteScan.vector(base, i)
                let hit = (v .< spaces) .| (v .== lts) .| (v .== gts) .| (v .== amps) .| (v .== dels) .| (v .== c2s) .| (v .== efs)
                if !any(hit) { i += 16; continue }
                i += ByteScan.firstTrue(hit)
            } else if i + 8 <= n {
                // The same, eight bytes at a time (`<` and `>` in one test: they differ only in bit 1).
                let w = ByteScan.word(base, i)
                let m = ByteScan.lessMask(w, 0x20) | ByteScan.equalMask(w | 0x0202_0202_0202_0202, 0x3E)
                    | ByteScan.equalMask(w, 0x26) | ByteScan.equalMask(w, 0x7F) | (w & 0x8080_8080_8080_8080)
                if m == 0 { i += 8; continue }
                i += ByteScan.firstFlagged(m)
            }
            let c = p[i]
            if c == UInt8(ascii: "<") || c == UInt8(ascii: "&") { break }
            if c >= 0x80 {
                // A lead byte and its continuation bytes (never one of the bytes looked at); of
                // the leads, U+0080...U+009F (C2 80...C2 9F) and U+F000...U+FFFF (EF) go to libxml2.
                if c == 0xC2 { guard i + 1 < n, p[i + 1] >= 0xA0 else { return nil } }
                if c == 0xEF { return nil }
                i += 1
                while i < n && p[i] & 0xC0 == 0x80 { i += 1 }
                continue
            }
            if c < 0x20 {
                guard c == 0x09 || c == 0x0A else { return nil }
            } else if c == 0x7F {
                return nil
            } else if c == UInt8(ascii: ">") {
                out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
                out.append(contentsOf: UnsafeBufferPointer(start: escapedGreater.utf8Start, count: 4))
                runStart = i + 1
            }
            i += 1
        }
        out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
        return i
    }

    private static let escapedGreater: StaticString = "&gt;"

    /// Appends the attribute value at `p[start]` (after its opening `quote`) to `values`, its
    /// references decoded, and returns the index after the closing quote; nil for what this
    /// path leaves to libxml2 (controls, C1 characters, U+F000...U+FFFF, `<`, `>`, references
    /// other than the simple ones, no closing quote).
    @inline(__always)
    private static func readValue(_ p: UnsafeBufferPointer<UInt8>, from start: Int, quote: UInt8, into values: inout ByteSink) -> Int? {
        let n = p.count
        guard let base = p.baseAddress else { return nil }
        var runStart = start
        var i = start
        while true {
            if i + 8 <= n {
                // Eight bytes at a time to the next byte looked at below.
                let w = ByteScan.word(base, i)
                let m = ByteScan.lessMask(w, 0x20) | ByteScan.equalMask(w, quote) | ByteScan.equalMask(w, 0x26)
                    | ByteScan.equalMask(w, 0x3C) | ByteScan.equalMask(w, 0x3E) | ByteScan.equalMask(w, 0x7F)
                    | ByteScan.equalMask(w, 0xC2) | ByteScan.equalMask(w, 0xEF)
                if m == 0 { i += 8; continue }
                i += ByteScan.firstFlagged(m)
            }
            guard i < n else { return nil }
            let c = p[i]
            if c == quote {
                values.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
                return i + 1
            }
            if c < 0x20 || c == 0x7F || c == 0xEF || c == UInt8(ascii: "<") || c == UInt8(ascii: ">") { return nil }
            if c == 0xC2 { guard i + 1 < n, p[i + 1] >= 0xA0 else { return nil } }
            if c == UInt8(ascii: "&") {
                values.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
                guard let next = reference(p, i, inAttribute: true, into: &values) else { return nil }
                i = next
                runStart = i
                continue
            }
            i += 1
        }
    }

    /// Writes the start tag with the attributes the libxml2 path keeps (see
    /// `SanitizingWriter.keepAttributes`); false (nothing written) when the element goes.
    private static func writeStartTag(_ element: Element, _ attributes: [ReadAttribute], _ p: UnsafeBufferPointer<UInt8>,
                                      _ values: borrowing ByteSink, _ base: inout ParsedBase, into out: inout ByteSink) -> Bool {
        let mark = out.count
        out.append(UInt8(ascii: "<"))
        element.name.append(to: &out)
        var width: String?, height: String?, src: String?
        // The kept `src` when it is the value as written (`srcRange` in `values`).
        var srcRange: Range<Int>?
        var hasSrc = false, hasAlt = false
        for a in attributes {
            if a.attr == .src { hasSrc = true }
            guard a.attr != .unknown, element.allowed & a.attr.bit != 0 else { continue }
            if a.attr.isURL || a.attr == .width || a.attr == .height {
                guard a.hasValue else { continue }
                // The usual URL, absolute http(s) in printable ASCII, is kept as written: no String.
                if a.attr.isURL, values.withUnsafeBufferPointer({
                    HTMLPolicy.isPlainAbsoluteWebURL(UnsafeBufferPointer(rebasing: $0[a.valueStart..<a.valueEnd]))
                }) {
                    if a.attr == .src { src = nil; srcRange = a.valueStart..<a.valueEnd }
                    values.withUnsafeBufferPointer { appendAttribute(a, p, UnsafeBufferPointer(rebasing: $0[a.valueStart..<a.valueEnd]), to: &out) }
                    continue
                }
                let value = values.withUnsafeBufferPointer {
                    String(decoding: UnsafeBufferPointer(rebasing: $0[a.valueStart..<a.valueEnd]), as: UTF8.self)
                }
                var kept: String
                if a.attr.isURL {
                    guard let url = HTMLPolicy.safeURL(value, allowDataImage: element.isImg && a.attr == .src, resolve: { base.resolve($0) })
                    else { continue }
                    if a.attr == .src { src = url; srcRange = nil }
                    kept = url
                } else {
                    guard let number = SanitizingWriter.dimension(value) else { continue }
                    if a.attr == .width { width = number } else { height = number }
                    kept = number
                }
                kept.withUTF8 { appendAttribute(a, p, $0, to: &out) }
            } else {
                if a.attr == .alt { hasAlt = true }
                if a.hasValue {
                    values.withUnsafeBufferPointer { appendAttribute(a, p, UnsafeBufferPointer(rebasing: $0[a.valueStart..<a.valueEnd]), to: &out) }
                } else {
                    appendName(a, p, to: &out)
                }
            }
        }
        if element.isImg {
            let drop: Bool
            if let src { drop = HTMLPolicy.isTrackingPixel(src: src, width: width, height: height) }
            else if let srcRange {
                drop = values.withUnsafeBufferPointer {
                    HTMLPolicy.isTrackingPixel(src: UnsafeBufferPointer(rebasing: $0[srcRange]), width: width, height: height)
                }
            } else { drop = hasSrc || !hasAlt }
            if drop {
                out.removeSubrange(mark...)
                return false
            }
        }
        out.append(UInt8(ascii: ">"))
        return true
    }

    /// ` name="value"`, the value escaped for a double-quoted attribute.
    @inline(__always)
    private static func appendAttribute(_ a: ReadAttribute, _ p: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>,
                                        to out: inout ByteSink) {
        appendName(a, p, to: &out)
        out.append(UInt8(ascii: "="))
        out.append(UInt8(ascii: "\""))
        HTMLEscaping.append(value, to: &out, attribute: true)
        out.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func appendName(_ a: ReadAttribute, _ p: UnsafeBufferPointer<UInt8>, to out: inout ByteSink) {
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: UnsafeBufferPointer(rebasing: p[a.nameStart..<a.nameEnd]))
    }

    @inline(__always) static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == UInt8(ascii: "-")
    }

    /// Appends the characters of the reference at `p[i] == "&"` to `out` and returns the index
    /// after it, when it is one of the simple kinds this path handles; nil otherwise.
    static func reference(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, inAttribute: Bool, into out: inout ByteSink) -> Int? {
        let n = p.count
        var i = start + 1
        guard i < n else { return nil }
        if p[i] == UInt8(ascii: "#") {
            i += 1
            var hex = false
            if i < n && (p[i] == UInt8(ascii: "x") || p[i] == UInt8(ascii: "X")) { hex = true; i += 1 }
            var value: UInt32 = 0
            var digits = 0
            while i < n, digits < 7 {
                let c = p[i]
                if c >= 48 && c <= 57 { value = value * (hex ? 16 : 10) + UInt32(c - 48) }
                else if hex && (c | 0x20) >= 97 && (c | 0x20) <= 102 { value = value * 16 + UInt32((c | 0x20) - 87) }
                else { break }
                digits += 1
                i += 1
            }
            guard digits > 0, i < n, p[i] == UInt8(ascii: ";") else { return nil }
            guard (value >= 0x20 && value < 0x7F) || (value >= 0xA0 && value < 0xD800) || (value >= 0xE000 && value < 0xF000)
                    || (value >= 0x10000 && value <= 0x10FFFF), let scalar = Unicode.Scalar(value) else { return nil }
            for byte in UTF8.encode(scalar)! { out.append(byte) }
            return i + 1
        }
        let nameStart = i
        while i < n && i - nameStart < 10 && ((p[i] | 0x20) >= 97 && (p[i] | 0x20) <= 122) { i += 1 }
        guard i < n, p[i] == UInt8(ascii: ";"), i > nameStart, i - nameStart <= 8 else { return nil }
        let key = pack(p, nameStart, i)
        switch key {
        case ampKey: out.append(UInt8(ascii: "&"))
        case ltKey where !inAttribute: out.append(UInt8(ascii: "<"))
        case gtKey where !inAttribute: out.append(UInt8(ascii: ">"))
        case quotKey where !inAttribute: out.append(UInt8(ascii: "\""))
        default:
            guard !inAttribute, let v = tables.safeNameBytes[key] else { return nil }
            out.append(contentsOf: v)
        }
        return i + 1
    }

    private static let ampKey: UInt64 = 0x70_6D_61        // "amp"
    private static let ltKey: UInt64 = 0x74_6C            // "lt"
    private static let gtKey: UInt64 = 0x74_67            // "gt"
    private static let quotKey: UInt64 = 0x74_6F_75_71    // "quot"
}

/// A lookup table from names packed into a UInt64 (`FastSanitizer.pack`, never 0) to values:
/// open addressing with a multiplicative hash, a few instructions per lookup where a Dictionary
/// would hash with SipHash (it runs for every tag, attribute and named reference).
struct PackedNameTable<Value: Sendable>: Sendable {
    private let keys: [UInt64]
    private let values: [Value?]
    private let shift: UInt64

    init(_ dictionary: [UInt64: Value]) {
        var bits: UInt64 = 4
        while (1 << bits) < dictionary.count * 4 { bits += 1 }
        shift = 64 - bits
        var keys = [UInt64](repeating: 0, count: 1 << Int(bits))
        var values = [Value?](repeating: nil, count: keys.count)
        for (key, value) in dictionary {
            precondition(key != 0, "PackedNameTable: 0 is the empty slot")
            var slot = Int((key &* PackedNameTable.multiplier) >> (64 - bits))
            while keys[slot] != 0 { slot = (slot + 1) & (keys.count - 1) }
            keys[slot] = key
            values[slot] = value
        }
        self.keys = keys
        self.values = values
    }

    private static var multiplier: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    @inline(__always)
    subscript(key: UInt64) -> Value? {
        let mask = keys.count - 1
        var slot = Int((key &* PackedNameTable.multiplier) >> shift)
        while true {
            let k = keys[slot]
            if k == key { return values[slot] }
            if k == 0 { return nil }
            slot = (slot + 1) & mask
        }
    }
}
