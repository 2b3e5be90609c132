/// A command line after the subcommand name: options declared by the command, positionals
/// in order. Unknown options and missing values are usage errors that say what to type instead.
struct Arguments {
    struct Spec {
        /// Options that take a value (`--base URL`, `--base=URL`).
        var valued: Set<String> = []
        /// Options that are flags (`--json`).
        var flags: Set<String> = []
        /// Options that may repeat, collecting all values.
        var repeated: Set<String> = []
    }

    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    init(_ args: [String], spec: Spec, command: String) throws {
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyPositionals || !a.hasPrefix("-") || a == "-" { positionals.append(a); continue }
            if a == "--" { onlyPositionals = true; continue }
            var name = a
            var inline: String?
            if let eq = a.firstIndex(of: "=") { name = String(a[..<eq]); inline = String(a[a.index(after: eq)...]) }
            if spec.flags.contains(name) {
                guard inline == nil else { throw UsageError("\(name) takes no value", command: command) }
                flags.insert(name)
            } else if spec.valued.contains(name) || spec.repeated.contains(name) {
                let value: String
                if let inline { value = inline } else {
                    guard i < args.count else { throw UsageError("\(name) needs a value", command: command) }
                    value = args[i]; i += 1
                }
                values[name, default: []].append(value)
                if !spec.repeated.contains(name), values[name]!.count > 1 {
                    throw UsageError("\(name) given more than once", command: command)
                }
            } else {
                let known = spec.flags.union(spec.valued).union(spec.repeated)
                var message = "unknown option \(name)"
                if let close = Suggest.closest(to: name, in: known) { message += " (did you mean \(close)?)" }
                throw UsageError(message, command: command)
            }
        }
    }

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// A mistake in how the program was called: exit status 2, with a hint.
struct UsageError: Error {
    let message: String
    let command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    var hint: String {
        if let command { return "see 'feeds \(command) --help'" }
        return "see 'feeds --help'"
    }
}

enum Suggest {
    /// The candidate nearest to `word` by edit distance, when it is near enough to be a typo.
    static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        var best: (String, Int)?
        for c in candidates {
            let d = distance(Array(word), Array(c))
            if d <= max(2, c.count / 3), d < (best?.1 ?? .max) { best = (c, d) }
        }
        return best?.0
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count)
        for i in 1...a.count {
            var cur = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            prev = cur
        }
        return prev[b.count]
    }
}
