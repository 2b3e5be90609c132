import FeedModel
import Foundation

/// What a sources file reads as, to tell whether the store's sources were synced from exactly
/// this file by this program (`Workspace`: with 5,000 sources, reading the file and comparing it
/// with every stored configuration was ~11 ms of every command; a stamp costs the file's bytes
/// and one hash). Made of the file's length and a 64-bit hash of its bytes (`StableHash.ofBytes`,
/// as `feeds html` names its index; not cryptographic: the file is the user's own, and a hash
/// that matched a different file would only delay a sync until the next edit), and the identity of
/// the running executable (its device, inode, size and modification time), so a new build,
/// which may read lines differently, syncs again once.
/// Not a timestamp: an editor that keeps the size and writes within the clock's resolution
/// changes the bytes all the same.
enum SourcesFileStamp {
    /// The stamp of a sources file's bytes, read by this program.
    static func of(_ data: Data) -> String {
        data.withUnsafeBytes { stamp($0, executable: executableIdentity) }
    }

    static func stamp(_ bytes: [UInt8], executable: String) -> String {
        bytes.withUnsafeBytes { stamp($0, executable: executable) }
    }

    static func stamp(_ bytes: UnsafeRawBufferPointer, executable: String) -> String {
        "\(bytes.count):\(StableHash.hex(StableHash.ofBytes(bytes))) \(executable)"
    }

    /// When `data` is the file `stamp` was made of with lines added at its end, read by the same
    /// program: how many lines that file had, all of them `data`'s first ones as they were synced
    /// (its bytes end with a line break, so its last line did not grow either). Nil otherwise,
    /// and for anything that is not a stamp of this format.
    static func linesSynced(by stamp: String, before data: Data) -> Int? {
        data.withUnsafeBytes { linesSynced(by: stamp, before: $0, executable: executableIdentity) }
    }

    static func linesSynced(by stamp: String, before bytes: UnsafeRawBufferPointer, executable: String) -> Int? {
        // "LENGTH:HASH EXECUTABLE", as `stamp` writes it.
        guard let colon = stamp.firstIndex(of: ":"), let space = stamp[colon...].firstIndex(of: " "),
              stamp[stamp.index(after: space)...] == executable,
              let length = Int(stamp[..<colon]), length > 0, length < bytes.count,
              bytes[length - 1] == UInt8(ascii: "\n") else { return nil }
        let synced = UnsafeRawBufferPointer(rebasing: bytes[..<length])
        guard StableHash.hex(StableHash.ofBytes(synced)) == stamp[stamp.index(after: colon)..<space] else { return nil }
        return synced.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    /// The running executable as the file system knows it; empty when it cannot be told.
    static let executableIdentity: String = {
        var st = stat()
        guard stat("/proc/self/exe", &st) == 0 else { return "" }
        return "\(st.st_dev):\(st.st_ino):\(st.st_size):\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
    }()
}
