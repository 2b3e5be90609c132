/// Word wrapping by display width (see `DisplayWidth`), for text that `HTMLText.plainText`
/// produced: lines separated by "\n", blank lines between paragraphs, list items starting with
/// "• " or "1. " after their nesting indent.
public enum TextWrap {
    /// `text` wrapped so that no line is wider than `width` columns, `indent` included (the
    /// indent starts every non-blank line). Words break at spaces; a word wider than a whole line
    /// (a long URL, a run of CJK text) is cut between characters. A list item's continuation
    /// lines hang under its text, after the marker. ANSI escapes take no width and are never cut.
    public static func wrap(_ text: String, width: Int, indent: String = "") -> [String] {
        let available = max(8, width - DisplayWidth.of(indent))
        var out: [String] = []
        // Split on the bytes: "\n" and " " are ASCII, so every cut is a character boundary,
        // and byte splitting costs no grapheme breaking.
        for bytes in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let line = Substring(bytes)
            if line.allSatisfy({ $0 == " " }) { out.append(""); continue }
            for wrapped in wrapLine(line, width: available) { out.append(indent + wrapped) }
        }
        return out
    }

    /// One line of text: its leading spaces and list marker kept, the rest wrapped.
    static func wrapLine(_ line: Substring, width: Int) -> [String] {
        let leading = line.prefix(while: { $0 == " " })
        var rest = line.dropFirst(leading.count)
        var marker = ""
        if rest.hasPrefix("• ") || rest.hasPrefix("- ") || rest.hasPrefix("* ") {
            marker = String(rest.prefix(2))
        } else if let first = rest.utf8.first, (0x30...0x39).contains(first),
                  // At most four digits before the dot: only they are looked at (searching a
                  // whole paragraph by characters for its first "." was ~40% of wrapping).
                  let dot = rest.prefix(5).firstIndex(of: "."), rest[..<dot].count <= 4, !rest[..<dot].isEmpty,
                  rest[..<dot].allSatisfy(\.isASCII), rest[..<dot].allSatisfy(\.isNumber),
                  rest[rest.index(after: dot)...].hasPrefix(" ") {
            marker = String(rest[...dot]) + " "
        }
        rest = rest.dropFirst(marker.count)
        var prefix = String(leading) + marker
        // A marker hanging more than half the line would leave no room: no hanging then.
        if DisplayWidth.of(prefix) > width / 2 { prefix = "" }
        let hang = String(repeating: " ", count: DisplayWidth.of(prefix))

        // The line is built as bytes: words are cut at ASCII spaces, so every piece is whole
        // UTF-8 (String appends of Substrings, and splitting into an array of words, cost
        // more than the rest of the digest together).
        var lines: [String] = []
        let opening = prefix.isEmpty ? String(leading) + marker : prefix
        var current: [UInt8] = Array(opening.utf8)
        var currentWidth = DisplayWidth.of(opening)
        var lineHasWord = false
        func newLine() {
            lines.append(String(decoding: current, as: UTF8.self))
            current = Array(hang.utf8)
            currentWidth = hang.count
            lineHasWord = false
        }
        let scanned = rest.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var start = 0
            while start < bytes.count {
                if bytes[start] == 0x20 { start += 1; continue }
                var end = start
                var printableASCII = true
                while end < bytes.count, bytes[end] != 0x20 {
                    if bytes[end] < 0x20 || bytes[end] >= 0x7F { printableASCII = false }
                    end += 1
                }
                let word = UnsafeBufferPointer(rebasing: bytes[start..<end])
                start = end
                let w = printableASCII ? word.count : DisplayWidth.of(String(decoding: word, as: UTF8.self))
                let space = lineHasWord ? 1 : 0
                if currentWidth + space + w <= width {
                    if lineHasWord { current.append(0x20) }
                    current.append(contentsOf: word)
                    currentWidth += space + w
                    lineHasWord = true
                    continue
                }
                if lineHasWord { newLine() }
                if currentWidth + w <= width {
                    current.append(contentsOf: word)
                    currentWidth += w
                    lineHasWord = true
                    continue
                }
                // Wider than a whole line: cut between characters (escapes kept whole).
                let whole = Substring(String(decoding: word, as: UTF8.self))
                for piece in pieces(of: whole, first: width - currentWidth, then: width - hang.count) {
                    if lineHasWord { newLine() }
                    current.append(contentsOf: piece.utf8)
                    currentWidth += DisplayWidth.of(piece)
                    lineHasWord = true
                }
            }
            return true
        }
        if scanned == nil {
            // Not contiguous UTF-8 (a bridged string): the same loop on a native copy.
            return wrapLine(Substring(String(line)), width: width)
        }
        lines.append(String(decoding: current, as: UTF8.self))
        return lines.map { $0.trimmingTrailingSpaces() }
    }

    /// `word` cut into pieces at most `first` columns wide for the first, `then` for the others
    /// (each at least one character, so a character wider than the line still moves on).
    static func pieces(of word: Substring, first: Int, then: Int) -> [String] {
        var pieces: [String] = []
        var piece = ""
        var pieceWidth = 0
        var limit = max(1, first)
        var escape = false
        for character in word {
            if escape || character == "\u{1B}" {
                piece.append(character)
                if character != "\u{1B}", character != "[", let a = character.asciiValue, (0x40...0x7E).contains(a) {
                    escape = false
                } else {
                    escape = true
                }
                continue
            }
            let w = DisplayWidth.of(character: character)
            if pieceWidth + w > limit && pieceWidth > 0 {
                pieces.append(piece)
                piece = ""
                pieceWidth = 0
                limit = max(1, then)
            }
            piece.append(character)
            pieceWidth += w
        }
        if !piece.isEmpty { pieces.append(piece) }
        return pieces
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
