/// How the digest looks: its width and whether it may use terminal styling.
public struct DigestStyle: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        /// No escape sequences at all: output piped to a file or a program.
        case plain
        /// A terminal with `NO_COLOR` set: bold and underline, no colors.
        case monochrome
        /// A terminal: bold, colors, reverse video for search matches.
        case color
    }

    /// Columns of the whole line, indents included (at least 20 are used).
    public var width: Int
    public var mode: Mode

    public init(width: Int, mode: Mode) {
        self.width = max(20, width)
        self.mode = mode
    }

    /// The mode for an output: styled only on a terminal, without colors under `NO_COLOR`
    /// (https://no-color.org: set and not empty).
    public static func mode(isTerminal: Bool, environment: [String: String]) -> Mode {
        guard isTerminal else { return .plain }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
        return .color
    }

    enum Role { case title, meta, link, image, header, match }

    /// `text` with the role's style, or as is in plain mode.
    func styled(_ text: String, _ role: Role) -> String {
        let codes: String
        switch (mode, role) {
        case (.plain, _): return text
        case (.monochrome, .title), (.monochrome, .header): codes = "1"
        case (.monochrome, .match): codes = "1;4"
        case (.monochrome, _): return text
        case (.color, .title): codes = "1"
        case (.color, .header): codes = "1;33"
        case (.color, .meta): codes = "2"
        case (.color, .link): codes = "36"
        case (.color, .image): codes = "35"
        case (.color, .match): codes = "7"
        }
        return "\u{1B}[" + codes + "m" + text + "\u{1B}[0m"
    }
}
