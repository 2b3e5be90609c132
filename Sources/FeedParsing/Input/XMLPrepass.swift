import FeedModel
import Markup

/// How the prepass hands text to libxml2 (`FeedStreamParser` takes `.sideChannel`; the XML
/// read whole as a tree, as OpenSearch description documents are, takes `.cdata`).
enum TextHandOver: Sendable {
    /// References rewritten as numeric ones, in text (libxml2 parses each).
    case plain
    /// Text with references as one CDATA section (see `XMLPrepass`).
    case cdata
    /// Text with references and CDATA sections around libxml2 (`SideText`): libxml2 sees a
    /// processing instruction in their place.
    case sideChannel
}

/// Rewrites a UTF-8 XML stream so that libxml2 sees only what it handles well, chunk by chunk:
///
/// - every named entity reference becomes a numeric one (`&eacute;` -> `&#233;`, `&amp;` ->
///   `&#38;`): HTML entities are undefined in XML, and after the first well-formedness error
///   libxml2 silently drops even `&amp;`, while numeric references always survive;
/// - a `&` that starts no reference, or an unknown entity, becomes `&#38;` (the text is kept);
/// - numeric references to windows-1252 code points 128-159 become the characters meant, and
///   references to characters XML forbids are dropped;
/// - control characters XML forbids are dropped;
/// - anything before the first `<` (white space, a stray BOM) is dropped;
/// - the DOCTYPE is removed. Its internal entity declarations are expanded here, as text, within
///   a budget (a billion-laughs document costs at most `expansionBudget` bytes); external
///   entities expand to nothing, so no file or URL is ever read.
///
/// Comments and processing instructions pass through untouched, and so do CDATA sections
/// (except with the side channel, below).
///
/// Text that holds references (escaped HTML: `&lt;p&gt;Hi &amp; bye&lt;/p&gt;`) is rewritten as a
/// CDATA section from its first reference to the next markup (`<![CDATA[<p>Hi & bye</p>]]>`),
/// the predefined and numeric references decoded: the same characters for the parser, which
/// hands a CDATA section over in one piece, where each reference in text costs it a parse and
/// a callback of its own (a description with a hundred tags was eight hundred callbacks). It
/// needs to know text from tags: a tag runs from `<` to the first `>` outside quotes. Other
/// references (HTML names, declared entities) end the section and are rewritten as above; a
/// `]]>` in the text is split across two sections; line ends become `\n`, as the parser does
/// in text. With `TextHandOver.sideChannel` (what `FeedStreamParser` uses) those sections and
/// the document's own CDATA sections do not reach libxml2 at all: they go to `side` and a
/// processing instruction stands in their place (`SideText`), so libxml2 reads markup only.
final class XMLPrepass {
    static let expansionBudget = 1 << 20
    static let maxEntityDepth = 8

    private enum State { case beforeRoot, content, tag, textCDATA, comment, cdata, pi, doctype }
    private var state = State.beforeRoot
    private var carry: [UInt8] = []
    /// In `.tag`: the quote of the attribute value being read, or 0.
    private var tagQuote: UInt8 = 0
    /// How text reaches libxml2 (see `TextHandOver`).
    private let handOver: TextHandOver
    /// With `.sideChannel`: where the texts go, and where the open one (a CDATA section written
    /// into `out` as in `.cdata`, moved out when it ends or the chunk does) starts in `out`:
    /// its `<![CDATA[` (when written in this chunk) and its first byte.
    let side: SideText?
    private var sideOpenAt = 0
    private var sideContentStart = 0

    init(handOver: TextHandOver = .cdata) {
        self.handOver = handOver
        side = handOver == .sideChannel ? SideText() : nil
    }

    // DOCTYPE tracking.
    private var doctype: [UInt8] = []
    private var doctypeQuote: UInt8 = 0
    private var doctypeDepth = 0
    private var doctypeInComment = false
    private var declared: [String: [UInt8]] = [:]   // internal entities: name -> replacement text
    private var external: Set<String> = []
    private var expansionUsed = 0
    /// Complete expansions of declared entities, reused as they are: the expansion of a
    /// reference then costs a copy, not a walk of its tree (a billion-laughs document walked
    /// ~300,000 references to reach the budget). `cost` is what the expansion added to
    /// `expansionUsed`, `height` how many levels of references it went down.
    private struct Expansion { let bytes: [UInt8]; let cost: Int; let height: Int }
    private var expansions: [String: Expansion] = [:]
    /// The deepest `expand` level reached (for `Expansion.height`).
    private var deepestExpansion = 0
    private(set) var warnings: [String] = []

    // Repairs of broken markup (see `OpenElements` and `Repairs`).
    /// Behind a pointer: a stored property of a class changed on every tag would be checked for
    /// exclusive access at run time each time (as in `XMLFeedBuilder`).
    private let openSlot: UnsafeMutablePointer<OpenElements> = {
        let p = UnsafeMutablePointer<OpenElements>.allocate(capacity: 1)
        p.initialize(to: OpenElements())
        return p
    }()
    /// The items (`item`/`entry` elements) in the document, and the ones repaired inside.
    var itemsSeen: Int { openSlot.pointee.itemsSeen }
    var damagedItems: Int { openSlot.pointee.damagedItems }

    deinit {
        openSlot.pointee.free()
        openSlot.deinitialize(count: 1)
        openSlot.deallocate()
        lineFeeds.deallocate()
    }
    /// In `.tag`: whether the tag is a start tag whose name `open` took, and the last byte written
    /// (a `/` before the `>` makes it an empty element).
    private var tagOpened = false
    private var tagPrev: UInt8 = 0
    private(set) var repairs = Repairs()
    /// The line feeds read so far, counted where each is looked at anyway (every loop stops at
    /// bytes below 0x20): a count of its own would read every byte once more. Behind a pointer
    /// for the static scanners.
    private let lineFeeds: UnsafeMutablePointer<Int> = {
        let p = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        p.initialize(to: 0)
        return p
    }()

    /// `process` into an array (callers that read a whole document once). What `out` holds
    /// already is part of the output as with a `ByteSink` (a `>` after `]]` looks back at it).
    func process(_ input: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) {
        var sink = ByteSink(capacity: out.count + input.count + input.count / 8 + 64)
        sink.append(contentsOf: out)
        process(input, final: final, into: &sink)
        out = sink.array
    }

    func process(_ input: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout ByteSink) {
        if carry.isEmpty {
            run(input, final: final, into: &out)
            return
        }
        // The carried bytes (a tag or reference cut by the chunk's end) are joined with the
        // start of the input only, not all of it: a copy of a whole 64 KiB chunk per tag that
        // straddles two chunks would cost more than the tag.
        let head = min(input.count, max(4096, carry.count))
        var joined = carry
        joined.append(contentsOf: UnsafeBufferPointer(rebasing: input[..<head]))
        carry.removeAll(keepingCapacity: true)
        joined.withUnsafeBufferPointer { run($0, final: final && head == input.count, into: &out) }
        if head < input.count { process(UnsafeBufferPointer(rebasing: input[head...]), final: final, into: &out) }
    }

    private func run(_ b: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout ByteSink) {
        var i = 0
        let n = b.count
        out.reserveCapacity(out.count + n + 64)
        if side != nil {
            if state == .textCDATA || state == .cdata { sideOpenAt = out.count; sideContentStart = out.count }
        }
        defer {
            // A text never spans chunks: what is open goes now (the builder joins the pieces).
            if side != nil, state == .textCDATA || state == .cdata { moveTextAside(&out) }
        }
        while i < n {
            switch state {
            case .beforeRoot:
                while i < n, b[i] != UInt8(ascii: "<") {
                    if b[i] == 0x0A { lineFeeds.pointee += 1 }
                    i += 1
                }
                if i < n { state = .content }
            case .content:
                let j = Self.runEnd(b, from: i, stops: Self.contentStops, stopsAtGreaterThan: false, lineFeeds: lineFeeds)
                if j > i {
                    // Before the root, text is no part of the document (libxml2 would stop there).
                    if openSlot.pointee.rootSeen { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<j])) }
                    i = j
                }
                if i >= n { break }
                let c = b[i]
                if c == UInt8(ascii: "<") {
                    // The usual tag, `<name>` or `</name>` without quotes, references or white
                    // space, is copied here and the content goes on: what `.tag` would write.
                    if openSlot.pointee.rootSeen, let end = Self.simpleTagEnd(b, at: i) {
                        if b[i + 1] == UInt8(ascii: "/") {
                            writeEndTag(b, at: i, nameFrom: i + 2, nameTo: end, into: &out)
                        } else {
                            if b[end - 1] != UInt8(ascii: "/") { openSlot.pointee.open(b, from: i + 1, to: end) }
                            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i...end]))
                        }
                        i = end + 1
                        continue
                    }
                    guard let used = markupStart(b, i, final: final, into: &out) else { carry(b, from: i); return }
                    i += used
                } else if !openSlot.pointee.rootSeen {
                    i += 1   // a reference or control before the root: dropped with the text
                } else {
                    if c == UInt8(ascii: "&") && handOver != .plain {
                        switch Self.inlineReference(b, i, final: final) {
                        case .needMore: carry(b, from: i); return
                        case .decoded(let scalar, let length):
                            sideOpenAt = out.count
                            out.append(contentsOf: Self.cdataOpen)
                            sideContentStart = out.count
                            appendUTF8(scalar, to: &out)
                            state = .textCDATA
                            i += length
                            continue
                        case .other: break
                        }
                    }
                    guard let used = referenceOrControl(b, i, final: final, into: &out) else { carry(b, from: i); return }
                    i += used
                }
            case .tag:
                // To the `>` that ends the tag, outside quotes; references in attribute values
                // are rewritten as in text, never turned into CDATA.
                var j = i
                var ended = false
                var lessThanInValue = false
                while j < n {
                    // Eight bytes at a time to the next byte to look at: outside quotes `&`, a
                    // quote, `<` or `>`; inside, `&` or the closing quote; a control anywhere.
                    if j + 8 <= n, let base = b.baseAddress {
                        let w = ByteScan.word(base, j)
                        var m = ByteScan.lessMask(w, 0x20) | ByteScan.equalMask(w, 0x26)
                        if tagQuote != 0 {
                            m |= ByteScan.equalMask(w, tagQuote) | ByteScan.equalMask(w, 0x3C)
                        } else {
                            m |= ByteScan.equalMask(w, 0x22) | ByteScan.equalMask(w, 0x27) | ByteScan.equalMask(w, 0x3C)
                                | ByteScan.equalMask(w, 0x3E)
                        }
                        if m == 0 { j += 8; continue }
                        j += ByteScan.firstFlagged(m)
                    }
                    let c = b[j]
                    if c == UInt8(ascii: "&") || (c < 0x20 && c != 0x09 && c != 0x0A && c != 0x0D) { break }
                    if c == 0x0A { lineFeeds.pointee += 1 }
                    if tagQuote != 0 {
                        if c == tagQuote { tagQuote = 0 } else if c == UInt8(ascii: "<") { lessThanInValue = true; break }
                    } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                        tagQuote = c
                    } else if c == UInt8(ascii: ">") {
                        j += 1
                        ended = true
                        break
                    } else if c == UInt8(ascii: "<") {
                        ended = true   // an unclosed tag: the `<` starts the next markup
                        break
                    }
                    j += 1
                }
                if j > i {
                    if ended && tagOpened && b[j - 1] == UInt8(ascii: ">") && (j - 2 >= i ? b[j - 2] : tagPrev) == UInt8(ascii: "/") {
                        openSlot.pointee.cancelOpen()   // `<name .../>`: an empty element
                    }
                    tagPrev = b[j - 1]
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<j])); i = j
                }
                if ended { state = .content; tagQuote = 0; tagOpened = false; continue }
                if lessThanInValue {
                    // XML allows no `<` in an attribute value (libxml2 drops the element).
                    if i + 2 >= n && !final { carry(b, from: i); return }
                    noteRepair()
                    if i + 2 < n, b[i + 1] == UInt8(ascii: "/"), Self.isNameStart(b[i + 2]) {
                        // An end tag: the value's closing quote is missing (`domain="x>c</category>`),
                        // and would be looked for in the items after. The value and the tag end here.
                        out.append(tagQuote)
                        out.append(62)
                        state = .content; tagQuote = 0; tagOpened = false
                        continue
                    }
                    out.append(contentsOf: Self.lt)
                    tagPrev = 0
                    i += 1
                    continue
                }
                if i >= n { break }
                guard let used = referenceOrControl(b, i, final: final, into: &out) else { carry(b, from: i); return }
                tagPrev = 0
                i += used
            case .textCDATA:
                if side != nil {
                    // The usual escaped HTML in one tight loop; what it stops at goes below.
                    i = Self.sideTextRun(b, from: i, into: &out, lineFeeds: lineFeeds)
                    if i >= n { break }
                }
                let j = Self.runEnd(b, from: i, stops: Self.cdataTextStops, stopsAtGreaterThan: true, lineFeeds: lineFeeds)
                if j > i { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<j])); i = j }
                if i >= n { break }
                switch b[i] {
                case UInt8(ascii: "<"):
                    // A `<` that starts no markup (`Price < 20`, `x <= y`) is text.
                    guard let markup = Self.startsMarkup(b, at: i, final: final) else { carry(b, from: i); return }
                    if markup { endTextSection(&out); break }
                    notePlainLessThan(b, at: i)
                    out.append(UInt8(ascii: "<"))
                    i += 1
                case UInt8(ascii: "&"):
                    switch Self.inlineReference(b, i, final: final) {
                    case .needMore: carry(b, from: i); return
                    case .decoded(let scalar, let length):
                        if scalar == 0x3E { appendGreaterThan(into: &out) } else { appendUTF8(scalar, to: &out) }
                        i += length
                    case .other:
                        endTextSection(&out)   // the text path rewrites it
                    }
                case UInt8(ascii: ">"):
                    appendGreaterThan(into: &out)
                    i += 1
                case 0x0D:
                    if i + 1 >= n && !final { carry(b, from: i); return }
                    out.append(0x0A)
                    if i + 1 < n && b[i + 1] == 0x0A { lineFeeds.pointee += 1; i += 2 } else { i += 1 }
                default:
                    i += 1   // a forbidden control character
                }
            case .comment, .cdata, .pi:
                let (t0, t1, t2): (UInt8, UInt8, UInt8) = state == .comment ? (45, 45, 62) : state == .cdata ? (93, 93, 62) : (63, 62, 0)
                let termLength = state == .pi ? 2 : 3
                var j = i
                var found = false
                while j < n {
                    if let base = b.baseAddress {
                        // Words without the terminator's first byte or a control byte go by eight.
                        while j + 8 <= n {
                            let w = ByteScan.word(base, j)
                            if ByteScan.hasLess(w, 0x20) || ByteScan.has(w, t0) { break }
                            j += 8
                        }
                        if j >= n { break }
                    }
                    let c = b[j]
                    if c == t0 {
                        if j + termLength > n { break }
                        if b[j + 1] == t1 && (termLength == 2 || b[j + 2] == t2) { found = true; break }
                    } else if c == 0x0A {
                        lineFeeds.pointee += 1
                    } else if c < 0x20 && c != 0x09 && c != 0x0D {
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<j]))
                        i = j + 1
                    }
                    j += 1
                }
                if found && state == .cdata && Self.cdataEndsEarly(b, after: j + 3) {
                    // A `]]>` that a second one follows before any markup: text of the section
                    // (a CDATA section that held one), not its end.
                    noteRepair()
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<(j + 2)]))
                    if side == nil { out.append(contentsOf: Self.closeAndReopen) } else { out.append(62) }
                    i = j + 3
                    continue
                }
                if found && side != nil && state == .cdata {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<j]))
                    moveTextAside(&out)
                    i = j + termLength
                    state = .content
                } else if found {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<(j + termLength)]))
                    i = j + termLength
                    state = .content
                } else if j < n && !final {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<j]))
                    carry(b, from: j); return
                } else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<n]))
                    i = n
                }
            case .doctype:
                i = consumeDoctype(b, i)
            }
        }
        if final && state == .textCDATA { endTextSection(&out) }
        if final { closeOpenElements(b, into: &out) }
    }

    /// Ends a text section of ours: `]]>`, or with the side channel the text moves aside.
    private func endTextSection(_ out: inout ByteSink) {
        if side != nil { moveTextAside(&out) } else { out.append(contentsOf: Self.cdataClose) }
        state = .content
    }

    /// With the side channel: the open text (from `sideContentStart`) goes to `side`, and an
    /// instruction naming it replaces it and its `<![CDATA[` in `out`.
    private func moveTextAside(_ out: inout ByteSink) {
        guard let side else { return }
        let number = out.withUnsafeBufferPointer { side.keep(UnsafeBufferPointer(rebasing: $0[sideContentStart...])) }
        out.removeSubrange(sideOpenAt...)
        if let number { side.writeInstruction(number, into: &out) }
        sideOpenAt = out.count
        sideContentStart = out.count
    }

    /// Appends `>` to the open text section: after `]]` it would end a CDATA section, so there
    /// the section ends and the `>` starts the next (with the side channel, no section: as is).
    private func appendGreaterThan(into out: inout ByteSink) {
        if side == nil { Self.appendCDATAGreaterThan(into: &out) } else { out.append(UInt8(ascii: ">")) }
    }

    /// At a `&` or a control character XML forbids, in text or in a tag: writes the rewritten
    /// reference, or drops the character; returns the bytes consumed, nil when more input is needed.
    private func referenceOrControl(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool, into out: inout ByteSink) -> Int? {
        guard b[i] == UInt8(ascii: "&") else { return 1 }
        return reference(b, i, final: final, into: &out)
    }

    /// The bytes that end a run of text inside a CDATA section of ours: `&`, `<`, `>` (after
    /// `]]` it would end the section), CR (line ends) and the controls XML forbids.
    /// As a set of the bytes below 64 (bit c for byte c; no stop is above): a constant, where a
    /// table would be a lazily initialized global checked at every stop.
    private static var cdataTextStops: UInt64 { 0x5000_0040_FFFF_F9FF }
    private static let cdataClose = Array("]]>".utf8)
    /// `>` right after `]]` (written or decoded): the section ends after the `]]` and the `>`
    /// starts the next, so the text reads `]]>` and no section ends early.
    private static let closeAndReopen = Array("]]><![CDATA[>".utf8)

    /// Appends `>` to the text of an open CDATA section of ours.
    private static func appendCDATAGreaterThan(into out: inout ByteSink) {
        let n = out.count
        if n >= 2, out[n - 1] == UInt8(ascii: "]"), out[n - 2] == UInt8(ascii: "]") {
            out.append(contentsOf: closeAndReopen)
        } else {
            out.append(UInt8(ascii: ">"))
        }
    }

    private enum InlineReference {
        /// More input is needed to read it.
        case needMore
        /// A predefined or numeric reference to an allowed character: the character and the
        /// reference's length.
        case decoded(UInt32, Int)
        /// Anything else (HTML name, declared entity, a bare `&`, a forbidden character, a
        /// possible Latin-1 lead of double-encoded UTF-8): for `reference`.
        case other
    }

    /// At a `&`: a reference CDATA can hold decoded.
    private static func inlineReference(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool) -> InlineReference {
        let n = b.count
        // `&lt;`, `&gt;`, `&amp;` and `&quot;` are most of the references in escaped HTML: read
        // with one load when eight bytes are there.
        if i + 8 <= n, let base = b.baseAddress {
            let w = ByteScan.word(base, i)
            switch w & 0xFFFF_FFFF {
            case 0x3B74_6C26: return .decoded(0x3C, 4)   // &lt;
            case 0x3B74_6726: return .decoded(0x3E, 4)   // &gt;
            default: break
            }
            if w & 0xFF_FFFF_FFFF == 0x3B_706D_6126 { return .decoded(0x26, 5) }       // &amp;
            if w & 0xFFFF_FFFF_FFFF == 0x3B74_6F75_7126 { return .decoded(0x22, 6) }  // &quot;
        }
        var j = i + 1
        let limit = min(n, i + 16)
        while j < limit, b[j] != UInt8(ascii: ";") {
            let c = b[j]
            let nameChar = (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || c == UInt8(ascii: "#")
            if !nameChar { return .other }
            j += 1
        }
        if j >= n { return final || n - i >= 16 ? .other : .needMore }
        guard b[j] == UInt8(ascii: ";"), j > i + 1 else { return .other }
        if let code = predefined(b, from: i + 1, to: j) { return .decoded(UInt32(code), j - i + 1) }
        guard b[i + 1] == UInt8(ascii: "#"), let value = numericValue(Array(b[(i + 1)..<j])),
              !(0xC2...0xF4).contains(value), let scalar = acceptableScalar(value) else { return .other }
        return .decoded(scalar, j - i + 1)
    }

    /// With the side channel, in a text section: copies text and decodes `&lt;`, `&gt;`, `&amp;`
    /// and `&quot;` (most of escaped HTML) in one loop, and returns the index of the first byte
    /// it leaves to the general path: `<`, another `&`, a control byte other than tab and line
    /// feed, or the end. (A `>` needs no care in a side text: it never reaches libxml2.) Each
    /// word read is stored to the output whole and the output advanced by the bytes kept, so a
    /// run costs no copy of its own.
    @inline(__always)
    private static func sideTextRun(_ b: UnsafeBufferPointer<UInt8>, from start: Int, into out: inout ByteSink,
                                    lineFeeds: UnsafeMutablePointer<Int>) -> Int {
        let n = b.count
        guard let base = b.baseAddress, start < n else { return start }
        var j = start
        // Decoding only shortens the text: its length plus sixteen bytes of slack is room enough.
        out.appendInPlace(maxCount: n - start + 16) { dst in
            var o = 0
            let spaces = SIMD16<UInt8>(repeating: 0x20), amps = SIMD16<UInt8>(repeating: 0x26)
            let lts = SIMD16<UInt8>(repeating: 0x3C)
            while j < n {
                if j + 16 <= n {
                    let v = ByteScan.vector(base, j)
                    UnsafeMutableRawPointer(dst + o).storeBytes(of: v, as: SIMD16<UInt8>.self)
                    let hit = (v .< spaces) .| (v .== amps) .| (v .== lts)
                    if !any(hit) { j += 16; o += 16; continue }
                    let k = ByteScan.firstTrue(hit)
                    j += k
                    o += k
                } else if j + 8 <= n {
                    let w = ByteScan.word(base, j)
                    UnsafeMutableRawPointer(dst + o).storeBytes(of: w, as: UInt64.self)
                    let m = ByteScan.lessMask(w, 0x20) | ByteScan.equalMask(w, 0x26) | ByteScan.equalMask(w, 0x3C)
                    if m == 0 { j += 8; o += 8; continue }
                    let k = ByteScan.firstFlagged(m)
                    j += k
                    o += k
                }
                let c = base[j]
                if c == 0x26 {
                    guard j + 8 <= n else { break }
                    let w = ByteScan.word(base, j)
                    if w & 0xFFFF_FFFF == 0x3B74_6C26 { dst[o] = 0x3C; j += 4 }                  // &lt;
                    else if w & 0xFFFF_FFFF == 0x3B74_6726 { dst[o] = 0x3E; j += 4 }             // &gt;
                    else if w & 0xFF_FFFF_FFFF == 0x3B_706D_6126 { dst[o] = 0x26; j += 5 }       // &amp;
                    else if w & 0xFFFF_FFFF_FFFF == 0x3B74_6F75_7126 { dst[o] = 0x22; j += 6 }  // &quot;
                    else { break }
                    o += 1
                    continue
                }
                // Tab and line feed are kept as they are (as in `runEnd`); so is any other byte
                // but `<` and the controls, met here only in the last seven bytes.
                guard c == 0x09 || c == 0x0A || (c >= 0x20 && c != 0x3C) else { break }
                if c == 0x0A { lineFeeds.pointee += 1 }
                dst[o] = c
                o += 1
                j += 1
            }
            return o
        }
        return j
    }

    /// For a `<` at `b[i]` that starts a start or end tag whose first sixteen bytes after the `<`
    /// (eight near the end of the input) hold its `>` and nothing `.tag` treats specially before it (a quote, `&`, `<`, a control
    /// or white space): the index of that `>`; nil otherwise.
    @inline(__always)
    private static func simpleTagEnd(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        guard i + 9 <= b.count, let base = b.baseAddress else { return nil }
        let first = base[i + 1]
        guard first == UInt8(ascii: "/") || (first | 0x20) &- 0x61 < 26 else { return nil }
        if i + 17 <= b.count {
            // Two words: `</description>`, `<pubDate>`, `</content:encoded>` too.
            let m = tagStops(ByteScan.word(base, i + 1))
            let k = m != 0 ? i + 1 + ByteScan.firstFlagged(m) : {
                let m2 = tagStops(ByteScan.word(base, i + 9))
                return m2 != 0 ? i + 9 + ByteScan.firstFlagged(m2) : -1
            }()
            return k >= 0 && base[k] == UInt8(ascii: ">") ? k : nil
        }
        let w = ByteScan.word(base, i + 1)
        let m = ByteScan.lessMask(w, 0x21) | ByteScan.equalMask(w, 0x22) | ByteScan.equalMask(w, 0x27)
            | ByteScan.equalMask(w, 0x26) | ByteScan.equalMask(w, 0x3C) | ByteScan.equalMask(w, 0x3E)
        guard m != 0 else { return nil }
        let k = i + 1 + ByteScan.firstFlagged(m)
        return base[k] == UInt8(ascii: ">") ? k : nil
    }

    /// Flags a word's bytes that end a simple tag's name: white space and controls, quotes, `&`,
    /// `<`, `>` (exact for the lowest flagged byte).
    @inline(__always)
    private static func tagStops(_ w: UInt64) -> UInt64 {
        ByteScan.lessMask(w, 0x21) | ByteScan.equalMask(w, 0x22) | ByteScan.equalMask(w, 0x27)
            | ByteScan.equalMask(w, 0x26) | ByteScan.equalMask(w, 0x3C) | ByteScan.equalMask(w, 0x3E)
    }

    /// The index of the first byte from `start` that `stops` marks (`contentStops` or
    /// `cdataTextStops`), or `b.count`: eight bytes at a time to the next `&`, `<`, control byte
    /// and, when `stopsAtGreaterThan`, `>` (a superset of both tables' stops), then the table.
    @inline(__always)
    private static func runEnd(_ b: UnsafeBufferPointer<UInt8>, from start: Int, stops: UInt64, stopsAtGreaterThan: Bool,
                               lineFeeds: UnsafeMutablePointer<Int>) -> Int {
        let n = b.count
        guard let base = b.baseAddress else { return start }
        var j = start
        let spaces = SIMD16<UInt8>(repeating: 0x20), amps = SIMD16<UInt8>(repeating: 0x26)
        let lts = SIMD16<UInt8>(repeating: 0x3C), gts = SIMD16<UInt8>(repeating: stopsAtGreaterThan ? 0x3E : 0x3C)
        while j < n {
            if j + 16 <= n {
                let v = ByteScan.vector(base, j)
                let hit = (v .< spaces) .| (v .== amps) .| (v .== lts) .| (v .== gts)
                if !any(hit) { j += 16; continue }
                j += ByteScan.firstTrue(hit)
            } else if j + 8 <= n {
                let w = ByteScan.word(base, j)
                var m = ByteScan.lessMask(w, 0x20) | ByteScan.equalMask(w, 0x26) | ByteScan.equalMask(w, 0x3C)
                if stopsAtGreaterThan { m |= ByteScan.equalMask(w, 0x3E) }
                if m == 0 { j += 8; continue }
                j += ByteScan.firstFlagged(m)
            }
            let c = b[j]
            if c < 64 && (stops >> UInt64(c)) & 1 != 0 { break }
            if c == 0x0A { lineFeeds.pointee += 1 }
            j += 1
        }
        return j
    }

    /// The bytes that end a run of plain content: `&`, `<` and the controls XML forbids.
    private static var contentStops: UInt64 { 0x1000_0040_FFFF_D9FF }   // as `cdataTextStops`

    private func carry(_ b: UnsafeBufferPointer<UInt8>, from i: Int) {
        carry.append(contentsOf: b[i...])
    }

    // MARK: - markup starts

    private static let commentOpen = Array("<!--".utf8)
    private static let cdataOpen = Array("<![CDATA[".utf8)
    private static let doctypeOpen = Array("<!DOCTYPE".utf8)

    /// At a `<`: returns the bytes consumed, or nil when more input is needed to decide.
    private func markupStart(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool, into out: inout ByteSink) -> Int? {
        let avail = b.count - i
        func matches(_ p: [UInt8], caseless: Bool = false) -> Bool? {
            for k in 0..<p.count {
                if k >= avail { return final ? false : nil }
                let x = caseless ? b[i + k] & 0xDF : b[i + k]
                let y = caseless ? p[k] & 0xDF : p[k]
                if x != y && !(caseless && b[i + k] == p[k]) { return false }
            }
            return true
        }
        guard let markup = Self.startsMarkup(b, at: i, final: final) else { return nil }
        if !markup {
            notePlainLessThan(b, at: i)
            if !openSlot.pointee.rootSeen { return 1 }
            writePlainLessThan(into: &out)
            return 1
        }
        if b[i + 1] == UInt8(ascii: "?") { out.append(60); out.append(63); state = .pi; return 2 }
        if b[i + 1] == UInt8(ascii: "/") { return endTag(b, i, final: final, into: &out) }
        if b[i + 1] != UInt8(ascii: "!") { return startTag(b, i, final: final, into: &out) }
        switch matches(Self.commentOpen) {
        case .none: return nil
        case .some(true): out.append(contentsOf: Self.commentOpen); state = .comment; return 4
        default: break
        }
        switch matches(Self.cdataOpen) {
        case .none: return nil
        case .some(true):
            sideOpenAt = out.count
            out.append(contentsOf: Self.cdataOpen)
            sideContentStart = out.count
            state = .cdata
            return 9
        default: break
        }
        switch matches(Self.doctypeOpen, caseless: true) {
        case .none: return nil
        case .some(true):
            state = .doctype
            doctype.removeAll(); doctypeQuote = 0; doctypeDepth = 0; doctypeInComment = false
            return 9
        default: break
        }
        out.append(60)   // another declaration (`<!ELEMENT`…): read as a tag
        state = .tag
        tagQuote = 0
        return 1
    }

    // MARK: - references

    /// At a `&`: writes the rewritten reference; returns bytes consumed, nil when more input is needed.
    private func reference(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool, into out: inout ByteSink) -> Int? {
        let n = b.count
        var j = i + 1
        let limit = min(n, i + 48)
        while j < limit {
            let c = b[j]
            if c == UInt8(ascii: ";") { break }
            let nameChar = (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || c == UInt8(ascii: "#")
                || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":")
            if !nameChar { break }
            j += 1
        }
        if j >= n && !final && n - i < 48 { return nil }
        guard j < n, b[j] == UInt8(ascii: ";"), j > i + 1 else {
            out.append(contentsOf: Self.ampersand)
            return 1
        }
        // The five XML names, by far the most common (escaped HTML is all &lt; and &gt;): no
        // String, no lookup.
        if let code = Self.predefined(b, from: i + 1, to: j) {
            // "&#NN;" written byte by byte (no array to retain and release per reference).
            out.append(0x26); out.append(0x23)
            out.append(0x30 + code / 10); out.append(0x30 + code % 10)
            out.append(0x3B)
            return j - i + 1
        }
        let name = Array(b[(i + 1)..<j])
        if Self.mayStartDoubleEncoding(name),
           let repaired = doubleEncodedSequence(b, start: i, firstEnd: j, first: name, into: &out) { return repaired }
        if !writeReference(name, into: &out, depth: 0) { out.append(contentsOf: Self.ampersand); return 1 }
        return j - i + 1
    }

    private static let lt = Array("&#60;".utf8), gt = Array("&#62;".utf8), quot = Array("&#34;".utf8), apos = Array("&#39;".utf8)

    /// The code (two digits) of `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;` when b[from..<to] is one of them.
    @inline(__always)
    private static func predefined(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> UInt8? {
        switch to - from {
        case 2:
            if b[from + 1] == 0x74 { if b[from] == 0x6C { return 60 }; if b[from] == 0x67 { return 62 } }   // lt gt
        case 3:
            if b[from] == 0x61, b[from + 1] == 0x6D, b[from + 2] == 0x70 { return 38 }                      // amp
        case 4:
            if b[from] == 0x71, b[from + 1] == 0x75, b[from + 2] == 0x6F, b[from + 3] == 0x74 { return 34 } // quot
            if b[from] == 0x61, b[from + 1] == 0x70, b[from + 2] == 0x6F, b[from + 3] == 0x73 { return 39 } // apos
        default: break
        }
        return nil
    }

    /// Cheap test before the mojibake repair: a numeric reference, or a name that can stand for
    /// a Latin-1 lead byte (Â, Ã, â, ã and the other letters in U+00C2...U+00F4).
    private static func mayStartDoubleEncoding(_ name: [UInt8]) -> Bool {
        guard let first = name.first else { return false }
        if first == UInt8(ascii: "#") { return true }
        // The last letters of the HTML names of U+00C2...U+00F4 (acirc, eacute, Ntilde, ETH, szlig...).
        guard name.count >= 3 && name.count <= 6, let last = name.last else { return false }
        return last == 0x63 || last == 0x65 || last == 0x67 || last == 0x68 || last == 0x6C || last == 0x73
            || last == 0x48 || last == 0x4E
    }

    /// `&#226;&#128;&#166;` (or `&acirc;&#128;&brvbar;`): references to Latin-1 characters that
    /// together spell one UTF-8 sequence are text that was UTF-8, read as Latin-1 and escaped.
    /// They are read as the character meant ("…"). Returns bytes consumed, or nil.
    private func doubleEncodedSequence(_ b: UnsafeBufferPointer<UInt8>, start: Int, firstEnd: Int, first: [UInt8],
                                       into out: inout ByteSink) -> Int? {
        guard let lead = latin1Value(first), (0xC2...0xF4).contains(lead) else { return nil }
        let needed = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : 1
        var scalar = lead & (needed == 1 ? 0x1F : needed == 2 ? 0x0F : 0x07)
        var k = firstEnd + 1
        for _ in 0..<needed {
            guard k < b.count, b[k] == UInt8(ascii: "&"),
                  let semi = (k + 1..<min(b.count, k + 12)).first(where: { b[$0] == UInt8(ascii: ";") }),
                  let v = latin1Value(Array(b[(k + 1)..<semi])), (0x80...0xBF).contains(v)
            else { return nil }
            scalar = scalar << 6 | (v & 0x3F)
            k = semi + 1
        }
        guard let accepted = Self.acceptableScalar(scalar), scalar >= 0x80 else { return nil }
        Self.writeCharRef(accepted, into: &out)
        return k - start
    }

    /// The code point below 256 a reference names, before any windows-1252 reading.
    private func latin1Value(_ name: [UInt8]) -> UInt32? {
        if name.first == UInt8(ascii: "#") { return Self.numericValue(name).flatMap { $0 < 256 ? $0 : nil } }
        guard declared.isEmpty || declared[String(decoding: name, as: UTF8.self)] == nil,
              let chars = HTMLEntities.characters(named: String(decoding: name, as: UTF8.self)),
              chars.unicodeScalars.count == 1, let v = chars.unicodeScalars.first?.value, v < 256 else { return nil }
        return v
    }

    private static let ampersand = Array("&#38;".utf8)

    /// Writes the replacement of `&name;`; false when the name means nothing (caller keeps text).
    private func writeReference(_ name: [UInt8], into out: inout ByteSink, depth: Int) -> Bool {
        if name.first == UInt8(ascii: "#") {
            guard let value = Self.numericValue(name) else { return false }
            if let scalar = Self.acceptableScalar(value) { Self.writeCharRef(scalar, into: &out) }
            return true
        }
        let key = String(decoding: name, as: UTF8.self)
        switch key {
        case "amp": out.append(contentsOf: Self.ampersand); return true
        case "lt": out.append(contentsOf: "&#60;" as StaticString); return true
        case "gt": out.append(contentsOf: "&#62;" as StaticString); return true
        case "quot": out.append(contentsOf: "&#34;" as StaticString); return true
        case "apos": out.append(contentsOf: "&#39;" as StaticString); return true
        default: break
        }
        if let value = declared[key] {
            // A complete expansion is reused when going through it again could not hit the
            // depth limit or the budget: the output and `expansionUsed` are then the same.
            if let cached = expansions[key], depth + 1 + cached.height <= Self.maxEntityDepth,
               expansionUsed + cached.cost <= Self.expansionBudget {
                out.append(contentsOf: cached.bytes)
                expansionUsed += cached.cost
                return true
            }
            let start = out.count, usedBefore = expansionUsed, deepestBefore = deepestExpansion
            deepestExpansion = depth + 1
            expand(value, into: &out, depth: depth + 1)
            let height = deepestExpansion - (depth + 1)
            deepestExpansion = max(deepestBefore, deepestExpansion)
            if expansionUsed < Self.expansionBudget {   // not stopped by the budget or the depth limit
                expansions[key] = out.withUnsafeBufferPointer {
                    Expansion(bytes: Array($0[start...]), cost: expansionUsed - usedBefore, height: height)
                }
            }
            return true
        }
        if external.contains(key) { return true }   // external entities are never read
        // The two names whose meaning changed between HTML 4 and HTML5: feeds that use HTML
        // entities were written against the HTML 4 (and RSS 0.91) DTDs.
        if key == "lang" || key == "rang" {
            Self.writeCharRef(key == "lang" ? 0x2329 : 0x232A, into: &out)
            return true
        }
        if let chars = HTMLEntities.characters(named: key) {
            for s in chars.unicodeScalars { Self.writeCharRef(s.value, into: &out) }
            return true
        }
        return false
    }

    /// Expands an internal entity's replacement text as character data, within the budget.
    private func expand(_ value: [UInt8], into out: inout ByteSink, depth: Int) {
        deepestExpansion = max(deepestExpansion, depth)
        guard depth <= Self.maxEntityDepth else {
            // Stop all expansion: a tree of references too deep to write is also too wide to walk.
            expansionUsed = Self.expansionBudget
            warnOnce("entity expansion stopped: references nested deeper than \(Self.maxEntityDepth) levels")
            return
        }
        var i = 0
        while i < value.count {
            if expansionUsed >= Self.expansionBudget {
                warnOnce("entity expansion stopped at \(Self.expansionBudget) bytes (a billion-laughs document?)")
                return
            }
            let c = value[i]
            if c == UInt8(ascii: "&"), let semi = value[(i + 1)...].prefix(48).firstIndex(of: UInt8(ascii: ";")), semi > i + 1 {
                let before = out.count
                expansionUsed += 1   // every reference costs, even one that writes nothing
                if writeReference(Array(value[(i + 1)..<semi]), into: &out, depth: depth) {
                    expansionUsed += out.count - before
                    i = semi + 1
                    continue
                }
            }
            switch c {
            case UInt8(ascii: "<"): out.append(contentsOf: "&#60;" as StaticString); expansionUsed += 5
            case UInt8(ascii: "&"): out.append(contentsOf: Self.ampersand); expansionUsed += 5
            default: out.append(c); expansionUsed += 1
            }
            i += 1
        }
    }

    private func warnOnce(_ message: String) {
        if !warnings.contains(message) { warnings.append(message) }
    }

    static func numericValue(_ name: [UInt8]) -> UInt32? {
        guard name.count >= 2 else { return nil }
        var v: UInt32 = 0
        let hex = name[1] | 0x20 == UInt8(ascii: "x")
        let digits = name[(hex ? 2 : 1)...]
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        for d in digits {
            let x: UInt32
            switch d {
            case 0x30...0x39: x = UInt32(d - 0x30)
            case 0x61...0x66 where hex: x = UInt32(d - 0x61 + 10)
            case 0x41...0x46 where hex: x = UInt32(d - 0x41 + 10)
            default: return nil
            }
            v = v * (hex ? 16 : 10) + x
        }
        return v
    }

    /// The character a numeric reference should stand for, or nil when XML forbids it.
    static func acceptableScalar(_ v: UInt32) -> UInt32? {
        if (0x80...0x9F).contains(v) { return windows1252Scalar(UInt8(v)) }
        if v == 0x9 || v == 0xA || v == 0xD { return v }
        if v < 0x20 || (0xD800...0xDFFF).contains(v) || v == 0xFFFE || v == 0xFFFF || v > 0x10FFFF { return nil }
        return v
    }

    static func writeCharRef(_ scalar: UInt32, into out: inout ByteSink) {
        out.append(38); out.append(35)  // "&#"
        out.append(contentsOf: String(scalar))
        out.append(59)
    }

    // MARK: - DOCTYPE

    /// Consumes DOCTYPE bytes from `i`; returns the new position. Keeps up to 1 MiB of the
    /// declaration for its entity declarations; the rest is skipped.
    private func consumeDoctype(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var i = start
        while i < b.count {
            let c = b[i]
            if doctype.count < 1 << 20 { doctype.append(c) }
            if c == 0x0A { lineFeeds.pointee += 1 }
            i += 1
            if doctypeInComment {
                if c == UInt8(ascii: ">"), doctype.count >= 3, doctype[doctype.count - 2] == 45, doctype[doctype.count - 3] == 45 {
                    doctypeInComment = false
                }
                continue
            }
            if doctypeQuote != 0 { if c == doctypeQuote { doctypeQuote = 0 }; continue }
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): doctypeQuote = c
            case UInt8(ascii: "["): doctypeDepth += 1
            case UInt8(ascii: "]"): doctypeDepth = max(0, doctypeDepth - 1)
            case UInt8(ascii: "-"):
                if doctype.count >= 4, doctype.suffix(4).elementsEqual(Self.commentOpen) { doctypeInComment = true }
            case UInt8(ascii: ">") where doctypeDepth == 0:
                readEntityDeclarations()
                doctype.removeAll()
                state = .content
                return i
            default: break
            }
        }
        return i
    }

    /// Finds `<!ENTITY name "value">` and `<!ENTITY name SYSTEM|PUBLIC ...>` in the DOCTYPE.
    private func readEntityDeclarations() {
        let text = doctype
        var i = 0
        let marker = Array("<!ENTITY".utf8)
        while i + marker.count < text.count {
            guard text[i] == 60, text[i..<(i + marker.count)].elementsEqual(marker) else { i += 1; continue }
            i += marker.count
            func skipSpace() { while i < text.count, text[i] == 32 || text[i] == 9 || text[i] == 10 || text[i] == 13 { i += 1 } }
            skipSpace()
            if i < text.count, text[i] == UInt8(ascii: "%") { continue }   // parameter entity: not ours
            let nameStart = i
            while i < text.count, !(text[i] == 32 || text[i] == 9 || text[i] == 10 || text[i] == 13 || text[i] == 34 || text[i] == 39 || text[i] == 62) { i += 1 }
            let name = String(decoding: text[nameStart..<i], as: UTF8.self)
            skipSpace()
            guard !name.isEmpty, i < text.count else { continue }
            if text[i] == 34 || text[i] == 39 {
                let q = text[i]
                let valueStart = i + 1
                guard let close = text[valueStart...].firstIndex(of: q) else { break }
                if declared[name] == nil && !external.contains(name) {
                    declared[name] = Array(text[valueStart..<close])
                }
                i = close + 1
            } else {
                external.insert(name)
            }
        }
    }
}

// MARK: - broken markup

extension XMLPrepass {
    /// Whether the `<` at `b[i]` can start markup (a tag, `</`, `<!`, `<?`): not before a space,
    /// a digit, `=`, `-` and the like (`Price < 20`, `x <= y`, `<-- back`); nil when more input is
    /// needed to tell.
    @inline(__always)
    static func startsMarkup(_ b: UnsafeBufferPointer<UInt8>, at i: Int, final: Bool) -> Bool? {
        guard i + 1 < b.count else { return final ? false : nil }
        let c = b[i + 1]
        if c == UInt8(ascii: "!") || c == UInt8(ascii: "?") { return true }
        if c == UInt8(ascii: "/") {
            guard i + 2 < b.count else { return final ? false : nil }
            return isNameStart(b[i + 2])
        }
        return isNameStart(c)
    }

    /// A byte XML allows first in a name: a letter, `_`, `:` or (in UTF-8) any non-ASCII one.
    @inline(__always)
    static func isNameStart(_ c: UInt8) -> Bool {
        (c | 0x20) &- 0x61 < 26 || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") || c >= 0x80
    }

    /// A byte of a tag's name as the prepass reads it: anything up to white space, `/`, `>`, `<`,
    /// `=`, a quote or `&`.
    @inline(__always)
    static func isNameByte(_ c: UInt8) -> Bool {
        // The stops as bits of the bytes below 64 (`"` `&` `'` `/` `<` `=` `>`).
        c > 0x20 && (c >= 64 || (0x7000_80C4_0000_0000 as UInt64) >> UInt64(c) & 1 == 0)
    }

    /// A `<` that starts no markup: a repair (the text is kept, no item is damaged).
    func notePlainLessThan(_ b: UnsafeBufferPointer<UInt8>, at i: Int) {
        noteRepair()
    }

    /// A repair where the prepass is reading (every line feed before it has been counted).
    private func noteRepair() {
        repairs.note(line: lineFeeds.pointee + 1)
    }

    /// Writes a `<` that is text: in a text section of ours (as `&lt;` is), or as a reference.
    func writePlainLessThan(into out: inout ByteSink) {
        if handOver == .plain {
            out.append(contentsOf: Self.lt)
            return
        }
        sideOpenAt = out.count
        out.append(contentsOf: Self.cdataOpen)
        sideContentStart = out.count
        out.append(UInt8(ascii: "<"))
        state = .textCDATA
    }

    /// At `</` (with a name start after it) that `simpleTagEnd` did not take: reads the name and
    /// the `>` and writes what `OpenElements` says, as `</name>`. Returns the bytes consumed,
    /// nil when more input is needed. An end tag with no `>` before the next `<` (or within 512
    /// bytes) is left to `.tag` and libxml2, as before.
    func endTag(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool, into out: inout ByteSink) -> Int? {
        let n = b.count
        let limit = min(n, i + 514)
        var e = i + 2
        while e < limit, Self.isNameByte(b[e]) { e += 1 }
        var j = e
        while j < limit, b[j] != UInt8(ascii: ">"), b[j] != UInt8(ascii: "<") { j += 1 }
        if j >= n && !final && n - i < 514 { return nil }
        if j >= n && final {
            noteRepair()   // an end tag cut by the end of the document: the end closes all
            return n - i
        }
        guard j < limit, b[j] == UInt8(ascii: ">") else {
            out.append(60)
            state = .tag; tagQuote = 0; tagOpened = false; tagPrev = 60
            return 1
        }
        for k in e..<j where b[k] == 0x0A { lineFeeds.pointee += 1 }   // `</name\n>`
        writeEndTag(b, at: i, nameFrom: i + 2, nameTo: e, into: &out)
        return j - i + 1
    }

    /// Writes the end tag named by `b[nameFrom..<nameTo]` (its `<` at `b[i]`) as `OpenElements`
    /// decides: as it is, after the end tags of elements left open inside it, or not at all.
    @inline(__always)
    func writeEndTag(_ b: UnsafeBufferPointer<UInt8>, at i: Int, nameFrom: Int, nameTo: Int, into out: inout ByteSink) {
        if openSlot.pointee.closeIfInnermost(b, from: nameFrom, to: nameTo) {
            if nameTo < b.count, b[nameTo] == 62 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i...nameTo]))   // `</name>` as it is
                return
            }
        } else {
            closeAsRepaired(b, at: i, nameFrom: nameFrom, nameTo: nameTo, into: &out)
            return
        }
        out.append(60); out.append(47)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[nameFrom..<nameTo]))
        out.append(62)
    }

    private func closeAsRepaired(_ b: UnsafeBufferPointer<UInt8>, at i: Int, nameFrom: Int, nameTo: Int, into out: inout ByteSink) {
        switch openSlot.pointee.close(b, from: nameFrom, to: nameTo) {
        case .matches:
            break
        case .closesOpen(let inner, let name):
            noteRepair()
            for name in inner { Self.writeEndTag(name, into: &out) }
            Self.writeEndTag(name, into: &out)
            return
        case .stray:
            noteRepair()
            return
        }
        out.append(60); out.append(47)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[nameFrom..<nameTo]))
        out.append(62)
    }

    static func writeEndTag(_ name: [UInt8], into out: inout ByteSink) {
        out.append(60); out.append(47)
        out.append(contentsOf: name)
        out.append(62)
    }

    /// At `<` and a name start: the start of a start tag, read on by `.tag`. Its name goes to
    /// `open`; before the root, an HTML element that a feed follows is skipped (see
    /// `prologJunk`). Returns the bytes consumed, nil when more input is needed.
    func startTag(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool, into out: inout ByteSink) -> Int? {
        let n = b.count
        let limit = min(n, i + 1 + OpenElements.maxName)
        var e = i + 1
        while e < limit, Self.isNameByte(b[e]) { e += 1 }
        if e >= n && !final { return nil }
        if !openSlot.pointee.rootSeen {
            guard let skip = prologJunk(b, i, nameEnd: e, final: final) else { return nil }
            if skip > 0 { return skip }
        }
        openSlot.pointee.open(b, from: i + 1, to: e)
        tagOpened = true
        tagPrev = 60
        out.append(60)
        state = .tag
        tagQuote = 0
        return 1
    }

    /// Before the root, at an HTML element (`<br />`, `<b>Warning</b>: …`: what a PHP page
    /// prints before the feed when it warns): when an XML declaration or a feed's root follows,
    /// the bytes up to it, to skip; 0 when none does (the element is the root: "not a feed");
    /// nil when more input is needed to tell (up to 256 KiB are looked at).
    private func prologJunk(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, nameEnd: Int, final: Bool) -> Int? {
        let name = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1)..<nameEnd]), as: UTF8.self).lowercased()
        guard Self.junkElements.contains(name) else { return 0 }
        let n = b.count
        var k = i + 1
        while k < n {
            if b[k] == 60, let found = Self.feedStart(b, at: k) {
                if !found { return final ? 0 : nil }
                noteRepair()
                warnOnce("\(k - i) bytes of HTML before the feed were skipped (an error message the server printed?)")
                lineFeeds.pointee += Repairs.lineFeeds(UnsafeBufferPointer(rebasing: b[i..<k]))
                return k - i
            }
            k += 1
        }
        return final || n - i >= 256 << 10 ? 0 : nil
    }

    /// Whether the `<` at `b[k]` starts an XML declaration or a feed's root element; nil when
    /// it does not, false when more input is needed to tell.
    private static func feedStart(_ b: UnsafeBufferPointer<UInt8>, at k: Int) -> Bool? {
        for start in feedStarts {
            var m = 0
            while m < start.count, k + m < b.count, b[k + m] == start[m] { m += 1 }
            if m == start.count {
                guard k + m < b.count else { return false }
                let c = b[k + m]
                if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 62 || c == 47 || (start[1] == 63 && c == 63) { return true }
            } else if k + m >= b.count {
                return false
            }
        }
        return nil
    }

    private static let feedStarts = ["<?xml", "<rss", "<feed", "<rdf:RDF", "<RDF", "<channel"].map { Array($0.utf8) }
    /// HTML that servers print before a document (error messages), never a feed's root.
    private static let junkElements: Set<String> = ["br", "b", "i", "u", "p", "font", "div", "span", "strong", "em",
        "hr", "table", "tr", "td", "th", "tbody", "pre", "code", "small", "big", "center", "a", "h1", "h2", "h3",
        "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "tt", "blockquote", "xmp"]

    /// At the end of the input: whatever is still open is closed (a cut document keeps the item
    /// it was cut in, and the items libxml2 would otherwise leave unfinished).
    func closeOpenElements(_ b: UnsafeBufferPointer<UInt8>, into out: inout ByteSink) {
        guard !openSlot.pointee.isEmpty else { return }
        switch state {
        case .tag:
            guard tagQuote == 0 else { return }
            out.append(62)
        case .cdata:
            if side != nil { moveTextAside(&out) } else { out.append(contentsOf: Self.cdataClose) }
        case .comment: out.append(contentsOf: "-->" as StaticString)
        case .pi: out.append(contentsOf: "?>" as StaticString)
        case .content: break
        default: return
        }
        state = .content
        tagOpened = false
        noteRepair()
        for name in openSlot.pointee.closeAll() { Self.writeEndTag(name, into: &out) }
    }

    /// After a CDATA section's `]]>` at `b[k - 3]`: whether another `]]>` comes before the next `<`
    /// (in this chunk): the first one then ended the section early.
    @inline(__always)
    static func cdataEndsEarly(_ b: UnsafeBufferPointer<UInt8>, after k: Int) -> Bool {
        var m = k
        while m + 2 < b.count, b[m] != 60 {
            if b[m] == 93, b[m + 1] == 93, b[m + 2] == 62 { return true }
            m += 1
        }
        return false
    }
}
