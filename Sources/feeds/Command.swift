import Console
import FeedModel
import Foundation

/// Exit statuses: 0 all went well, 1 some sources failed, 2 usage or configuration error.
enum ExitStatus: Int32 {
    case ok = 0
    case someFailed = 1
    case usage = 2
}

/// Options that come before the subcommand and apply to all of them.
struct GlobalOptions {
    var home: String?
    /// `--database URL` / FEEDS_DATABASE: a PostgreSQL database instead of the home's SQLite.
    var database: String?
}

/// One subcommand: its name, its help text, and what it does.
protocol Command {
    static var name: String { get }
    static var summary: String { get }
    /// The full help: usage line(s), then option descriptions.
    static var help: String { get }
    static var spec: Arguments.Spec { get }
    static func run(_ args: Arguments, global: GlobalOptions) throws -> ExitStatus
}

/// Writes to standard error, one line per message: the one writer of `feeds: ...` lines (what
/// cron mails), so the one place their text from outside (names, URLs, a server's Location or
/// message, parser warnings) is neutralised (`TerminalText.line`).
enum Diagnostics {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data(("feeds: " + TerminalText.line(message) + "\n").utf8))
    }

    static func warning(_ message: String) {
        FileHandle.standardError.write(Data(("feeds: warning: " + TerminalText.line(message) + "\n").utf8))
    }
}

/// Buffered standard output: commands that print many lines write through this. A reader
/// that went away (EPIPE: `| head`, a pager quit) ends the output quietly: later writes are
/// dropped. Any other write error (ENOSPC on /dev/full, EIO) is kept for `CLI` to report.
final class Output {
    nonisolated(unsafe) static let standard = Output()
    private var buffer = ByteSink(capacity: 80 << 10)
    /// The reader closed: nothing more is written.
    private(set) var closed = false
    /// errno of the first write error other than EPIPE.
    private(set) var failure: Int32?

    func write(_ s: String) {
        buffer.append(contentsOf: s)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// One line of text, with whatever came from outside in it neutralised (`TerminalText.line`):
    /// the listings (`sources`, `parse`'s summary, `add`, `remove`, `update`'s summary) write
    /// through this. Styled or laid-out text (the digest, JSON) goes through `write`.
    func line(_ s: String = "") { write(TerminalText.line(s)); write("\n") }

    /// One line written on bytes by `fill` (text from outside appended through
    /// `TerminalText.appendLine`, as `line(_:)` neutralises it), then its end.
    func line(_ fill: (inout ByteSink) -> Void) {
        write { sink in
            fill(&sink)
            sink.append(0x0A)
        }
    }

    /// Text of our own, lines and layout kept (the help): `line` would join its lines, as it
    /// must for text from outside.
    func text(_ s: String) { write(s); if !s.hasSuffix("\n") { write("\n") } }

    /// Lets `fill` append bytes straight to the buffer (no String in between).
    func write(_ fill: (inout ByteSink) -> Void) {
        fill(&buffer)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Drops what was not yet written (a command failed before its output was complete).
    func discard() { buffer.removeAll() }

    func flush() {
        defer { buffer.removeAll() }
        guard !buffer.isEmpty, !closed, failure == nil else { return }
        let stopped = buffer.withUnsafeBufferPointer { raw in
            DeliveredWrite.writeAll(STDOUT_FILENO, raw.baseAddress!, raw.count).errno
        }
        record(stopped)
    }

    /// Writes `bytes` after what is buffered and says what the reader took (see `DeliveredWrite`).
    func deliver(_ bytes: [UInt8], settle: Bool) -> WriteOutcome {
        flush()
        guard !closed, failure == nil else { return WriteOutcome(closedEarly: closed, error: failure) }
        let outcome = DeliveredWrite.write(bytes, to: STDOUT_FILENO, settle: settle)
        if let error = outcome.error { record(error) } else if outcome.closedEarly { record(EPIPE) }
        return outcome
    }

    private func record(_ code: Int32?) {
        guard let code else { return }
        if code == EPIPE { closed = true } else if failure == nil { failure = code }
    }
}
