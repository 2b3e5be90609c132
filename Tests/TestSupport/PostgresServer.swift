import Foundation

/// A real PostgreSQL server on 127.0.0.1, in a temporary folder of its own, for the tests of
/// the PostgreSQL store: `initdb` and `pg_ctl` from Debian's `postgresql` package, run as an
/// unprivileged user when the tests run as root (the server refuses to run as root, and CI
/// runs as root), fsync off (a test's data need not survive a power cut), stopped
/// (`pg_ctl stop -m immediate`) and its folder removed by `stop()` or when released.
///
/// Starting one takes about a second, so a test class starts one in `setUp()` of the class
/// and each test makes a database of its own (`makeDatabase()`).
public final class PostgresServer: @unchecked Sendable {
    /// What made a server impossible to start; tests skip only on `.notInstalled` when not root.
    public enum Failure: Error, CustomStringConvertible {
        case notInstalled(String)
        case failed(step: String, output: String)

        public var description: String {
            switch self {
            case .notInstalled(let message): return message
            case let .failed(step, output): return "PostgreSQL test server: \(step) failed: \(output)"
            }
        }
    }

    public let port: Int
    /// The role every test connects as (superuser of this throwaway cluster, trust auth).
    public let user = "feeds"
    private let folder: TemporaryDirectory
    private let binaries: URL
    /// The unprivileged account the server runs as (nil when the tests do not run as root).
    private let account: String?
    private var stopped = false
    private var databases = 0
    private let lock = NSLock()

    /// The folder of `initdb` and `pg_ctl`: the newest of /usr/lib/postgresql/N/bin (where
    /// Debian puts them: they are not on PATH), else the folder of `initdb` on PATH.
    public static func binaryFolder() -> URL? {
        let fm = FileManager.default
        let versions = (try? fm.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let bin = URL(fileURLWithPath: "/usr/lib/postgresql/\(version)/bin")
            if fm.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path),
               fm.isExecutableFile(atPath: bin.appendingPathComponent("pg_ctl").path) { return bin }
        }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let bin = URL(fileURLWithPath: String(dir))
            if fm.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path),
               fm.isExecutableFile(atPath: bin.appendingPathComponent("pg_ctl").path) {
                return bin.resolvingSymlinksInPath()
            }
        }
        return nil
    }

    public static var isRoot: Bool { geteuid() == 0 }

    /// Creates a cluster and starts its server. Throws `.notInstalled` when PostgreSQL is not
    /// installed (`make test` installs it), `.failed` with the tool's output otherwise.
    public init() throws {
        guard let binaries = Self.binaryFolder() else {
            throw Failure.notInstalled("PostgreSQL's initdb and pg_ctl were not found (Debian package postgresql: `make test` installs it, or `sudo apt-get install postgresql`)")
        }
        self.binaries = binaries
        account = Self.isRoot ? try Self.unprivilegedAccount() : nil
        Self.stopAbandonedServers(binaries, account)
        let folder = TemporaryDirectory("feeds-pg")
        self.folder = folder
        // Whose server this is, for `stopAbandonedServers` of later runs.
        if let owner = Self.owner(getpid()) {
            try owner.write(toFile: folder.file("owner").path, atomically: true, encoding: .utf8)
        }
        let data = folder.file("data").path
        let sockets = folder.file("sockets").path
        try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        if let account {
            try Self.run(["/usr/bin/chown", "-R", account, folder.path], step: "chown of the test folder", log: nil)
        }
        let log = folder.file("tools.log").path
        try Self.tool(binaries, account, ["initdb", "-D", data, "-U", user, "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"],
                step: "initdb", log: log)
        // A free port now; another program could take it before the server binds it: then the
        // start fails and is tried again on another.
        var started: Int?
        var lastError: Error?
        for _ in 0..<3 {
            let candidate = try Self.freePort()
            do {
                let options = ["listen_addresses=127.0.0.1", "port=\(candidate)", "unix_socket_directories='\(sockets)'",
                               "fsync=off", "synchronous_commit=off", "full_page_writes=off",
                               "shared_buffers=16MB", "max_connections=40", "log_min_messages=warning"]
                    .map { "-c \($0)" }.joined(separator: " ")
                try Self.tool(binaries, account, ["pg_ctl", "start", "-w", "-t", "60", "-D", data, "-l", folder.file("server.log").path, "-o", options],
                        step: "pg_ctl start", log: log)
                started = candidate
                break
            } catch {
                lastError = error
            }
        }
        guard let started else { throw lastError ?? Failure.failed(step: "pg_ctl start", output: "") }
        port = started
    }

    deinit { stop() }

    /// `postgresql://feeds@127.0.0.1:PORT/NAME`: over TCP on loopback, as a worker on another
    /// machine would connect.
    public func url(database: String) -> String { "postgresql://\(user)@127.0.0.1:\(port)/\(database)" }

    /// A new empty database (its name unique in this server) and its URL.
    public func makeDatabase() throws -> String {
        let name: String = lock.withLock {
            databases += 1
            return "test\(databases)"
        }
        try run(["createdb", "-h", "127.0.0.1", "-p", String(port), "-U", user, name], step: "createdb", log: folder.file("tools.log").path, asAccount: false)
        return url(database: name)
    }

    /// Stops the server at once (no checkpoint: nothing in it is kept) and removes its folder.
    public func stop() {
        let done: Bool = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        guard !done else { return }
        try? run(["pg_ctl", "stop", "-m", "immediate", "-w", "-D", folder.file("data").path],
                 step: "pg_ctl stop", log: folder.file("tools.log").path)
    }

    // MARK: - Servers of killed test runs

    /// A test process killed before its class tear-down (a timeout, Ctrl-C, a closed pipe)
    /// leaves its server running and its folder behind: the first server of each later run
    /// stops those whose owner process is gone and removes their folders. A folder without an
    /// `owner` file is not ours and is left alone; so is every server whose test run still runs.
    private static func stopAbandonedServers(_ binaries: URL, _ account: String?) {
        let base = FileManager.default.temporaryDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base.path) else { return }
        for name in names where name.hasPrefix("feeds-pg-") {
            let folder = base.appendingPathComponent(name)
            guard let recorded = try? String(contentsOfFile: folder.appendingPathComponent("owner").path, encoding: .utf8),
                  let pid = Int32(recorded.split(separator: " ").first ?? "") else { continue }
            guard owner(pid) != recorded else { continue }
            let data = folder.appendingPathComponent("data")
            if FileManager.default.fileExists(atPath: data.appendingPathComponent("postmaster.pid").path) {
                try? tool(binaries, account, ["pg_ctl", "stop", "-m", "immediate", "-w", "-D", data.path],
                          step: "stopping an abandoned server", log: "/dev/null")
            }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// "PID START": the process and its start time (field 22 of /proc/PID/stat, in clock ticks
    /// since boot), so a pid the kernel gave to another process later does not pass for the
    /// owner. Nil when there is no such process.
    private static func owner(_ pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": state is field 3, so the start time is the 20th field after ")".
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 19 else { return nil }
        return "\(pid) \(fields[19])"
    }

    // MARK: - Running the tools

    /// Runs one of the PostgreSQL tools, as the unprivileged account when there is one.
    private func run(_ arguments: [String], step: String, log: String, asAccount: Bool = true) throws {
        try Self.tool(binaries, asAccount ? account : nil, arguments, step: step, log: log)
    }

    private static func tool(_ binaries: URL, _ account: String?, _ arguments: [String], step: String, log: String) throws {
        var command = [binaries.appendingPathComponent(arguments[0]).path] + arguments.dropFirst()
        if let account { command = ["/usr/sbin/runuser", "-u", account, "--"] + command }
        try run(command, step: step, log: log)
    }

    /// Runs `arguments`, output to the file `log`, and throws with that output when it fails.
    /// posix_spawn and waitpid rather than Foundation's `Process`: on Linux its wait ends when a
    /// descriptor it gives the child is closed, and the server pg_ctl starts inherits it and
    /// keeps it open, so `waitUntilExit` never returned. Here the child gets only its standard
    /// descriptors (the log, /dev/null).
    private static func run(_ arguments: [String], step: String, log: String?) throws {
        let path = log ?? "/dev/null"
        let output = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o666)
        guard output >= 0 else { throw Failure.failed(step: step, output: "cannot write \(path): errno \(errno)") }
        defer { close(output) }
        // The unprivileged account writes the same log.
        if log != nil && isRoot { fchmod(output, 0o666) }
        let start = lseek(output, 0, SEEK_END)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        // The server's and tools' messages in English, whatever the machine's language.
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C"
        environment.removeValue(forKey: "PGPASSWORD")
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw Failure.failed(step: step, output: "cannot run \(arguments[0]): errno \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS are macros Swift does not import: the low 7 bits are the
        // signal (0 for an exit), the next 8 the exit status.
        let signal = status & 0x7f
        let code = (status >> 8) & 0xff
        guard signal == 0 && code == 0 else {
            var text = ""
            if let log, let data = FileManager.default.contents(atPath: log), start >= 0, data.count > Int(start) {
                text = String(decoding: data[Int(start)...], as: UTF8.self)
            }
            let how = signal == 0 ? "exit \(code)" : "signal \(signal)"
            throw Failure.failed(step: step, output: "\(arguments.joined(separator: " ")): \(how): \(text.suffix(2000))")
        }
    }

    /// The account the server runs as under root: `feeds-test`, created (a system account with
    /// no home and no shell) when missing; `nobody` if it cannot be created.
    private static func unprivilegedAccount() throws -> String {
        let name = "feeds-test"
        if getpwnam(name) != nil { return name }
        // Several test processes may race to create it: whoever loses finds it made.
        try? run(["/usr/sbin/useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent",
                  "--shell", "/usr/sbin/nologin", name], step: "useradd", log: nil)
        if getpwnam(name) != nil { return name }
        return "nobody"
    }

    /// A port on 127.0.0.1 nothing listens on at the moment: the kernel's pick for port 0.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.failed(step: "finding a free port", output: "socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure.failed(step: "finding a free port", output: "bind: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw Failure.failed(step: "finding a free port", output: "getsockname: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
