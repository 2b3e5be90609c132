/// A key as a terminal sends it, decoded from the bytes read in raw mode.
public enum Key: Equatable, Sendable {
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, interrupt
    /// A sequence this reader has no use for (F-keys, mouse...): ignored.
    case unknown

    /// The keys in `bytes` (one read's worth). An escape sequence cut by the end of the read
    /// is taken as Escape then its characters: the key loop waits for the rest of one first
    /// (`unfinishedEscape`), so only a link slower than that wait cuts one.
    public static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x1B:
                let (key, length) = escape(bytes, at: i)
                keys.append(key)
                i += length
                continue
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x03: keys.append(.interrupt)
            case 0x00..<0x20: keys.append(.unknown)
            default:
                // One UTF-8 character (typed at a prompt: a search for "café").
                let length = b < 0xC0 || b >= 0xF8 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
                let end = min(bytes.count, i + length)
                let text = String(decoding: bytes[i..<end], as: UTF8.self)
                if let c = text.first, text.count == 1, c != "\u{FFFD}" { keys.append(.character(c)) } else { keys.append(.unknown) }
                i = end
                continue
            }
            i += 1
        }
        return keys
    }

    /// How many bytes at the end of `bytes` begin an escape sequence without ending it (a lone
    /// ESC, ESC `[` or ESC `O`, then parameters): the rest of an arrow key may be on its way.
    /// 0 when the bytes end with a whole key; at most `longestEscape`, past which the bytes are
    /// no key this reader knows and are not waited for.
    public static func unfinishedEscape(_ bytes: [UInt8]) -> Int {
        guard let start = bytes.lastIndex(of: 0x1B), bytes.count - start <= longestEscape else { return 0 }
        let rest = bytes[(start + 1)...]
        guard let introducer = rest.first else { return 1 }
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else { return 0 }
        return rest.dropFirst().allSatisfy { (0x20...0x3F).contains($0) } ? bytes.count - start : 0
    }

    /// The longest escape sequence waited for: ESC [ 1 ; 5 ~ and the like, with room.
    public static let longestEscape = 16

    /// The key of the escape sequence at `i` and its length in bytes.
    static func escape(_ bytes: [UInt8], at i: Int) -> (Key, Int) {
        guard i + 1 < bytes.count else { return (.escape, 1) }
        let introducer = bytes[i + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else { return (.escape, 1) }
        // CSI: parameters (0x30-0x3F), intermediates (0x20-0x2F), one final byte (0x40-0x7E).
        var j = i + 2
        while j < bytes.count, (0x20...0x3F).contains(bytes[j]) { j += 1 }
        guard j < bytes.count, (0x40...0x7E).contains(bytes[j]) else { return (.escape, 1) }
        let parameters = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
        let length = j - i + 1
        switch bytes[j] {
        case UInt8(ascii: "A"): return (.up, length)
        case UInt8(ascii: "B"): return (.down, length)
        case UInt8(ascii: "C"): return (.right, length)
        case UInt8(ascii: "D"): return (.left, length)
        case UInt8(ascii: "H"): return (.home, length)
        case UInt8(ascii: "F"): return (.end, length)
        case UInt8(ascii: "~"):
            switch parameters.split(separator: ";").first ?? "" {
            case "1", "7": return (.home, length)
            case "4", "8": return (.end, length)
            case "5": return (.pageUp, length)
            case "6": return (.pageDown, length)
            default: return (.unknown, length)
            }
        default: return (.unknown, length)
        }
    }
}
