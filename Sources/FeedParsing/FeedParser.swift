import FeedModel
#if canImport(Glibc)
import Glibc
#endif

/// Convenience entry points over `FeedStreamParser`.
public enum FeedParser {
    /// Parses a whole document in memory.
    public static func parse(_ bytes: [UInt8], options: ParseOptions = ParseOptions()) throws -> ParsedFeed {
        var cards: [Card] = []
        let parser = FeedStreamParser(options: options) { cards.append($0) }
        try parser.push(bytes)
        let summary = try parser.finish()
        return ParsedFeed(feed: summary.feed, cards: cards, format: summary.format, warnings: summary.warnings,
                          degraded: summary.damage?.description)
    }

    public static func parse(_ text: String, options: ParseOptions = ParseOptions()) throws -> ParsedFeed {
        try parse(Array(text.utf8), options: options)
    }

    /// Streams a file (or standard input for "-") through the parser in 64 KiB reads.
    public static func parseFile(_ path: String, options: ParseOptions = ParseOptions(),
                                 onCard: @escaping (Card) -> Void) throws -> FeedSummary {
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY)
        guard fd >= 0 else {
            throw FeedParseError.unreadable("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { if fd != STDIN_FILENO { close(fd) } }
        let parser = FeedStreamParser(options: options, onCard: onCard)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FeedParseError.unreadable("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            try buffer.withUnsafeBytes { try parser.push(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        return try parser.finish()
    }
}
