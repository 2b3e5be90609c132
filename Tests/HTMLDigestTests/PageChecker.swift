import CLibXML2
import Foundation

/// Reads a generated page with libxml2's HTML parser (the same reading a browser's would be,
/// near enough) and lists what must never be in it: a `<script>`, an event attribute, a
/// `javascript:` URL, a request that leaves the site's folder (an absolute or scheme-relative
/// URL in anything that loads: `src`, `srcset`, `poster`, `data`, a stylesheet or icon link,
/// a `url(` in a style attribute), or a page without the no-script Content-Security-Policy.
enum PageChecker {
    /// Attributes whose value is a URL (text in `alt` or `title` may mention "javascript:").
    static let urlAttributes: Set<String> = ["href", "src", "srcset", "action", "formaction", "poster", "data", "background",
                                             "cite", "longdesc", "lowsrc", "ping", "xlink:href", "manifest", "usemap"]

    static func problems(in html: String, name: String) -> [String] {
        var problems: [String] = []
        let bytes = Array(html.utf8)
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue)
        guard let doc = bytes.withUnsafeBufferPointer({ p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { htmlReadMemory($0, Int32(bytes.count), name, "UTF-8", options) }
        }) else { return ["\(name): libxml2 could not read the page"] }
        defer { xmlFreeDoc(doc) }
        var sawCSP = false
        func attribute(_ node: xmlNodePtr, _ attr: String) -> String? {
            guard let value = xmlGetProp(node, attr) else { return nil }
            defer { cxml_free(value) }
            return String(cString: value)
        }
        func isExternal(_ url: String) -> Bool {
            let u = url.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            if u.hasPrefix("//") { return true }
            guard let colon = u.firstIndex(of: ":") else { return false }
            let slash = u.firstIndex(of: "/") ?? u.endIndex
            return colon < slash  // a scheme: http:, data:, file:, ...
        }
        func walk(_ first: xmlNodePtr?) {
            var node = first
            while let n = node {
                if n.pointee.type == XML_ELEMENT_NODE {
                    let tag = String(cString: n.pointee.name).lowercased()
                    if tag == "script" { problems.append("\(name): <script>") }
                    if ["iframe", "frame", "object", "embed", "applet", "base", "form"].contains(tag) { problems.append("\(name): <\(tag)>") }
                    if tag == "meta", attribute(n, "http-equiv")?.lowercased() == "content-security-policy",
                       let csp = attribute(n, "content"), csp.contains("default-src 'none'"), !csp.contains("script-src") {
                        sawCSP = true
                    }
                    var attr = n.pointee.properties
                    while let a = attr {
                        let attrName = String(cString: a.pointee.name).lowercased()
                        let value = attribute(n, attrName) ?? ""
                        let lower = value.lowercased().filter { !$0.isWhitespace }
                        if attrName.hasPrefix("on") { problems.append("\(name): event attribute \(attrName) on <\(tag)>") }
                        if urlAttributes.contains(attrName), lower.hasPrefix("javascript:") || lower.hasPrefix("vbscript:") || lower.hasPrefix("data:text/html") {
                            problems.append("\(name): script URL in \(attrName)")
                        }
                        if ["src", "srcset", "poster", "data", "background", "lowsrc"].contains(attrName) {
                            for part in value.split(separator: ",") where isExternal(String(part)) {
                                problems.append("\(name): external request \(attrName)=\(value)")
                            }
                        }
                        if tag == "link", attrName == "href", isExternal(value),
                           let rel = attribute(n, "rel")?.lowercased(), !["alternate"].contains(rel) {
                            problems.append("\(name): external \(rel) \(value)")
                        }
                        if attrName == "style", lower.contains("url(") { problems.append("\(name): url( in a style attribute") }
                        attr = a.pointee.next
                    }
                    if tag == "style" { problems.append("\(name): inline <style> (the CSP allows only style.css)") }
                }
                walk(n.pointee.children)
                node = n.pointee.next
            }
        }
        walk(doc.pointee.children)
        if !sawCSP { problems.append("\(name): no Content-Security-Policy that forbids scripts") }
        return problems
    }
}
