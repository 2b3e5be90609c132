#if canImport(Glibc)
import Glibc
#endif

/// `$PAGER` for output longer than the screen, run in the terminal's foreground group.
public enum Pager {
    /// What `PAGER` asks for: unset is `less -R`; empty (or blanks) is no pager; plain words
    /// (`less -RS`, `more`) are split on blanks and run directly; anything with shell syntax
    /// (quotes, `$`, `|`, `;`...) runs through `/bin/sh -c`, as git does.
    public static func command(environment: [String: String]) -> [String]? {
        guard let text = environment["PAGER"] else { return ["less", "-R"] }
        if let words = simpleWords(text) { return words.isEmpty ? nil : words }
        return ["/bin/sh", "-c", text]
    }

    /// The words of `text` split on blanks, or nil when it holds a character the shell would
    /// treat specially (then only the shell can say what it means).
    static func simpleWords(_ text: String) -> [String]? {
        let special = Set("|&;<>()$`\\\"'*?[]#~=%{}!\n")
        guard !text.contains(where: { special.contains($0) }) else { return nil }
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }

    /// Whether `lines` lines need the pager on a screen of `rows` rows: a screenful is paged
    /// too, since the shell's prompt after it would push its first line off the screen.
    public static func needed(lines: Int, rows: Int) -> Bool { lines >= rows }

    /// The environment the pager gets: `LESS=R` when `LESS` is unset (as git does), so a
    /// `PAGER=less` without `-R` shows the colors instead of escape codes.
    public static func environment(_ base: [String: String]) -> [String: String] {
        var env = base
        if env["LESS"] == nil { env["LESS"] = "R" }
        return env
    }

    /// Runs `command` with `bytes` on its standard input and waits for it to end. Returns what
    /// it took (counted as `DeliveredWrite` counts it) and its exit status.
    public static func page(_ bytes: [UInt8], command: [String], environment: [String: String]) throws(SpawnError) -> (outcome: WriteOutcome, status: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .failed("pipe", errno) }
        // Close-on-exec, so the pager's child processes (and any other child) hold no end open.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let session = ForegroundSession()
        defer { session.end() }
        let child: ChildProcess
        do {
            child = try ChildProcess(command, stdin: ends[0], environment: Self.environment(environment))
        } catch {
            close(ends[0]); close(ends[1])
            throw error
        }
        close(ends[0])
        let outcome = DeliveredWrite.write(bytes, to: ends[1], settle: true)
        close(ends[1])
        return (outcome, child.wait())
    }
}

/// The terminal's window size (of standard output), nil when it is not a terminal.
public enum TerminalWindow {
    public static func size(_ fd: Int32 = STDOUT_FILENO) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
