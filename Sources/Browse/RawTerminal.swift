#if canImport(Glibc)
import Glibc
#endif

/// Why the terminal could not be taken, or why a key could not do its work: one line for a person.
public struct BrowseError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

// What the signal handlers need, set before they are installed and only read by them: plain C
// memory (no Swift allocation, lock or reference count is safe in a signal handler).
nonisolated(unsafe) private var savedModes = termios()
nonisolated(unsafe) private var terminalDescriptor: Int32 = -1
nonisolated(unsafe) private var resizePipe: (read: Int32, write: Int32) = (-1, -1)
nonisolated(unsafe) private var leaveSequence: UnsafeMutablePointer<UInt8>?
nonisolated(unsafe) private var leaveLength = 0

/// Puts the terminal back from a signal handler: async-signal-safe calls only.
private func restoreFromSignal() {
    guard terminalDescriptor >= 0 else { return }
    if let leaveSequence { _ = write(terminalDescriptor, leaveSequence, leaveLength) }
    _ = tcsetattr(terminalDescriptor, TCSAFLUSH, &savedModes)
}

/// A fatal signal (SIGTERM, SIGHUP, a crash): the terminal is put back, then the signal does
/// what it would have done (SA_RESETHAND made its disposition the default again).
private func fatalSignal(_ signal: Int32) {
    restoreFromSignal()
    raise(signal)
}

/// SIGWINCH: a byte down the pipe the key loop polls, so the redraw happens there.
private func windowChanged(_ signal: Int32) {
    let saved = errno
    var byte: UInt8 = 1
    _ = write(resizePipe.write, &byte, 1)
    errno = saved
}

/// The terminal taken for a full-screen program: raw mode (keys one at a time, no echo, no
/// signals from Ctrl-C: it is a key), the alternate screen, the cursor hidden; everything put
/// back by `restore()` (on `q`), by the handlers of every fatal signal, and SIGWINCH turned into
/// a readable descriptor (`resizeDescriptor`).
///
/// termios and ANSI sequences rather than ncursesw: no new system library, the drawing stays a
/// pure function of the state (a whole frame is a few kilobytes: no need of curses' screen diff),
/// and what runs on the terminal is these 60 lines.
public final class RawTerminal {
    public let input: Int32
    public let output: Int32
    private var restored = false
    private var previousActions: [(Int32, sigaction)] = []

    static let fatalSignals = [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
    static let leaveSequenceText = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// Takes the terminal on `input`/`output`; throws when either is not a terminal.
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws {
        guard isatty(input) == 1, isatty(output) == 1 else {
            throw BrowseError(description: "standard input and output must be a terminal")
        }
        self.input = input
        self.output = output
        var modes = termios()
        guard tcgetattr(input, &modes) == 0 else {
            throw BrowseError(description: "cannot read the terminal's modes: \(String(cString: strerror(errno)))")
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw BrowseError(description: "pipe failed: \(String(cString: strerror(errno)))") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        savedModes = modes
        terminalDescriptor = input
        resizePipe = (ends[0], ends[1])
        let leave = Array(Self.leaveSequenceText.utf8)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: leave.count)
        buffer.initialize(from: leave, count: leave.count)
        leaveSequence = buffer
        leaveLength = leave.count

        for signal in Self.fatalSignals { install(signal, fatalSignal, flags: Int32(bitPattern: UInt32(SA_RESETHAND)) | SA_NODEFER) }
        install(SIGWINCH, windowChanged, flags: SA_RESTART)

        var raw = modes
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            let code = errno
            restore()
            throw BrowseError(description: "cannot set the terminal's modes: \(String(cString: strerror(code)))")
        }
        write(Self.enterSequence)
    }

    private func install(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void, flags: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        var previous = sigaction()
        if sigaction(signal, &action, &previous) == 0 { previousActions.append((signal, previous)) }
    }

    /// Readable once the window changed size (drain it with `takeResize`).
    public var resizeDescriptor: Int32 { resizePipe.read }

    /// Whether the window changed since the last call (empties the pipe).
    public func takeResize() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        var any = false
        while read(resizePipe.read, &buffer, buffer.count) > 0 { any = true }
        return any
    }

    /// The window's size now.
    public func size() -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Writes all of `text` (retrying short writes; a terminal gone is ignored: the next read ends).
    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(output, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Leaves the alternate screen, shows the cursor, puts the modes and the signal handlers back.
    public func restore() {
        guard !restored else { return }
        restored = true
        write(Self.leaveSequenceText)
        _ = tcsetattr(input, TCSAFLUSH, &savedModes)
        for (signal, previous) in previousActions.reversed() {
            var action = previous
            sigaction(signal, &action, nil)
        }
        terminalDescriptor = -1
        close(resizePipe.read)
        close(resizePipe.write)
        resizePipe = (-1, -1)
    }

    deinit { restore() }
}
