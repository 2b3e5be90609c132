import Foundation
import CLibXML2

/// The attributes array of SAX2's startElementNs: five pointers per attribute
/// (local name, prefix, URI, value start, value end).
struct SAXAttributes {
    let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    func localName(_ i: Int) -> UnsafePointer<xmlChar> { base![i * 5]! }
    func prefix(_ i: Int) -> UnsafePointer<xmlChar>? { base![i * 5 + 1] }
    func uri(_ i: Int) -> UnsafePointer<xmlChar>? { base![i * 5 + 2] }
    func value(_ i: Int) -> String {
        guard let start = base![i * 5 + 3], let end = base![i * 5 + 4] else { return "" }
        let bytes = UnsafeBufferPointer(start: start, count: max(0, end - start))
        // Without entity substitution libxml2 hands out '&' in attribute values as "&#38;"
        // (for its own tree builder to decode later); it writes no other reference there.
        guard let first = bytes.firstIndex(of: 0x26) else { return String(decoding: bytes, as: UTF8.self) }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<first]))
        var k = first
        while k < bytes.count {
            if bytes[k] == 0x26, k + 4 < bytes.count, bytes[k + 1] == 0x23, bytes[k + 2] == 0x33, bytes[k + 3] == 0x38,
               bytes[k + 4] == 0x3B {
                out.append(0x26)
                k += 5
            } else {
                out.append(bytes[k])
                k += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of the un-namespaced (or any-namespace, when `anyNamespace`) attribute `name`.
    func value(named name: StaticString, anyNamespace: Bool = false) -> String? {
        for i in 0..<count where anyNamespace || uri(i) == nil {
            if cStringEquals(localName(i), name) { return value(i) }
        }
        return nil
    }

    /// The value of `xml:base`, if present.
    var xmlBase: String? {
        for i in 0..<count {
            if let p = prefix(i), cStringEquals(p, "xml"), cStringEquals(localName(i), "base") { return value(i) }
        }
        return nil
    }

    /// The value of `rdf:about` (any prefix whose URI is RDF's).
    func value(named name: StaticString, namespace: Namespace) -> String? {
        for i in 0..<count {
            guard let u = uri(i), cStringEquals(localName(i), name) else { continue }
            if Namespace.from(uri: String(cString: u)) == namespace { return value(i) }
        }
        return nil
    }
}

@inline(__always)
func cStringEquals(_ p: UnsafePointer<xmlChar>, _ s: StaticString) -> Bool {
    let n = s.utf8CodeUnitCount
    let q = s.utf8Start
    for i in 0..<n where p[i] != q[i] { return false }
    return p[n] == 0
}

/// One libxml2 SAX2 push parser driving an `XMLFeedBuilder` (a concrete class: the callbacks run
/// for every element and text node, so no dynamic dispatch or casts on that path), freed in deinit. Options: recover from errors, never touch
/// the network, never substitute entities (no XXE), ignore the document's encoding declaration
/// (the input layer has already turned everything into UTF-8).
final class PushParser {
    private let ctxt: xmlParserCtxtPtr
    private var handler = xmlSAXHandler()
    private(set) var stopped = false

    static let initialized: Bool = {
        xmlInitParser()
        cxml_silence_errors()
        return true
    }()

    init(receiver: XMLFeedBuilder) throws {
        _ = PushParser.initialized
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { ctx, local, _, uri, _, _, nAttrs, _, attrs in
            guard let ctx, let local else { return }
            // The builder outlives the parser (see `init`): no retain and release per event.
            Unmanaged<XMLFeedBuilder>.fromOpaque(ctx)._withUnsafeGuaranteedRef {
                $0.startElement(local, uri, SAXAttributes(base: attrs, count: Int(nAttrs)))
            }
        }
        handler.endElementNs = { ctx, local, _, uri in
            guard let ctx, let local else { return }
            Unmanaged<XMLFeedBuilder>.fromOpaque(ctx)._withUnsafeGuaranteedRef { $0.endElement(local, uri) }
        }
        let text: charactersSAXFunc = { ctx, ch, len in
            guard let ctx, let ch, len > 0 else { return }
            Unmanaged<XMLFeedBuilder>.fromOpaque(ctx)._withUnsafeGuaranteedRef {
                $0.characters(UnsafeBufferPointer(start: ch, count: Int(len)))
            }
        }
        handler.characters = text
        handler.cdataBlock = text
        handler.processingInstruction = { ctx, target, data in
            guard let ctx, let target else { return }
            Unmanaged<XMLFeedBuilder>.fromOpaque(ctx)._withUnsafeGuaranteedRef { $0.instruction(target, data) }
        }
        // Errors are counted by libxml2 in the context; the default printers write to stderr.
        handler.error = nil
        handler.warning = nil
        handler.serror = { _, _ in }
        let ctx = Unmanaged.passUnretained(receiver).toOpaque()
        guard let c = xmlCreatePushParserCtxt(&handler, ctx, nil, 0, nil) else {
            throw FeedParseError.internal("libxml2 could not create a parser")
        }
        ctxt = c
        let options = Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_COMPACT.rawValue | XML_PARSE_IGNORE_ENC.rawValue)
        xmlCtxtUseOptions(ctxt, options)
        xmlSwitchEncoding(ctxt, XML_CHAR_ENCODING_UTF8)
    }

    deinit {
        if let doc = ctxt.pointee.myDoc { xmlFreeDoc(doc) }
        xmlFreeParserCtxt(ctxt)
    }

    /// Feeds UTF-8 bytes; `terminate` on the last call.
    func push(_ bytes: UnsafeBufferPointer<UInt8>, terminate: Bool) {
        guard !stopped else { return }
        let p = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
        _ = xmlParseChunk(ctxt, p, Int32(bytes.count), terminate ? 1 : 0)
    }

    /// Stops parsing at once (a bound was reached); later pushes are ignored.
    func stop() {
        stopped = true
        xmlStopParser(ctxt)
    }

    var wellFormed: Bool { ctxt.pointee.wellFormed != 0 }
    var line: Int { Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer(ctxt))) }
}
