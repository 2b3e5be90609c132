import CPseudoTerminal
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal for running a program as a person runs it in a terminal: the program is
/// started in a session of its own with the terminal as its controlling terminal (posix_spawn
/// with POSIX_SPAWN_SETSID, then opening the slave side), so it is in the terminal's foreground
/// process group as under a shell. The test holds the master: it sets the window size, types
/// keys, and feeds what the program writes into a `TerminalScreen`. Everything is bounded in
/// time: waits take a deadline, and the program's process group is killed at the end.
public final class PseudoTerminal {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    private let master: Int32
    /// Kept open by the test, so the terminal's modes can be read after the program ended.
    private let slave: Int32
    private let slavePath: String
    public private(set) var screen: TerminalScreen
    /// Every byte the program wrote, escape sequences included.
    public private(set) var output: [UInt8] = []
    private var pid: pid_t = 0
    private var exitStatus: Int32?

    public init(rows: Int = 24, columns: Int = 80) throws {
        var name = [CChar](repeating: 0, count: 128)
        master = cpt_open_master(&name, name.count)
        guard master >= 0 else { throw Failure(description: "no pseudo-terminal: \(String(cString: strerror(errno)))") }
        slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw Failure(description: "cannot open \(slavePath): \(String(cString: strerror(errno)))") }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        screen = TerminalScreen(rows: rows, columns: columns)
        resize(rows: rows, columns: columns)
    }

    deinit {
        if pid > 0 && exitStatus == nil {
            kill(-pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
        close(slave)
        close(master)
    }

    /// Sets the window size (the program gets SIGWINCH if it runs) and the screen model's.
    public func resize(rows: Int, columns: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        screen.resize(rows: rows, columns: columns)
    }

    /// The terminal's modes now (termios), to compare before and after.
    public func modes() -> termios {
        var t = termios()
        tcgetattr(slave, &t)
        return t
    }

    public static func sameModes(_ a: termios, _ b: termios) -> Bool {
        a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_cflag == b.c_cflag && a.c_lflag == b.c_lflag
            && withUnsafeBytes(of: a.c_cc) { x in withUnsafeBytes(of: b.c_cc) { y in x.elementsEqual(y) } }
    }

    /// The environment of a person's terminal, with nothing from the test's own: a UTF-8
    /// locale, TERM=xterm, `less` keeping no history, HOME in `home`.
    public static func environment(home: String, _ extra: [String: String] = [:]) -> [String: String] {
        var env = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "TERM": "xterm", "LANG": "C.UTF-8",
                   "LESSHISTFILE": "-"]
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// Starts `arguments` (a path to a program, then its arguments) on the terminal.
    public func start(_ arguments: [String], environment: [String: String]) throws {
        precondition(pid == 0, "one program per terminal")
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let code = cpt_spawn_on_terminal(&pid, arguments[0], slavePath, argv, envp)
        guard code == 0 else { throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(code)))") }
    }

    /// Types `keys` (bytes as a terminal sends them: "q", "\u{3}" for Ctrl-C, "\u{1B}[6~" PgDn).
    public func send(_ keys: String) {
        let bytes = Array(keys.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress!, $0.count) }
    }

    /// Reads what the program wrote for up to `seconds` (less when the terminal closes).
    public func pump(_ seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = end.timeIntervalSinceNow
            var watch = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watch, 1, Int32(max(0, min(50, left * 1000))))
            if ready > 0 {
                let n = read(master, &buffer, buffer.count)
                if n > 0 {
                    output += buffer[0..<n]
                    screen.feed(Array(buffer[0..<n]))
                    continue
                }
            }
            if left <= 0 { return }
        }
    }

    /// Waits until `condition` holds of the screen, at most `timeout` seconds; whether it did.
    @discardableResult
    public func wait(timeout: Double = 10, for condition: (TerminalScreen) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            pump(0.05)
            if condition(screen) { return true }
        }
        pump(0)
        return condition(screen)
    }

    /// Waits until the screen shows `text`.
    @discardableResult
    public func wait(forText text: String, timeout: Double = 10) -> Bool {
        wait(timeout: timeout) { $0.text.contains(text) }
    }

    /// The program's exit status (128 + signal when killed by one) once it ended within
    /// `timeout` seconds, else nil (it is then killed with its process group at deinit).
    public func waitForExit(timeout: Double = 10) -> Int32? {
        if let exitStatus { return exitStatus }
        let end = Date().addingTimeInterval(timeout)
        while true {
            pump(0.02)
            var raw: Int32 = 0
            let done = waitpid(pid, &raw, WNOHANG)
            if done == pid {
                pump(0.05)
                let signal = raw & 0x7F
                exitStatus = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
                return exitStatus
            }
            if Date() >= end { return nil }
        }
    }

    /// Sends `signal` to the program (SIGTERM, SIGHUP: what a closed window or `kill` does).
    public func signal(_ signal: Int32) {
        if pid > 0 && exitStatus == nil { kill(pid, signal) }
    }

    /// Whether the program is still running.
    public var isRunning: Bool {
        guard exitStatus == nil, pid > 0 else { return false }
        return waitForExit(timeout: 0) == nil
    }

    /// The raw output as text (escape sequences included).
    public var outputText: String { String(decoding: output, as: UTF8.self) }
}
