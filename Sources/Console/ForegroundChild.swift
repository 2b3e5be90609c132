#if canImport(Glibc)
import Glibc
#endif

/// What a person's terminal must look like again once a child that took it (a pager, a
/// browser in the terminal) is gone: feeds ignores SIGINT and SIGQUIT while the child runs
/// (Ctrl-C is the child's to handle: `less` cancels a search with it), and the terminal's modes
/// are put back as they were if the child left them changed (killed before it could restore).
public final class ForegroundSession {
    private var savedInterrupt = sigaction()
    private var savedQuit = sigaction()
    private let terminal: Int32?
    private var savedModes = termios()

    /// Starts ignoring SIGINT/SIGQUIT and remembers the terminal's modes.
    public init() {
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        sigaction(SIGINT, &ignore, &savedInterrupt)
        sigaction(SIGQUIT, &ignore, &savedQuit)
        let tty = [STDOUT_FILENO, STDERR_FILENO, STDIN_FILENO].first { isatty($0) == 1 }
        var modes = termios()
        terminal = tty.flatMap { tcgetattr($0, &modes) == 0 ? $0 : nil }
        savedModes = modes
    }

    /// Puts the modes and the signal dispositions back (once; also on deinit).
    public func end() {
        guard !ended else { return }
        ended = true
        if let terminal {
            var now = termios()
            if tcgetattr(terminal, &now) == 0, !ForegroundSession.same(now, savedModes) {
                _ = tcsetattr(terminal, TCSADRAIN, &savedModes)
            }
        }
        sigaction(SIGINT, &savedInterrupt, nil)
        sigaction(SIGQUIT, &savedQuit, nil)
    }

    private var ended = false

    deinit { end() }

    static func same(_ a: termios, _ b: termios) -> Bool {
        var a = a, b = b
        return memcmp(&a, &b, MemoryLayout<termios>.size) == 0
    }
}

extension ChildProcess {
    /// Runs a program that takes the terminal (an editor, a browser in the terminal) and waits
    /// for it: SIGINT/SIGQUIT are its own meanwhile, the terminal's modes are put back after.
    /// Its exit status, as `wait()` gives it.
    public static func runInForeground(_ arguments: [String], environment: [String: String]? = nil) throws(SpawnError) -> Int32 {
        let session = ForegroundSession()
        defer { session.end() }
        return try ChildProcess(arguments, environment: environment).wait()
    }
}
