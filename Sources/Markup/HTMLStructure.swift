import CLibXML2

/// libxml2's implicit end tags, so the sanitizer writes only structures that parse back the same.
///
/// libxml2's HTML parser closes the open element when a start tag may not appear inside it
/// (`<p>` is closed by `<div>`, `<li>` by `<li>`). A tree straight from the parser never has such
/// a pair, but removing an element between them does (`<p><font><div>` unwraps to `<p><div>`),
/// and writing that out would not read back the same: sanitizing twice would change the result.
/// The writer therefore closes such an element itself, as the parser will.
///
/// libxml2 keeps its table private, so the pairs are measured once, on first use: one parse of
/// `<X><Y></Y></X>` for every kept non-void X and kept Y, checking whether Y ended up inside X.
enum HTMLStructure {
    /// For each open element x, the start tags that close it.
    private static let closingPairs: [String: Set<String>] = {
        let parents = HTMLPolicy.allowedElements.keys.filter { !HTMLPolicy.voidElements.contains($0) }.sorted()
        let children = HTMLPolicy.allowedElements.keys.sorted()
        var probe = ""
        var pairs: [(String, String)] = []
        for x in parents {
            for y in children {
                probe += "<\(x)><\(y)>"
                if !HTMLPolicy.voidElements.contains(y) { probe += "</\(y)>" }
                probe += "</\(x)>"
                pairs.append((x, y))
            }
        }
        guard let document = HTMLDocument(probe, fragment: true) else { return [:] }
        var result: [String: Set<String>] = [:]
        var index = 0
        // Top-level elements inside the wrapper, in order: each pair gives either X (with Y
        // inside) or X followed by Y (Y closed X).
        var node = document.firstNode
        while let n = node, !(Node.isElement(n) && Node.name(n) == HTMLDocument.fragmentWrapper) { node = n.pointee.next }
        var child = node?.pointee.children
        while let x = child, index < pairs.count {
            let (px, py) = pairs[index]
            index += 1
            guard Node.isElement(x), Node.name(x) == px else { break }
            if x.pointee.children == nil, let next = x.pointee.next, Node.isElement(next), Node.name(next) == py {
                result[px, default: []].insert(py)
                child = next.pointee.next
            } else {
                child = x.pointee.next
            }
        }
        return result
    }()

    /// True when libxml2 closes an open `parent` on reading the start tag `child`.
    static func closes(_ child: String, _ parent: String) -> Bool {
        closingPairs[parent]?.contains(child) ?? false
    }

    /// Void elements libxml2 2.9 does not know as void: written with `/>`, which it honours
    /// (and browsers ignore), so it does not take the following content as their children.
    static let selfClosing: Set<String> = ["wbr", "source"]

    static var pairCount: Int { closingPairs.values.reduce(0) { $0 + $1.count } }
}
