#if canImport(Glibc)
import Glibc
#endif

/// The encodings we do not decode ourselves (Big5, EUC-KR, Shift_JIS, KOI8-R, ...) go through
/// the C library's iconv. One owning class per iconv descriptor, closed in deinit.
final class IconvDecoder {
    private let cd: iconv_t

    static func isSupported(_ name: String) -> Bool {
        guard let cd = iconv_open("UTF-8", name), cd != iconv_t(bitPattern: -1) else { return false }
        iconv_close(cd)
        return true
    }

    init?(from name: String) {
        guard let cd = iconv_open("UTF-8", name), cd != iconv_t(bitPattern: -1) else { return nil }
        self.cd = cd
    }

    deinit { iconv_close(cd) }

    /// Decodes as much of `b` as forms whole characters; undecodable bytes become U+FFFD.
    /// Returns how many bytes were consumed.
    func decode(_ b: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) -> Int {
        guard let base = b.baseAddress, b.count > 0 else { return 0 }
        var inPtr = UnsafeMutablePointer<CChar>(mutating: UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self))
        var inLeft = b.count
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while inLeft > 0 {
            let rc: Int = buffer.withUnsafeMutableBytes { raw in
                var outPtr: UnsafeMutablePointer<CChar>? = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
                var outLeft = raw.count
                var inP: UnsafeMutablePointer<CChar>? = inPtr
                let r = iconv(cd, &inP, &inLeft, &outPtr, &outLeft)
                inPtr = inP!
                let produced = raw.count - outLeft
                out.append(contentsOf: raw.prefix(produced))
                return r == -1 ? Int(errno) : 0
            }
            if rc == 0 || rc == E2BIG { continue }
            if rc == EINVAL && !final { break }        // incomplete sequence at the end: keep it
            // EILSEQ (or EINVAL at the very end): skip one byte, mark the loss.
            appendUTF8(0xFFFD, to: &out)
            inPtr += 1
            inLeft -= 1
        }
        return b.count - inLeft
    }
}
