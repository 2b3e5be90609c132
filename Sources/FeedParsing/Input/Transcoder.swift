import FeedModel

/// Streams bytes in any supported encoding to valid UTF-8, chunk by chunk, keeping an incomplete
/// sequence at the end of one chunk for the next. Bytes that are not valid UTF-8 in a document
/// read as UTF-8 are taken as windows-1252: that is what a feed "in UTF-8" holding Latin-1 bytes
/// (a common real-world mistake) meant.
final class Transcoder {
    let encoding: TextEncoding
    private var carry: [UInt8] = []
    private var iconv: IconvDecoder?
    private(set) var repairedBytes = 0

    init(encoding: TextEncoding) {
        self.encoding = encoding
        if case .iconv(let name) = encoding { iconv = IconvDecoder(from: name) }
    }

    /// Decodes `input`, appending UTF-8 to `out`. With `final`, nothing is carried over.
    func decode(_ input: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) {
        if carry.isEmpty {
            decodeRun(input, final: final, into: &out)
        } else {
            let joined = carry + Array(input)
            carry.removeAll(keepingCapacity: true)
            joined.withUnsafeBufferPointer { decodeRun($0, final: final, into: &out) }
        }
    }

    private func decodeRun(_ b: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) {
        out.reserveCapacity(out.count + b.count + b.count / 8)
        let consumed: Int
        switch encoding {
        case .utf8: consumed = decodeUTF8(b, final: final, into: &out)
        case .windows1252:
            for byte in b { appendUTF8(windows1252Scalar(byte), to: &out) }
            consumed = b.count
        case .utf16(let be): consumed = decodeUTF16(b, bigEndian: be, final: final, into: &out)
        case .utf32(let be): consumed = decodeUTF32(b, bigEndian: be, final: final, into: &out)
        case .iconv:
            if let iconv {
                consumed = iconv.decode(b, final: final, into: &out)
            } else {
                consumed = decodeUTF8(b, final: final, into: &out)
            }
        }
        if consumed < b.count { carry.append(contentsOf: b[consumed...]) }
    }

    /// Whether `input` is its own decoding: UTF-8 read as UTF-8, nothing carried from the last
    /// chunk, and every sequence well-formed, complete and no C1 character. The caller then uses
    /// the input as it is (no copy); otherwise it calls `decode`.
    func passesThrough(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        encoding == .utf8 && carry.isEmpty && Self.cleanEnd(input, from: 0) == input.count
    }

    /// The index of the first byte from `start` that is not copied as it is (the start of an
    /// ill-formed sequence, of a C1 character, or of a sequence cut by the end of `b`), or
    /// `b.count`.
    private static func cleanEnd(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let n = b.count
        guard let base = b.baseAddress else { return start }
        var i = start
        while i < n {
            i = ByteScan.firstNonASCII(base, from: i, to: n)
            if i >= n { break }
            guard let (scalar, len) = UTF8Text.scalar(in: b, at: i), scalar >= 0xA0 else { return i }
            i += len
        }
        return n
    }

    /// Returns how many bytes were consumed (the rest is an incomplete sequence, kept for later).
    /// Well-formed UTF-8 is copied in runs as long as possible (one copy per chunk for a clean
    /// document); only bytes that need rewriting end a run.
    private func decodeUTF8(_ b: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) -> Int {
        let n = b.count
        guard let base = b.baseAddress else { return 0 }
        var i = 0
        while i < n {
            let end = Self.cleanEnd(b, from: i)
            Self.copy(base, from: i, to: end, into: &out)
            i = end
            if i >= n { break }
            let c = b[i]
            if let (scalar, len) = UTF8Text.scalar(in: b, at: i) {
                // U+0080...U+009F are C1 controls that no feed means: they are windows-1252
                // punctuation (smart quotes, dashes) that went through a Latin-1 converter.
                appendUTF8(windows1252Scalar(UInt8(scalar)), to: &out)
                i += len
                continue
            }
            let len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0
            if len > 0 && i + len > n && !final {
                // Possibly a sequence cut by the chunk boundary: kept for the next chunk.
                var plausible = true
                for k in (i + 1)..<n where b[k] & 0xC0 != 0x80 { plausible = false }
                if plausible { return i }
            }
            repair(c, &out)
            i += 1
        }
        return n
    }

    @inline(__always)
    private static func copy(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, into out: inout [UInt8]) {
        if end > start { out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start)) }
    }

    @inline(__always)
    private func repair(_ byte: UInt8, _ out: inout [UInt8]) {
        repairedBytes += 1
        appendUTF8(windows1252Scalar(byte), to: &out)
    }

    private func decodeUTF16(_ b: UnsafeBufferPointer<UInt8>, bigEndian: Bool, final: Bool, into out: inout [UInt8]) -> Int {
        var i = 0
        let n = b.count
        func unit(_ at: Int) -> UInt32 {
            bigEndian ? UInt32(b[at]) << 8 | UInt32(b[at + 1]) : UInt32(b[at + 1]) << 8 | UInt32(b[at])
        }
        while i + 1 < n {
            let u = unit(i)
            if (0xD800...0xDBFF).contains(u) {
                if i + 3 >= n { if !final { return i }; appendUTF8(0xFFFD, to: &out); i += 2; continue }
                let low = unit(i + 2)
                if (0xDC00...0xDFFF).contains(low) {
                    appendUTF8(0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00), to: &out)
                    i += 4
                } else { appendUTF8(0xFFFD, to: &out); i += 2 }
            } else if (0xDC00...0xDFFF).contains(u) {
                appendUTF8(0xFFFD, to: &out); i += 2
            } else {
                appendUTF8(u, to: &out); i += 2
            }
        }
        if i < n && !final { return i }
        return n
    }

    private func decodeUTF32(_ b: UnsafeBufferPointer<UInt8>, bigEndian: Bool, final: Bool, into out: inout [UInt8]) -> Int {
        var i = 0
        let n = b.count
        while i + 3 < n {
            let u: UInt32 = bigEndian
                ? UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
                : UInt32(b[i + 3]) << 24 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i])
            let valid = u <= 0x10FFFF && !(0xD800...0xDFFF).contains(u)
            appendUTF8(valid ? u : 0xFFFD, to: &out)
            i += 4
        }
        if i < n && !final { return i }
        return n
    }
}
