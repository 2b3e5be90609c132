#if canImport(Glibc)
import Glibc
#endif

/// Why a child process could not be started, for a person.
public enum SpawnError: Error, Equatable, CustomStringConvertible {
    /// The program is not on `PATH` (or the path names no file).
    case notFound(String)
    /// posix_spawn or a call before it failed: the step and its errno.
    case failed(String, Int32)

    public var description: String {
        switch self {
        case .notFound(let program): return "'\(program)' not found (not a file, nor a program on PATH)"
        case .failed(let step, let code): return "\(step) failed: \(String(cString: strerror(code)))"
        }
    }
}

/// Programs feeds starts for a person (the pager, the browser): started with posix_spawn in
/// feeds's own process group, which is the terminal's foreground group when feeds is run from
/// a shell. Foundation's `Process` on Linux puts the child in a group of its own, outside the
/// foreground group, so the terminal stops it (SIGTTIN) at its first read: `less` never showed.
public final class ChildProcess {
    public let pid: pid_t
    private var status: Int32?

    /// Starts `arguments[0]` (looked up on `PATH` when it has no slash) with `stdin` as its
    /// standard input when given, the other descriptors inherited. Signals feeds ignores
    /// (SIGPIPE; SIGINT and SIGQUIT while a foreground child runs) are reset to their defaults
    /// in the child, and its signal mask is emptied: an ignored disposition survives exec.
    /// `stdout`/`stderr` replace those descriptors when given (a browser's chatter goes to
    /// /dev/null, never onto a full-screen reader); `ownGroup` starts it in a process group of
    /// its own, for a program that must not take the terminal nor get its signals (a browser
    /// started from `feeds browse`, which keeps the screen; a hang-up of the terminal leaves it be).
    public init(_ arguments: [String], stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil,
                ownGroup: Bool = false, environment: [String: String]? = nil) throws(SpawnError) {
        precondition(!arguments.isEmpty, "a child process needs a program")
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        guard posix_spawnattr_init(&attributes) == 0 else { throw .failed("posix_spawnattr_init", errno) }
        defer { posix_spawnattr_destroy(&attributes) }
        guard posix_spawn_file_actions_init(&actions) == 0 else { throw .failed("posix_spawn_file_actions_init", errno) }
        defer { posix_spawn_file_actions_destroy(&actions) }

        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD, SIGWINCH, SIGTERM, SIGHUP] { sigaddset(&defaults, s) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        // No POSIX_SPAWN_SETPGROUP unless asked: the child stays in feeds's process group (the
        // foreground one).
        var code = posix_spawnattr_setsigdefault(&attributes, &defaults)
        if code == 0 { code = posix_spawnattr_setsigmask(&attributes, &emptyMask) }
        let group = ownGroup ? POSIX_SPAWN_SETPGROUP : 0
        if code == 0 && ownGroup { code = posix_spawnattr_setpgroup(&attributes, 0) }
        if code == 0 { code = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | group)) }
        guard code == 0 else { throw .failed("posix_spawnattr_set", code) }
        for (from, to) in [(stdin, STDIN_FILENO), (stdout, STDOUT_FILENO), (stderr, STDERR_FILENO)] {
            guard let from, from != to else { continue }
            code = posix_spawn_file_actions_adddup2(&actions, from, to)
            guard code == 0 else { throw .failed("posix_spawn_file_actions_adddup2", code) }
        }

        let env = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        var child: pid_t = 0
        code = withCStrings(arguments) { argv in
            if let env {
                return withCStrings(env) { envp in posix_spawnp(&child, arguments[0], &actions, &attributes, argv, envp) }
            }
            return posix_spawnp(&child, arguments[0], &actions, &attributes, argv, environ)
        }
        if code == ENOENT || code == ENOTDIR { throw .notFound(arguments[0]) }
        guard code == 0 else { throw .failed("starting '\(arguments[0])'", code) }
        pid = child
    }

    /// Waits for the child to end; its exit status, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            if errno != EINTR { status = 127; return 127 }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        let signal = raw & 0x7F
        let result = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        status = result
        return result
    }

    /// The exit status if the child has ended (it is then reaped), else nil at once.
    public func exited() -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        let done = waitpid(pid, &raw, WNOHANG)
        if done == 0 { return nil }
        if done < 0 { status = 127; return 127 }
        let signal = raw & 0x7F
        let result = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        status = result
        return result
    }

    /// Lets the child run on after this object is gone (a browser outliving `feeds browse`):
    /// deinit no longer waits for it; whoever adopts it (init, once feeds ends) reaps it.
    public func disown() { disowned = true }

    private var disowned = false

    deinit { if status == nil && !disowned { wait() } }
}

/// A NULL-terminated C array of strings for the time of `body`.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for p in pointers { free(p) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
