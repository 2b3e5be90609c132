import CLibXML2

/// One walk over a whole web page's elements for what it announces in markup (feed links,
/// preview images): the page's first `<base href>` is taken, and script, style, template, svg
/// and math subtrees are skipped (nothing there is announced to a reader). Feed discovery and
/// page previews both read pages this way.
enum HTMLPageWalk {
    /// Calls `visit` with each element and its lower-case name; returns the base the page's
    /// links resolve against: its `<base href>` resolved against `base`, else `base`.
    static func elements(of document: HTMLDocument, base: String?, _ visit: (xmlNodePtr, String) -> Void) -> String? {
        var pageBase: String?
        Node.walk(from: document.firstNode, enter: { node, _ in
            guard Node.isElement(node) else { return false }
            let name = Node.name(node)
            switch name {
            case "base":
                if pageBase == nil, let href = Node.attribute(node, "href") ?? nil { pageBase = href }
            case "script", "style", "template", "svg", "math":
                return false
            default:
                visit(node, name)
            }
            return true
        }, leave: { _, _ in })
        if let pageBase, let resolved = HTMLPolicy.webURL(pageBase, base: base) { return resolved }
        return base
    }
}
