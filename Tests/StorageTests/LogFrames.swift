import Foundation

/// The valid frames of the write-ahead log file at `path`, as SQLite's recovery reads them:
/// the frames carrying the header's salts, up to the first that does not (nil: no log file, or
/// its header zeroed). For the tests of the logs an update keeps (`KeptLog`).
func validLogFrames(atPath path: String) -> Int? {
    guard let data = FileManager.default.contents(atPath: path), data.count >= 32 else { return nil }
    let bytes = [UInt8](data)
    func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
    guard word(0) == 0x377f_0682 || word(0) == 0x377f_0683 else { return nil }
    let frameSize = 24 + Int(word(8))
    var frames = 0, offset = 32
    while offset + frameSize <= bytes.count, word(offset + 8) == word(16), word(offset + 12) == word(20) {
        frames += 1
        offset += frameSize
    }
    return frames
}
