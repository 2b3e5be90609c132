import CLibXML2

/// libxml2's implicit end tags, so the sanitizer writes only structures that parse back the same.
///
/// libxml2's HTML parser closes the open element when a start tag may not appear inside it
/// (`<p>` is closed by `<div>`, `<li>` by `<li>`). A tree straight from the parser never has such
/// a pair, but removing an element between them does (`<p><font><div>` unwraps to `<p><div>`),
/// and writing that out would not read back the same: sanitizing twice would change the result.
/// The writer therefore closes such an element itself, as the parser will.
///
/// libxml2 keeps its table private, so the pairs are measured (`measure()`): one parse of
/// `<X><Y></Y></X>` for every kept non-void X and kept Y, checking whether Y ended up inside X.
/// That parse costs as much as sanitizing a few hundred descriptions, so for the libxml2 release
/// it was measured on (`measuredVersion`) the result is read from `measuredPairs` instead; any
/// other release is measured on first use. A test checks that the two agree.
enum HTMLStructure {
    /// For each open element x, the start tags that close it.
    private static let closingPairs: [String: Set<String>] = {
        if libxmlVersion == measuredVersion { return parse(measuredPairs) }
        return measure()
    }()

    /// The libxml2 release at hand (`xmlParserVersion`, "20914" for 2.9.14).
    static var libxmlVersion: String { __xmlParserVersion()?.pointee.map { String(cString: $0) } ?? "" }

    /// The libxml2 release (`xmlParserVersion`) `measuredPairs` was measured on.
    static let measuredVersion = "20914"

    /// `measure()` on `measuredVersion`, one line per parent: `parent: child child ...`.
    static let measuredPairs = """
a: a table td th
address: dd dl dt li ul
b: p td th
big: p
caption: col colgroup tbody tfoot thead tr
colgroup: colgroup tbody tfoot thead tr
dd: dt
dl: li
dt: dd dl
h1: li p table
h2: li p table
h3: li p table
h4: li p table
h5: li p table
h6: li p table
i: p td th
li: li
ol: ul
p: address blockquote caption col colgroup dd div dl dt h1 h2 h3 h4 h5 h6 hr li ol p pre table tbody td tfoot th tr ul
pre: dd dl dt li table ul
s: p
small: p
span: td th
strike: p
tbody: tbody tfoot
td: tbody td tfoot th tr
tfoot: tbody
th: tbody td tfoot th tr
thead: tbody tfoot
tr: tbody tfoot tr
tt: p
u: p td th
ul: address ol pre
"""

    /// `measuredPairs`' format read back.
    static func parse(_ text: String) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            result[String(parts[0])] = Set(parts[1].split(separator: " ").map(String.init))
        }
        return result
    }

    /// `pairs` in `measuredPairs`' format, sorted.
    static func format(_ pairs: [String: Set<String>]) -> String {
        pairs.keys.sorted().map { "\($0): " + pairs[$0]!.sorted().joined(separator: " ") }.joined(separator: "\n")
    }

    /// The pairs as libxml2 at hand parses them.
    static func measure() -> [String: Set<String>] {
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
    }

    /// True when libxml2 closes an open `parent` on reading the start tag `child`.
    static func closes(_ child: String, _ parent: String) -> Bool {
        closingPairs[parent]?.contains(child) ?? false
    }

    /// Void elements libxml2 2.9 does not know as void: written with `/>`, which it honours
    /// (and browsers ignore), so it does not take the following content as their children.
    static let selfClosing: Set<String> = ["wbr", "source"]

    static var pairCount: Int { closingPairs.values.reduce(0) { $0 + $1.count } }
}

