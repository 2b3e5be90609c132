import FeedModel
import Foundation

/// Questions put to the person at the terminal (`add` with several feeds found, `remove`): asked
/// only when standard input is a terminal, as `rm -i` does, on /dev/tty (so a redirected
/// standard output never swallows the question), the answer one line read from /dev/tty.
enum Prompt {
    /// Whether questions can be asked: standard input is a terminal.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// Writes `question` (neutralised: it holds names and URLs from outside) to the terminal and
    /// reads one line of answer; nil when the terminal cannot be opened or gives end of file.
    static func ask(_ question: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let text = Array(question.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalText.line(String($0)) }.joined(separator: "\n").utf8)
        _ = text.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
        // One byte at a time up to the line end: bounded, and nothing past the line is taken.
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while answer.count < 256 {
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return answer.isEmpty ? nil : String(decoding: answer, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            answer.append(byte)
        }
        return String(decoding: answer, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}
