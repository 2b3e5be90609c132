import CLibXML2
import Foundation
import TestSupport
import XCTest

/// Well-formed XML out (issue 15): hostile characters in every field of a feed (each C0 and
/// C1 control, DEL, U+FFFE, U+FFFF, the edges of XML's character ranges, markup characters,
/// `]]>`, CR LF) go through `feeds update`; `feeds export`, `sources.opml` and `digest.atom` are
/// then parsed by libxml2 and must be well-formed, with the text around the hostile
/// characters still there.
final class WellFormedXMLTests: XCTestCase {
    /// Every class of character XML 1.0 forbids, and the allowed ones at the edges.
    static let hostile: [String] = {
        var out = (0x00...0x1F).map { String(UnicodeScalar($0)!) } + ["\u{7F}"]
        out += (0x80...0x9F).map { String(UnicodeScalar($0)!) }
        out += [0xFFFE, 0xFFFF, 0xFFFD, 0xFEFF, 0xD7FF, 0xE000, 0x1FFFE, 0x10FFFF, 0xFFEF, 0xFDD0].map { String(UnicodeScalar(UInt32($0))!) }
        out += ["]]>", "&", "<", ">", "\"", "'", "&amp;", "&#0;", "<![CDATA[", "\r\n", "\r", "\u{2028}", "\u{202E}"]
        return out
    }()

    /// A JSON Feed string literal (JSON can carry every one of them).
    static func json(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if u.value < 0x20 || (u.value >= 0x7F && u.value < 0xA0) || u.value == 0xFFFE || u.value == 0xFFFF {
                    out += String(format: "\\u%04X", u.value)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// One item per hostile value, the value in every field of the item (and, for the first
    /// item's value, of the feed).
    static func feed(sample: Int) -> String {
        let v = { (i: Int) in "A" + hostile[i % hostile.count] + "Z" }
        var items: [String] = []
        for i in 0..<hostile.count {
            let h = v(i)
            items.append("""
                {"id": \(json("id\(i)" + h)), "url": \(json("https://example.org/" + h)), "title": \(json("title" + h)),
                 "content_html": \(json("<p>" + h + "</p>")), "summary": \(json(h)),
                 "date_published": "2024-06-01T12:00:\(String(format: "%02d", i % 60))Z",
                 "authors": [{"name": \(json(h))}], "tags": [\(json(h))],
                 "image": \(json("https://example.org/i.png?" + h)),
                 "attachments": [{"url": \(json("https://example.org/a.mp3?" + h)), "mime_type": \(json("audio/" + h)), "size_in_bytes": 10}]}
                """)
        }
        let h = v(sample)
        return """
            {"version": "https://jsonfeed.org/version/1.1", "title": \(json("Feed" + h)),
             "home_page_url": \(json("https://example.org/" + h)), "description": \(json(h)), "items": [\(items.joined(separator: ",\n"))]}
            """
    }

    /// Nil when libxml2 reads `text` as well-formed XML; else its first error.
    static func wellFormedProblem(_ text: String) -> String? {
        xmlInitParser()
        let bytes = Array(text.utf8)
        guard let context = xmlNewParserCtxt() else { return "no parser context" }
        defer { xmlFreeParserCtxt(context) }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let doc = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                xmlCtxtReadMemory(context, $0, Int32(bytes.count), "out.xml", "UTF-8", options)
            }
        }
        defer { if let doc { xmlFreeDoc(doc) } }
        if doc != nil && context.pointee.wellFormed != 0 { return nil }
        let error = xmlCtxtGetLastError(context)
        return error.map { "line \($0.pointee.line): " + ($0.pointee.message.map { String(cString: $0) } ?? "?") } ?? "not well-formed"
    }

    func testHostileFieldsGiveWellFormedExportOPMLAndAtom() throws {
        for sample in [0, 8, 0x1B, 32, 34, 44, 45] {
            let dir = TemporaryDirectory("feeds-xml-out")
            try Self.feed(sample: sample).write(to: dir.file("hostile.json"), atomically: false, encoding: .utf8)
            try "hostile.json\n".write(to: dir.file("sources"), atomically: false, encoding: .utf8)
            let update = try FeedsCommand.run(["--home", dir.path, "update", "--all"])
            XCTAssertEqual(update.status, 0, update.stderr)

            let export = try FeedsCommand.run(["--home", dir.path, "export"])
            XCTAssertEqual(export.status, 0)
            XCTAssertNil(Self.wellFormedProblem(export.stdout), "export, sample \(sample): \(export.stdout.debugDescription)")
            XCTAssertTrue(export.stdout.contains("title=\"Feed"), export.stdout)

            let site = dir.path + "/site"
            let html = try FeedsCommand.run(["--home", dir.path, "html", "--out", site, "--since", "2024-01-01", "--no-images"])
            XCTAssertEqual(html.status, 0, html.stderr)
            for name in ["sources.opml", "digest.atom"] {
                let text = try String(contentsOfFile: site + "/" + name, encoding: .utf8)
                XCTAssertNil(Self.wellFormedProblem(text), "\(name), sample \(sample)")
            }
            let atom = try String(contentsOfFile: site + "/digest.atom", encoding: .utf8)
            XCTAssertEqual(atom.components(separatedBy: "<entry>").count - 1, Self.hostile.count, "every item is in the feed")
            XCTAssertFalse(atom.unicodeScalars.contains { $0.value == 0xFFFE || $0.value == 0xFFFF || ($0.value < 0x20 && $0 != "\n" && $0 != "\t") })
        }
    }

    /// The checker itself: the forbidden characters do make libxml2 refuse a document.
    func testTheCheckerRefusesWhatXMLForbids() {
        XCTAssertNil(Self.wellFormedProblem("<a t=\"x\">ok \u{FFFD}</a>"))
        for bad in ["\u{1}", "\u{1B}", "\u{FFFE}", "\u{FFFF}", "\u{0}"] {
            XCTAssertNotNil(Self.wellFormedProblem("<a>x" + bad + "y</a>"), bad.debugDescription)
        }
    }
}
