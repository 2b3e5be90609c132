import CLibXML2
import FeedModel

/// Turns SAX events of an RSS 0.9x/1.0/2.0 or Atom 0.3/1.0 document into cards, one at a time:
/// an item's fields are handed to `emit` as soon as it closes, so memory does not grow with the
/// document. Element meanings are looked up by (namespace URI, local name), never by prefix.
final class XMLFeedBuilder {
    /// Receives each finished item (`EntryFields.card()` turns it into the card).
    /// Takes the item over (moved, not copied: a copy retains every field).
    let emit: (consuming EntryFields) -> Void
    let documentBase: String?
    /// The document's folder when it was read from a local file (see `EntryFields.localFolder`).
    let localFolder: String?
    let maxDepth: Int
    let maxTextBytes: Int

    var feed = FeedFields()
    var format: FeedFormat?
    var rootTag: Tag?
    var rootName: String?
    var cardCount = 0
    var warnings: [String] = []
    var refusedLengths = 0
    var stopRequested = false

    private var namespaces: PointerCache<Namespace> {
        _read { yield namespaceSlot.pointee }
        _modify { yield &namespaceSlot.pointee }
    }
    private var tags: PointerCache<Tag> {
        _read { yield tagSlot.pointee }
        _modify { yield &tagSlot.pointee }
    }
    private var atomWithoutNamespace = false

    struct Frame {
        var ns: Namespace
        var tag: Tag
        /// The base URL in force here: an index into `bases` (a String per element would be
        /// retained and released on every element; few elements bring an xml:base).
        var baseIndex: Int
        /// An element left open by an error in the source (a `<b>` never closed inside a
        /// title): libxml2 nests what follows inside it, the builder reads through it.
        var broken = false
    }
    private var stack: [Frame] {
        _read { yield stackSlot.pointee }
        _modify { yield &stackSlot.pointee }
    }
    private var entry: EntryFields? {
        _read { yield entrySlot.pointee }
        _modify { yield &entrySlot.pointee }
    }
    private var entryDepth = -1
    private var skipDepth = -1
    private var imageDepth = -1
    private var authorDepth = -1
    private var authorName: String?
    private var authorEmail: String?
    /// The element being read as text. Kept behind a pointer: a class's stored property is
    /// checked for exclusive access at run time on every modification (~70 instructions), and
    /// this one changes on every text node; the builder is used on one thread only.
    var capture: Capture? {
        _read { yield captureSlot.pointee }
        _modify { yield &captureSlot.pointee }
    }
    // The state that changes on every SAX event, behind pointers (see `capture`).
    private let captureSlot = makeSlot(Capture?.none)
    private let stackSlot = makeSlot([Frame]())
    private let entrySlot = makeSlot(EntryFields?.none)
    /// The document's base, then one per open element with an xml:base (see `Frame.baseIndex`).
    private let basesSlot = makeSlot([String?]())
    /// The buffer of the last capture that became a String (a link, a date, a guid), emptied:
    /// the next capture fills it, where each would allocate and free one of its own.
    private let spareSlot = makeSlot([UInt8]())
    private let namespaceSlot = makeSlot(PointerCache<Namespace>())
    private let tagSlot = makeSlot(PointerCache<Tag>())

    init(documentBase: String?, maxDepth: Int, maxTextBytes: Int, emit: @escaping (consuming EntryFields) -> Void) {
        self.documentBase = documentBase
        localFolder = CardURL.localFolder(ofDocument: documentBase)
        self.maxDepth = maxDepth
        self.maxTextBytes = maxTextBytes
        self.emit = emit
        stack.reserveCapacity(32)
        basesSlot.pointee.append(documentBase)
    }

    deinit {
        freeSlot(captureSlot); freeSlot(stackSlot); freeSlot(entrySlot); freeSlot(basesSlot); freeSlot(spareSlot); freeSlot(namespaceSlot); freeSlot(tagSlot)
    }

    var entryIsOpen: Bool { entry != nil }

    func withEntry(_ change: (inout EntryFields) -> Void) {
        guard entry != nil else { return }
        change(&entry!)
    }

    /// The spare buffer for a new capture (empty, maybe with capacity).
    func takeSpareBuffer() -> [UInt8] {
        var b: [UInt8] = []
        swap(&b, &spareSlot.pointee)
        return b
    }

    /// Keeps `buffer`'s memory for the next capture (small ones only), leaving `buffer` empty.
    func keepSpareBuffer(_ buffer: inout [UInt8]) {
        guard buffer.capacity <= 4096 else { return }
        buffer.removeAll(keepingCapacity: true)
        swap(&buffer, &spareSlot.pointee)
    }

    func setAuthorName(_ s: String?) { authorName = s }
    func setAuthorEmail(_ s: String?) { authorEmail = s }

    // MARK: - name lookup (pointers are interned by libxml2's dictionary, so cache by address)

    @inline(__always)
    private func namespace(_ uri: UnsafePointer<xmlChar>?) -> Namespace {
        guard let uri else { return atomWithoutNamespace ? .atom10 : .none }
        return namespaces.value(for: UnsafeRawPointer(uri)) { Namespace.from(uri: String(cString: uri)) }
    }

    @inline(__always)
    private func tag(_ local: UnsafePointer<xmlChar>) -> Tag {
        tags.value(for: UnsafeRawPointer(local)) { Tag.from(localName: String(cString: local)) }
    }

    // MARK: - SAX events

    func startElement(_ local: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?, _ attrs: SAXAttributes) {
        let depth = stack.count
        var baseIndex = stack.last?.baseIndex ?? 0
        if attrs.count > 0, let xmlBase = attrs.xmlBase {
            basesSlot.pointee.append(CardURL.resolve(xmlBase, against: basesSlot.pointee[baseIndex]))
            baseIndex = basesSlot.pointee.count - 1
        }
        let base = basesSlot.pointee[baseIndex]
        if depth == 0 { startRoot(local, uri, attrs) }
        let ns = namespace(uri)
        let t = tag(local)
        stack.append(Frame(ns: ns, tag: t, baseIndex: baseIndex))
        if depth >= maxDepth {
            if !stopRequested { warnings.append("elements nested deeper than \(maxDepth) levels; the rest of the document was not read") }
            stopRequested = true
            return
        }
        // The capture is looked at in place and moved out with `take()`: a copy of it (its
        // buffer and base) would be retained and released on every element.
        if let target = captureSlot.pointee?.target {
            guard interruptsCapture(target, ns, t, direct: depth == captureSlot.pointee!.depth + 1, attributes: attrs.count) else { captureStart(local, attrs, base: base); return }
            // A feed element inside a plain-text field: the field was never closed in the source.
            var closed = captureSlot.pointee.take()!
            finishCapture(&closed)
            for i in closed.depth..<depth { stack[i].broken = true }
        }
        if depth == 0, t == .entry, ns.isAtom {
            // An Atom Entry Document (RFC 4287 4.1.2): the root is the one entry.
            entry = EntryFields()
            entryDepth = 0
            return
        }
        if skipDepth >= 0 || depth == 0 { return }
        if entry != nil {
            entryStart(ns, t, attrs, base: base, depth: depth)
        } else {
            feedStart(ns, t, attrs, base: base, depth: depth)
        }
    }

    func endElement(_ local: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?) {
        guard let frame = stack.popLast() else { return }
        let depth = stack.count
        if frame.baseIndex > (stack.last?.baseIndex ?? 0) { basesSlot.pointee.removeLast() }
        if let captureDepth = captureSlot.pointee?.depth {
            if depth == captureDepth {
                var c = captureSlot.pointee.take()!
                finishCapture(&c)
            } else {
                captureEnd(local)
            }
            return
        }
        if depth == skipDepth { skipDepth = -1; return }
        if skipDepth >= 0 { return }
        if depth == authorDepth {
            authorDepth = -1
            let name = authorName ?? authorEmail
            if entry != nil { entry!.offerAuthor(name, rank: 3) }
            authorName = nil; authorEmail = nil
        }
        if depth == imageDepth { imageDepth = -1 }
        // Moved out of its slot: a copy would retain every field of the item, then release them.
        if depth == entryDepth, let e = entrySlot.pointee.take() {
            entryDepth = -1
            cardCount += 1
            emit(e)
        }
    }

    /// The texts the prepass kept out of libxml2's way (`SideText`), if it does.
    var sideText: SideText?

    /// A processing instruction: one of the prepass's stands for a text (`SideText`); the
    /// document's own are ignored.
    func instruction(_ target: UnsafePointer<UInt8>, _ data: UnsafePointer<UInt8>?) {
        guard let side = sideText, side.isToken(target), let number = SideText.number(data) else { return }
        guard var text = side.take(number) else { return }
        // Most side texts are a field's whole text: the array becomes the field's buffer as it is.
        if captureSlot.pointee?.buffer.isEmpty == true, captureSlot.pointee?.kind != .xhtml, text.count <= maxTextBytes {
            swap(&captureSlot.pointee!.buffer, &text)
            return
        }
        text.withUnsafeBufferPointer { characters($0) }
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Through the slot itself: the `capture` accessors are a coroutine call each.
        guard captureSlot.pointee != nil else { return }
        if captureSlot.pointee!.buffer.count + bytes.count > maxTextBytes {
            if !captureSlot.pointee!.truncated {
                captureSlot.pointee!.truncated = true
                warnings.append("a text element longer than \(maxTextBytes) bytes was cut short")
            }
            return
        }
        if captureSlot.pointee!.kind == .xhtml {
            captureSlot.pointee!.appendEscaped(bytes)
        } else if captureSlot.pointee!.buffer.isEmpty && captureSlot.pointee!.buffer.capacity < bytes.count {
            // Most fields arrive in one piece: one allocation of the right size, where the
            // first append would go through the array's growth path.
            captureSlot.pointee!.buffer = Array(bytes)
        } else {
            captureSlot.pointee!.buffer.append(contentsOf: bytes)
        }
    }

    // MARK: - root

    private func startRoot(_ local: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?, _ attrs: SAXAttributes) {
        let name = String(cString: local)
        rootName = name
        var ns = namespace(uri)
        let t = tag(local)
        rootTag = t
        if t == .rss, ns == .unknown, let uri {
            // <rss xmlns="..."> : a default namespace on RSS means nothing; read it as plain RSS.
            namespaces.set(Namespace.none, for: UnsafeRawPointer(uri))
            ns = .none
        }
        if t == .feed && ns == .none { atomWithoutNamespace = true }
        switch (t, ns) {
        case (.rss, _):
            switch attrs.value(named: "version")?.trimmingASCIIWhitespace {
            case "0.91": format = .rss091
            case "0.92": format = .rss092
            case "0.93": format = .rss093
            case "0.94": format = .rss094
            case "2.0", "2.0.1", "2": format = .rss20
            default: format = .rss
            }
        case (.RDF, _): format = .rss10
        case (.feed, .atom03): format = .atom03
        case (.feed, .atom10): format = .atom10
        case (.feed, _): format = .atom
        case (.entry, .atom03): format = .atom03
        case (.entry, .atom10): format = .atom10
        case (.channel, _): format = .rss
        default: break
        }
    }

    // MARK: - feed level

    private func feedStart(_ ns: Namespace, _ t: Tag, _ attrs: SAXAttributes, base: String?, depth: Int) {
        let parent = stack[depth - 1].tag
        if (t == .item && ns.isRSS) || (t == .entry && ns.isAtom) {
            entry = EntryFields()
            entry!.localFolder = localFolder
            entryDepth = depth
            if format == nil { format = ns.isAtom ? .atom : .rss }
            if let about = attrs.value(named: "about", namespace: .rdf) { entry!.id.offer(about, rank: 1) }
            return
        }
        if imageDepth >= 0 {
            if t == .url && ns.isRSS { beginCapture(.feedImage, kind: .text, base: base, depth: depth, rank: 3) }
            return
        }
        let atChannel = parent == .channel || parent == .feed || (parent == .RDF && t == .image)
        guard atChannel else { return }
        switch (ns, t) {
        case (_, .image) where ns.isRSS:
            imageDepth = depth
        case (_, .textinput) where ns.isRSS:
            skipDepth = depth
        case (_, .title) where ns.isRSS:
            beginCapture(.feedTitle, kind: .guess, base: base, depth: depth, rank: 3)
        case (_, .title) where ns.isAtom:
            beginCapture(.feedTitle, kind: atomKind(attrs), base: base, depth: depth, rank: 3, base64: isBase64(attrs))
        case (.dc, .title):
            beginCapture(.feedTitle, kind: .guess, base: base, depth: depth, rank: 2)
        case (_, .link) where ns.isRSS:
            if let href = attrs.value(named: "href") {
                // An Atom-style link in RSS (`atom:link` without its namespace declared): only
                // the alternate one is the site (rel="self" is the feed's own URL).
                guard Self.isAlternate(attrs) else { break }
                feed.link.offer(CardURL.resolve(href, against: base), rank: 3)
            } else {
                beginCapture(.feedLink, kind: .text, base: base, depth: depth, rank: 3)
            }
        case (_, .link) where ns.isAtom:
            let rel = attrs.value(named: "rel")?.lowercased() ?? "alternate"
            if rel == "alternate", let href = attrs.value(named: "href") {
                feed.link.offer(CardURL.resolve(href, against: base), rank: format?.isAtom == true ? 3 : 2)
            }
        case (_, .description) where ns.isRSS:
            beginCapture(.feedDescription, kind: .html, base: base, depth: depth, rank: 3)
        case (_, .subtitle) where ns.isAtom, (_, .tagline) where ns.isAtom:
            beginCapture(.feedDescription, kind: atomKind(attrs), base: base, depth: depth, rank: 3, base64: isBase64(attrs))
        case (.dc, .description):
            beginCapture(.feedDescription, kind: .html, base: base, depth: depth, rank: 2)
        case (.itunes, .summary):
            beginCapture(.feedDescription, kind: .text, base: base, depth: depth, rank: 2)
        case (.itunes, .subtitle):
            beginCapture(.feedDescription, kind: .text, base: base, depth: depth, rank: 1)
        case (_, .logo) where ns.isAtom:
            beginCapture(.feedImage, kind: .text, base: base, depth: depth, rank: 3)
        case (_, .icon) where ns.isAtom:
            beginCapture(.feedImage, kind: .text, base: base, depth: depth, rank: 1)
        case (.itunes, .image), (.itunes, .link):
            feed.image.offer(itunesImage(t, attrs, base: base), rank: 2)
        case (.media, .thumbnail):
            if let url = attrs.value(named: "url") { feed.image.offer(CardURL.resolve(url, against: base), rank: 0) }
        case (_, .ttl) where ns.isRSS:
            beginCapture(.ttl, kind: .text, base: base, depth: depth, rank: 0)
        case (.sy, .updatePeriod):
            beginCapture(.updatePeriod, kind: .text, base: base, depth: depth, rank: 0)
        case (.sy, .updateFrequency):
            beginCapture(.updateFrequency, kind: .text, base: base, depth: depth, rank: 0)
        case (_, .author) where ns.isAtom, (_, .contributor) where ns.isAtom:
            skipDepth = depth
        default:
            break
        }
    }

    // MARK: - item level

    /// Whether a child element ends the capture instead of being written into it.
    private func interruptsCapture(_ target: CaptureTarget, _ ns: Namespace, _ t: Tag, direct: Bool, attributes: Int) -> Bool {
        if ns == .dc || ns == .dcterms || ns == .content { return entry != nil }   // never HTML
        guard ns.isRSS || ns.isAtom else { return false }
        if t == .item || t == .entry { return true }
        switch target {
        case .content, .summary, .feedDescription, .looseImage:
            // Bodies may hold any markup; what HTML has no element for is the item's next field,
            // reached because the body's end tag is missing. A title or link only right inside
            // the body while the item has none, and a link only without attributes (HTML's
            // `<link rel=…>`, an `<svg><title>` are not the item's).
            guard entry != nil else { return false }
            switch t {
            case .guid, .pubDate, .published, .updated, .enclosure, .description: return true
            case .id, .content: return ns.isAtom
            case .title: return direct && entry!.title.value == nil
            case .link: return direct && (attributes == 0 || ns.isAtom) && entry!.link.value == nil
            default: return false
            }
        default: break
        }
        switch t {
        case .title, .link, .description, .guid, .pubDate, .author, .enclosure, .summary, .content, .id,
             .published, .updated:
            return true
        default:
            return false
        }
    }

    /// True for a child of the entry, or a descendant reached only through broken elements.
    private func isDirectChildOfEntry(_ depth: Int) -> Bool {
        if depth == entryDepth + 1 { return true }
        guard depth > entryDepth + 1 else { return false }
        return stack[(entryDepth + 1)..<depth].allSatisfy(\.broken)
    }

    private func entryStart(_ ns: Namespace, _ t: Tag, _ attrs: SAXAttributes, base: String?, depth: Int) {
        if (t == .item && ns.isRSS) || (t == .entry && ns.isAtom) {
            // An item inside an item: the first was never closed. It ends here.
            if let e = entrySlot.pointee.take() { cardCount += 1; emit(e) }
            feedStart(ns, t, attrs, base: base, depth: depth)
            return
        }
        if authorDepth >= 0 {
            if ns.isAtom && t == .name { beginCapture(.authorName, kind: .text, base: base, depth: depth, rank: 0) }
            if ns.isAtom && t == .email { beginCapture(.authorEmail, kind: .text, base: base, depth: depth, rank: 0) }
            return
        }
        // Core elements count only as children of the item itself: an <id> inside some
        // extension element of the entry is not the entry's id.
        if !isDirectChildOfEntry(depth) && (ns.isRSS || ns.isAtom || ns == .dc || ns == .dcterms || ns == .content) { return }
        switch (ns, t) {
        case (_, .source) where ns.isAtom, (_, .contributor) where ns.isAtom:
            skipDepth = depth   // another feed's metadata, or people other than the author
        case (_, .title) where ns.isRSS:
            beginCapture(.title, kind: .guess, base: base, depth: depth, rank: 3)
        case (_, .title) where ns.isAtom:
            beginCapture(.title, kind: atomKind(attrs), base: base, depth: depth, rank: 3, base64: isBase64(attrs))
        case (.dc, .title):
            beginCapture(.title, kind: .guess, base: base, depth: depth, rank: 2)
        case (.media, .title):
            beginCapture(.title, kind: attrs.value(named: "type") == "html" ? .html : .guess, base: base, depth: depth, rank: 1)
        case (_, .link) where ns.isRSS:
            if let href = attrs.value(named: "href") {
                guard Self.isAlternate(attrs) else { break }   // as at the feed level
                entry!.link.offer(CardURL.resolve(href, against: base), rank: 3)
            } else {
                beginCapture(.link, kind: .text, base: base, depth: depth, rank: 3)
            }
        case (_, .link) where ns.isAtom:
            atomLink(attrs, base: base, depth: depth)
        case (_, .guid) where ns.isRSS:
            let permalink = attrs.value(named: "isPermaLink")?.trimmingASCIIWhitespace.lowercased() != "false"
            beginCapture(permalink ? .permalinkGuid : .guid, kind: .text, base: base, depth: depth, rank: 3)
        case (_, .id) where ns.isAtom:
            beginCapture(.id, kind: .text, base: base, depth: depth, rank: 3)
        case (_, .description) where ns.isRSS:
            beginCapture(.summary, kind: .html, base: base, depth: depth, rank: 3)
        case (_, .summary) where ns.isAtom:
            beginCapture(.summary, kind: atomKind(attrs), base: base, depth: depth, rank: 3, base64: isBase64(attrs))
        case (.dc, .description):
            beginCapture(.summary, kind: .html, base: base, depth: depth, rank: 2)
        case (.itunes, .summary):
            beginCapture(.summary, kind: .text, base: base, depth: depth, rank: 1)
        case (.media, .description):
            beginCapture(.summary, kind: attrs.value(named: "type") == "html" ? .html : .text, base: base, depth: depth, rank: 0)
        case (.content, .encoded):
            beginCapture(.content, kind: .html, base: base, depth: depth, rank: 3)
        case (_, .content) where ns.isAtom:
            guard attrs.value(named: "src") == nil else { break }   // out-of-line content: nothing to show
            beginCapture(.content, kind: atomKind(attrs), base: base, depth: depth, rank: 3, base64: isBase64(attrs))
        case (.xhtml, .body), (.none, .body):
            beginCapture(.content, kind: .xhtml, base: base, depth: depth, rank: 2)
        case (_, .fullitem) where ns.isRSS:
            beginCapture(.content, kind: .html, base: base, depth: depth, rank: 1)
        case (_, .pubDate) where ns.isRSS, (_, .published) where ns.isAtom:
            beginCapture(.published, kind: .text, base: base, depth: depth, rank: 3)
        case (_, .issued) where ns.isAtom:
            beginCapture(.published, kind: .text, base: base, depth: depth, rank: 2)
        case (.dcterms, .issued):
            beginCapture(.published, kind: .text, base: base, depth: depth, rank: 1)
        case (_, .updated) where ns.isAtom:
            beginCapture(.updated, kind: .text, base: base, depth: depth, rank: 3)
        case (_, .modified) where ns.isAtom, (.dcterms, .modified):
            beginCapture(.updated, kind: .text, base: base, depth: depth, rank: 2)
        case (.dc, .date):
            beginCapture(.updated, kind: .text, base: base, depth: depth, rank: 1)
        case (_, .author) where ns.isRSS, (.dc, .creator), (.dc, .author):
            beginCapture(.author, kind: .guess, base: base, depth: depth, rank: 3)
        case (_, .author) where ns.isAtom:
            authorDepth = depth
        case (.itunes, .author):
            beginCapture(.author, kind: .text, base: base, depth: depth, rank: 1)
        case (_, .enclosure) where ns.isRSS:
            if !entry!.addEnclosure(url: attrs.value(named: "url") ?? attrs.value(named: "href"),
                                    type: attrs.value(named: "type"), length: attrs.value(named: "length"), base: base) {
                refusedLength()
            }
        case (.media, .thumbnail):
            if entry!.thumbnail == nil, let url = attrs.value(named: "url") {
                entry!.thumbnail = CardURL.resolve(url, against: base)
            }
        case (.media, .content):
            mediaContent(attrs, base: base)
        case (.itunes, .image), (.itunes, .link):
            if entry!.itunesImage == nil { entry!.itunesImage = itunesImage(t, attrs, base: base) }
        case (_, .image) where ns.isRSS:
            if let href = attrs.value(named: "href") ?? attrs.value(named: "url") ?? attrs.value(named: "src") {
                if entry!.looseImage == nil { entry!.looseImage = CardURL.resolve(href, against: base) }
            } else {
                beginCapture(.looseImage, kind: .html, base: base, depth: depth, rank: 0)
            }
        default:
            break
        }
    }

    /// One warning per document, however many enclosures had a bad length.
    private func refusedLength() {
        refusedLengths += 1
        if refusedLengths == 1 {
            warnings.append(IgnoredValue.warning("enclosure lengths that are not sizes from \(Enclosure.lengthRange.lowerBound) to \(Enclosure.lengthRange.upperBound) bytes"))
        }
    }

    private func atomKind(_ attrs: SAXAttributes) -> TextKind {
        TextKind.atom(type: attrs.value(named: "type"), mode: attrs.value(named: "mode")?.lowercased())
    }

    /// The URL of `itunes:image href=` (or `url=`), or of its old spelling `itunes:link rel="image"`.
    private func itunesImage(_ t: Tag, _ attrs: SAXAttributes, base: String?) -> String? {
        if t == .link && attrs.value(named: "rel")?.lowercased() != "image" { return nil }
        guard let href = attrs.value(named: "href") ?? attrs.value(named: "url") else { return nil }
        return CardURL.resolve(href, against: base)
    }

    /// Atom 0.3's mode="base64", or an Atom 1.0 type that is a MIME type neither text nor XML
    /// (RFC 4287 4.1.3.3: such content is base64).
    private func isBase64(_ attrs: SAXAttributes) -> Bool {
        if attrs.value(named: "mode")?.lowercased() == "base64" { return true }
        guard let type = attrs.value(named: "type")?.trimmingASCIIWhitespace.lowercased(), type.contains("/") else { return false }
        let essence = type.split(separator: ";").first.map(String.init) ?? type
        return !essence.hasPrefix("text/") && !essence.hasSuffix("+xml") && !essence.hasSuffix("/xml")
            && !(attrs.value(named: "mode")?.lowercased() == "escaped" || attrs.value(named: "mode")?.lowercased() == "xml")
    }

    /// A link without rel, or rel="alternate".
    private static func isAlternate(_ attrs: SAXAttributes) -> Bool {
        guard let rel = attrs.value(named: "rel")?.trimmingASCIIWhitespace.lowercased() else { return true }
        return rel == "alternate" || rel.isEmpty
    }

    private func atomLink(_ attrs: SAXAttributes, base: String?, depth: Int) {
        let rel = attrs.value(named: "rel")?.trimmingASCIIWhitespace.lowercased() ?? "alternate"
        let type = attrs.value(named: "type")?.lowercased()
        guard let href = attrs.value(named: "href") else {
            // Pre-standard Atom put the URL in the element's text.
            if rel == "alternate" { beginCapture(.link, kind: .text, base: base, depth: depth, rank: 3) }
            return
        }
        switch rel {
        case "alternate", "http://www.iana.org/assignments/relation/alternate":
            // Prefer the HTML page over other alternates (a PDF, a JSON twin).
            let htmlish = type == nil || type == "text/html" || type == "application/xhtml+xml"
            entry!.link.offer(CardURL.resolve(href, against: base), rank: format?.isAtom == true ? (htmlish ? 3 : 2) : 2)
        case "enclosure":
            if !entry!.addEnclosure(url: href, type: type, length: attrs.value(named: "length"), base: base) { refusedLength() }
        default:
            break
        }
    }

    private func mediaContent(_ attrs: SAXAttributes, base: String?) {
        guard entry!.mediaImage == nil, let url = attrs.value(named: "url") else { return }
        let medium = attrs.value(named: "medium")?.lowercased()
        let type = attrs.value(named: "type")?.lowercased()
        let isImage = medium == "image" || (type?.hasPrefix("image/") ?? false)
            || (medium == nil && type == nil && WebAddress.looksLikeImageURL(CardURL.resolve(url, against: base)))
        if isImage { entry!.mediaImage = CardURL.resolve(url, against: base) }
    }
}

extension FeedFormat {
    var isAtom: Bool { self == .atom03 || self == .atom10 || self == .atom }
}

/// One value in its own allocation (freed with `freeSlot`).
private func makeSlot<Value>(_ value: Value) -> UnsafeMutablePointer<Value> {
    let slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    slot.initialize(to: value)
    return slot
}

private func freeSlot<Value>(_ slot: UnsafeMutablePointer<Value>) {
    slot.deinitialize(count: 1)
    slot.deallocate()
}
