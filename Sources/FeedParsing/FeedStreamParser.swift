import FeedModel

/// The parser's entry point: bytes in, in chunks of any size; cards out, one at a time, as soon
/// as each item closes; feed-level data at the end. Memory does not grow with the document
/// (JSON Feed excepted: JSON is read whole, within `maxBytes`).
///
/// The format is detected from the content: JSON when the first character is `{`, else XML
/// (RSS 0.9x/1.0/2.0 or Atom 0.3/1.0, told apart by the root element and its namespace).
public final class FeedStreamParser {
    private enum Mode { case sniffing, xml, json, done }

    private let options: ParseOptions
    private let onCard: (Card) -> Void
    private var mode = Mode.sniffing
    private var head: [UInt8] = []
    private var transcoder: Transcoder?
    private var prepass: XMLPrepass
    private var builder: XMLFeedBuilder?
    private var parser: PushParser?
    private var pipeline: CardPipeline?
    private var json: [UInt8] = []
    /// The whole JSON document, once its end has been seen.
    private var pendingJSON: [UInt8]?
    private var bytesSeen = 0
    private var truncated = false
    private var decoded: [UInt8] = []
    private var prepared = ByteSink()

    public init(options: ParseOptions = ParseOptions(), onCard: @escaping (Card) -> Void) {
        self.options = options
        prepass = XMLPrepass(handOver: options.textHandOver)
        self.onCard = onCard
    }

    /// Reads the next chunk.
    public func push(_ chunk: UnsafeRawBufferPointer) throws {
        guard mode != .done, !truncated else { return }
        var bytes = chunk.bindMemory(to: UInt8.self)
        if bytesSeen + bytes.count > options.maxBytes {
            bytes = UnsafeBufferPointer(rebasing: bytes.prefix(max(0, options.maxBytes - bytesSeen)))
            truncated = true
        }
        bytesSeen += bytes.count
        if mode == .sniffing {
            head.append(contentsOf: bytes)
            if head.count < EncodingSniffer.wanted && !truncated { return }
            try startDecoding(final: false)
            return
        }
        try consume(bytes, final: false)
    }

    public func push(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try push($0) }
    }

    deinit { pipeline?.finish() }

    /// Ends the input and returns what was found besides the cards.
    public func finish() throws -> FeedSummary {
        // However this ends, no `onCard` call may follow it.
        defer { pipeline?.finish() }
        if mode == .sniffing { try startDecoding(final: true) } else { try consume(UnsafeBufferPointer(start: nil, count: 0), final: true) }
        pipeline?.finish()
        mode = .done
        var warnings: [String] = []
        if truncated { warnings.append("the document is larger than \(options.maxBytes) bytes; only the first \(options.maxBytes) were read") }
        if let t = transcoder, t.repairedBytes > 0 {
            warnings.append("\(t.repairedBytes) bytes were not valid \(t.encoding) and were read as windows-1252")
        }
        if let json = pendingJSON {
            pendingJSON = nil
            let result = try JSONFeedReader.read(json, base: options.baseURL)
            result.cards.forEach(onCard)
            return FeedSummary(feed: result.feed, format: result.format, cardCount: result.cards.count, warnings: warnings)
        }
        guard let builder else { throw FeedParseError.empty }
        try checkIsFeed(builder)
        warnings += prepass.warnings + builder.warnings
        var damage: ParseDamage?
        let repairs = prepass.repairs
        if repairs.count > 0 || parser?.wellFormed == false {
            let d = ParseDamage(line: repairs.firstLine, itemsSeen: max(prepass.itemsSeen, builder.cardCount),
                                itemsKept: builder.cardCount, itemsDamaged: prepass.damagedItems)
            warnings.insert(d.description, at: 0)
            damage = d
        }
        return FeedSummary(feed: builder.feed.info(), format: builder.format, cardCount: builder.cardCount, warnings: warnings,
                           damage: damage)
    }

    private func startDecoding(final: Bool) throws {
        let sniffed = EncodingSniffer.sniff(head[...], hint: options.charset)
        let t = Transcoder(encoding: sniffed.encoding)
        transcoder = t
        let body = head.dropFirst(sniffed.bomLength)
        head = []
        decoded.removeAll(keepingCapacity: true)
        body.withUnsafeBufferPointer { t.decode($0, final: final, into: &decoded) }
        // Skip white space and any BOM left in the text to see what kind of document this is.
        var i = 0
        while i < decoded.count {
            let c = decoded[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1; continue }
            if c == 0xEF, i + 2 < decoded.count, decoded[i + 1] == 0xBB, decoded[i + 2] == 0xBF { i += 3; continue }
            break
        }
        guard i < decoded.count else {
            if final { throw FeedParseError.empty }
            // Only white space so far: keep reading as XML, the prepass drops it.
            try beginXML(); try decoded.withUnsafeBufferPointer { try feedXML($0, final: final) }; return
        }
        if decoded[i] == UInt8(ascii: "{") {
            mode = .json
            json = Array(decoded[i...])
            if final { pendingJSON = json; json = [] }
            return
        }
        guard decoded.prefix(4096).contains(UInt8(ascii: "<")) else {
            throw FeedParseError.notAFeed(Self.describeNonFeed(decoded))
        }
        try beginXML()
        try decoded.withUnsafeBufferPointer { try feedXML($0, final: final) }
    }

    private func beginXML() throws {
        mode = .xml
        let emit: (consuming EntryFields) -> Void
        if options.concurrentCards {
            let p = CardPipeline(onCard: onCard)
            pipeline = p
            emit = { p.submit($0) }
        } else {
            let onCard = onCard
            emit = { onCard($0.card()) }
        }
        let b = XMLFeedBuilder(documentBase: options.baseURL, maxDepth: options.maxDepth,
                               maxTextBytes: options.maxTextBytes, emit: emit)
        b.sideText = prepass.side
        builder = b
        parser = try PushParser(receiver: b)
    }

    private func consume(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) throws {
        guard let transcoder else { return }
        if case .xml = mode, transcoder.passesThrough(bytes) {
            // Well-formed UTF-8 that needs no repair: the input is its own decoding, no copy.
            try feedXML(bytes, final: final)
            return
        }
        decoded.removeAll(keepingCapacity: true)
        transcoder.decode(bytes, final: final, into: &decoded)
        switch mode {
        case .json:
            json.append(contentsOf: decoded)
            if final { pendingJSON = json; json = [] }
        case .xml:
            try decoded.withUnsafeBufferPointer { try feedXML($0, final: final) }
        default:
            break
        }
    }

    private func feedXML(_ text: UnsafeBufferPointer<UInt8>, final: Bool) throws {
        guard let parser, let builder else { return }
        // Through the prepass and into libxml2 in slices: a depth bound stops the parser
        // promptly, and the texts the prepass keeps aside (`SideText`) are taken slice by slice
        // (a whole document pushed at once would otherwise wait there whole).
        let step = 64 << 10
        var start = text.startIndex
        repeat {
            let end = min(text.endIndex, start + step)
            let last = final && end == text.endIndex
            prepared.removeAll()
            prepass.process(UnsafeBufferPointer(rebasing: text[start..<end]), final: last, into: &prepared)
            prepared.withUnsafeBufferPointer { parser.push($0, terminate: last) }
            if builder.stopRequested { parser.stop(); break }
            start = end
        } while start < text.endIndex
    }

    private func checkIsFeed(_ b: XMLFeedBuilder) throws {
        switch b.rootTag {
        case .none:
            // Markup without a single element (only a declaration or a comment): an empty,
            // broken feed rather than something else entirely.
            b.warnings.append("no XML element found; the feed is empty")
        case .some(.html), .some(.head):
            throw FeedParseError.notAFeed("this is an HTML page (the feed may be linked from it)")
        case .some(.opml):
            throw FeedParseError.notAFeed("this is an OPML list of feeds; add its feeds with `feeds import`")
        default:
            if b.format == nil && b.cardCount == 0 {
                throw FeedParseError.notAFeed("the root element <\(b.rootName ?? "?")> is not RSS, RDF or Atom")
            }
        }
    }

    static func describeNonFeed(_ bytes: [UInt8]) -> String {
        let sample = bytes.prefix(512)
        let controls = sample.filter { $0 < 0x09 || ($0 > 0x0D && $0 < 0x20) }.count
        if controls > 0 || sample.contains(0xEF) && sample.contains(0xBD) {
            return "binary data, not XML or JSON"
        }
        return "plain text, not XML or JSON"
    }
}
