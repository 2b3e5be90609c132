import FeedModel

/// Text that goes around libxml2 (`TextHandOver.sideChannel`): the prepass keeps a run of text
/// here and writes `<?TOKEN N?>` in its place; libxml2 reports that processing instruction where
/// the text stood, and the builder takes text N from here. libxml2 then never scans the text
/// (most of a feed's bytes) only to hand it over unchanged.
///
/// TOKEN is random per document, so a document cannot name a text of its own; N counts up, so
/// an instruction libxml2 drops (in its recovery from an error) cannot shift the texts after it.
/// Memory: a text never spans the prepass's chunks (64 KiB: see `FeedStreamParser.feedXML`),
/// taken texts go when all are taken (after each chunk, usually), and no more than
/// `maxWaitingBytes` wait (past that, the ones waiting are dropped: only a document libxml2
/// stopped reading gets there).
final class SideText {
    /// The target of the instructions, NUL-terminated: `f` and 12 hex digits (48 random bits:
    /// short, because libxml2 reads the name of every instruction a byte at a time).
    let token: [UInt8]
    static let maxWaitingBytes = 4 << 20

    /// Waiting texts, numbered from `base`, each in its own array: the builder takes it over as
    /// the field's text without a copy.
    private var texts: [[UInt8]] = []
    private var waitingBytes = 0
    private var base = 0
    /// The next number that may be taken.
    private var next = 0

    init<R: RandomNumberGenerator>(using generator: inout R) {
        let hex = Array("0123456789abcdef".utf8)
        var value = generator.next()
        var token = Array("f".utf8)
        for _ in 0..<12 {
            token.append(hex[Int(value & 0xF)])
            value >>= 4
        }
        token.append(0)
        self.token = token
    }

    convenience init() {
        var generator = SystemRandomNumberGenerator()
        self.init(using: &generator)
    }

    /// Keeps `text`; returns its number (nil for an empty text, which needs no instruction).
    func keep(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !text.isEmpty else { return nil }
        if !texts.isEmpty, waitingBytes + text.count > Self.maxWaitingBytes {
            // Nobody takes them (libxml2 stopped reading): drop the waiting ones.
            base += texts.count
            next = max(next, base)
            texts.removeAll()
            waitingBytes = 0
        }
        texts.append(Array(text))
        waitingBytes += text.count
        return base + texts.count - 1
    }

    /// Writes the instruction that stands for text `number`: `<?TOKEN N?>`.
    func writeInstruction(_ number: Int, into out: inout ByteSink) {
        out.append(0x3C); out.append(0x3F)  // "<?"
        token.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0.dropLast())) }
        out.append(0x20)
        // The number in decimal, without a String.
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { d in
            var n = number, k = d.count
            repeat { k -= 1; d[k] = UInt8(0x30 + n % 10); n /= 10 } while n > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: d.bindMemory(to: UInt8.self)[k...]))
        }
        out.append(0x3F); out.append(0x3E)  // "?>"
    }

    /// Text `number`, once (moved out); texts before it not taken yet are skipped. A number
    /// that is not waiting gives nil.
    func take(_ number: Int) -> [UInt8]? {
        guard number >= next, number - base < texts.count else { return nil }
        var text: [UInt8] = []
        swap(&text, &texts[number - base])
        waitingBytes -= text.count
        next = number + 1
        // All taken (the usual state after each chunk): start over.
        if next - base == texts.count {
            base += texts.count
            texts.removeAll(keepingCapacity: true)
            waitingBytes = 0
        }
        return text
    }

    /// Whether `target` (NUL-terminated) is this document's token.
    func isToken(_ target: UnsafePointer<UInt8>) -> Bool {
        for (i, b) in token.enumerated() where target[i] != b { return false }
        return true
    }

    /// The number an instruction's data names (ASCII digits), if any.
    static func number(_ data: UnsafePointer<UInt8>?) -> Int? {
        guard let data, data[0] != 0 else { return nil }
        var n = 0
        var i = 0
        while data[i] != 0 {
            let d = data[i]
            guard d >= 0x30 && d <= 0x39, i < 18 else { return nil }
            n = n * 10 + Int(d - 0x30)
            i += 1
        }
        return n
    }
}
