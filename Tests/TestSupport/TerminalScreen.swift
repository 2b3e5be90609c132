/// A small model of what a terminal shows, enough for `less` on TERM=xterm: printable text with
/// auto-wrap, CR/LF/BS/TAB, cursor moves (CUP, CUU/CUD/CUF/CUB, CHA, VPA), erase in display
/// and line, insert/delete lines and characters, scroll regions, index/reverse index, the
/// alternate screen (?1049, ?1047, ?47) and the cursor's visibility (?25). Styling (SGR) is
/// parsed and dropped: tests that care about colors look at the raw bytes. Every character
/// takes one column (the tests' text is ASCII or one-column punctuation such as '·').
public struct TerminalScreen {
    public private(set) var rows: Int
    public private(set) var columns: Int
    private var cells: [[Character]]
    private var savedMain: [[Character]]?
    public private(set) var cursorRow = 0
    public private(set) var cursorColumn = 0
    public private(set) var cursorVisible = true
    public var onAlternateScreen: Bool { savedMain != nil }
    private var top = 0
    private var bottom: Int
    private var pendingWrap = false
    private var saved = (row: 0, column: 0)

    private enum State { case ground, escape, csi, osc, oscEscape, charset }
    private var state = State.ground
    private var parameters = ""
    private var utf8: [UInt8] = []

    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        bottom = rows - 1
    }

    /// The lines shown, trailing blanks removed.
    public var lines: [String] {
        cells.map { String($0).replacingTrailingBlanks() }
    }

    public var text: String { lines.joined(separator: "\n") }

    /// The window changed size (what the terminal does on TIOCSWINSZ): cells kept where they fit.
    public mutating func resize(rows newRows: Int, columns newColumns: Int) {
        func fit(_ grid: [[Character]]) -> [[Character]] {
            (0..<newRows).map { r in
                (0..<newColumns).map { c in r < grid.count && c < grid[r].count ? grid[r][c] : " " }
            }
        }
        cells = fit(cells)
        savedMain = savedMain.map(fit)
        rows = newRows
        columns = newColumns
        top = 0
        bottom = rows - 1
        cursorRow = min(cursorRow, rows - 1)
        cursorColumn = min(cursorColumn, columns - 1)
    }

    public mutating func feed(_ bytes: [UInt8]) {
        for byte in bytes { feed(byte) }
    }

    private mutating func feed(_ byte: UInt8) {
        switch state {
        case .ground:
            if byte == 0x1B { utf8.removeAll(); state = .escape; return }
            if byte < 0x20 || byte == 0x7F { control(byte); return }
            utf8.append(byte)
            // The lead byte says how many bytes the character has.
            let lead = utf8[0]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            guard utf8.count >= length else { return }
            let s = String(decoding: utf8, as: UTF8.self)
            utf8.removeAll()
            for c in s { put(c) }
        case .escape:
            state = .ground
            switch byte {
            case UInt8(ascii: "["): parameters = ""; state = .csi
            case UInt8(ascii: "]"): state = .osc
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"): state = .charset
            case UInt8(ascii: "7"): saved = (cursorRow, cursorColumn)
            case UInt8(ascii: "8"): (cursorRow, cursorColumn) = saved; pendingWrap = false
            case UInt8(ascii: "M"): reverseIndex()
            case UInt8(ascii: "D"): lineFeed()
            case UInt8(ascii: "E"): cursorColumn = 0; lineFeed()
            case UInt8(ascii: "c"): self = TerminalScreen(rows: rows, columns: columns)
            default: break   // ESC = and ESC > (keypad modes) and the like change nothing shown
            }
        case .charset:
            state = .ground
        case .osc:
            if byte == 0x07 { state = .ground } else if byte == 0x1B { state = .oscEscape }
        case .oscEscape:
            state = byte == UInt8(ascii: "\\") ? .ground : .osc
        case .csi:
            if byte >= 0x40 && byte <= 0x7E {
                state = .ground
                csi(Character(Unicode.Scalar(byte)), parameters)
            } else {
                parameters.append(Character(Unicode.Scalar(byte)))
            }
        }
    }

    private mutating func control(_ byte: UInt8) {
        switch byte {
        case 0x0D: cursorColumn = 0; pendingWrap = false
        case 0x0A, 0x0B, 0x0C: lineFeed()
        case 0x08: if cursorColumn > 0 { cursorColumn -= 1 }; pendingWrap = false
        case 0x09: cursorColumn = min(columns - 1, (cursorColumn / 8 + 1) * 8); pendingWrap = false
        default: break
        }
    }

    private mutating func put(_ c: Character) {
        if pendingWrap { cursorColumn = 0; lineFeed() }
        cells[cursorRow][cursorColumn] = c
        if cursorColumn == columns - 1 { pendingWrap = true } else { cursorColumn += 1 }
    }

    private mutating func lineFeed() {
        pendingWrap = false
        if cursorRow == bottom { scrollUp(1) } else if cursorRow < rows - 1 { cursorRow += 1 }
    }

    private mutating func reverseIndex() {
        pendingWrap = false
        if cursorRow == top { scrollDown(1) } else if cursorRow > 0 { cursorRow -= 1 }
    }

    private var blankLine: [Character] { Array(repeating: " ", count: columns) }

    private mutating func scrollUp(_ n: Int, from first: Int? = nil) {
        let start = first ?? top
        for _ in 0..<min(n, bottom - start + 1) {
            cells.remove(at: start)
            cells.insert(blankLine, at: bottom)
        }
    }

    private mutating func scrollDown(_ n: Int, from first: Int? = nil) {
        let start = first ?? top
        for _ in 0..<min(n, bottom - start + 1) {
            cells.remove(at: bottom)
            cells.insert(blankLine, at: start)
        }
    }

    private mutating func csi(_ final: Character, _ text: String) {
        let isPrivate = text.hasPrefix("?")
        let numbers = text.drop(while: { $0 == "?" || $0 == ">" || $0 == "=" })
            .split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        func arg(_ i: Int, _ fallback: Int) -> Int {
            guard i < numbers.count, let n = numbers[i], n != 0 else { return fallback }
            return n
        }
        let n = arg(0, 1)
        pendingWrap = false
        switch final {
        case "H", "f":
            cursorRow = min(rows - 1, arg(0, 1) - 1)
            cursorColumn = min(columns - 1, arg(1, 1) - 1)
        case "A": cursorRow = max(0, cursorRow - n)
        case "B", "e": cursorRow = min(rows - 1, cursorRow + n)
        case "C", "a": cursorColumn = min(columns - 1, cursorColumn + n)
        case "D": cursorColumn = max(0, cursorColumn - n)
        case "E": cursorRow = min(rows - 1, cursorRow + n); cursorColumn = 0
        case "F": cursorRow = max(0, cursorRow - n); cursorColumn = 0
        case "G", "`": cursorColumn = min(columns - 1, n - 1)
        case "d": cursorRow = min(rows - 1, n - 1)
        case "J":
            switch numbers.first.flatMap({ $0 }) ?? 0 {
            case 0:
                eraseLine(cursorRow, from: cursorColumn, to: columns)
                for r in (cursorRow + 1)..<max(cursorRow + 1, rows) { cells[r] = blankLine }
            case 1:
                for r in 0..<cursorRow { cells[r] = blankLine }
                eraseLine(cursorRow, from: 0, to: cursorColumn + 1)
            default:
                for r in 0..<rows { cells[r] = blankLine }
            }
        case "K":
            switch numbers.first.flatMap({ $0 }) ?? 0 {
            case 0: eraseLine(cursorRow, from: cursorColumn, to: columns)
            case 1: eraseLine(cursorRow, from: 0, to: cursorColumn + 1)
            default: cells[cursorRow] = blankLine
            }
        case "X": eraseLine(cursorRow, from: cursorColumn, to: min(columns, cursorColumn + n))
        case "P":
            for _ in 0..<min(n, columns - cursorColumn) {
                cells[cursorRow].remove(at: cursorColumn)
                cells[cursorRow].append(" ")
            }
        case "@":
            for _ in 0..<min(n, columns - cursorColumn) {
                cells[cursorRow].insert(" ", at: cursorColumn)
                cells[cursorRow].removeLast()
            }
        case "L": if (top...bottom).contains(cursorRow) { scrollDown(n, from: cursorRow) }
        case "M": if (top...bottom).contains(cursorRow) { scrollUp(n, from: cursorRow) }
        case "S": scrollUp(n)
        case "T": scrollDown(n)
        case "r":
            top = max(0, arg(0, 1) - 1)
            bottom = min(rows - 1, arg(1, rows) - 1)
            if top >= bottom { top = 0; bottom = rows - 1 }
            cursorRow = 0
            cursorColumn = 0
        case "h", "l":
            guard isPrivate else { break }
            let on = final == "h"
            for mode in numbers.compactMap({ $0 }) {
                switch mode {
                case 25: cursorVisible = on
                case 47, 1047, 1049:
                    if on, savedMain == nil {
                        if mode == 1049 { saved = (cursorRow, cursorColumn) }
                        savedMain = cells
                        cells = Array(repeating: blankLine, count: rows)
                    } else if !on, let main = savedMain {
                        cells = main
                        savedMain = nil
                        if mode == 1049 { (cursorRow, cursorColumn) = saved }
                    }
                default: break
                }
            }
        default:
            break   // SGR (m), window operations (t), reports: nothing on the screen changes
        }
    }

    private mutating func eraseLine(_ row: Int, from start: Int, to end: Int) {
        guard start < end else { return }
        for c in start..<end { cells[row][c] = " " }
    }
}

extension String {
    fileprivate func replacingTrailingBlanks() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
