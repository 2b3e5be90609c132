import Foundation

/// `feeds [--home DIR] COMMAND [OPTIONS] [ARGS]`: the thin shell around the library. Each
/// subcommand lives in its own file; this file only dispatches and maps errors to exit codes.
/// Every subcommand, in the order `feeds --help` lists them.
enum CLI {
    static var commands: [any Command.Type] {
        [
            UpdateCommand.self,
            SourcesCommand.self,
            AddCommand.self,
            DiscoverCommand.self,
            RemoveCommand.self,
            ImportCommand.self,
            ExportCommand.self,
            ParseCommand.self,
            ReadCommand.self,
            BrowseCommand.self,
            SearchCommand.self,
            MarkCommand.self,
            HTMLCommand.self,
            CacheCommand.self,
            MigrateCommand.self,
        ]
    }

    static func usage() -> String {
        var s = """
        usage: feeds [--home DIR] [--database URL] COMMAND [OPTIONS] [ARGS]

        A feed reader and aggregator: RSS, Atom, JSON Feed and saved web searches, as cards.

        commands:

        """
        let width = commands.map { $0.name.count }.max() ?? 8
        for c in commands {
            s += "  " + c.name + String(repeating: " ", count: width - c.name.count + 2) + c.summary + "\n"
        }
        s += """

        global options:
          --home DIR    keep sources, database and caches under DIR (also: FEEDS_HOME)
          --database URL
                        keep sources and cards in this PostgreSQL database, shared by any
                        number of update workers (postgres://user@host:port/db; also:
                        FEEDS_DATABASE); without it, SQLite in the home
          --help, -h    this help; 'feeds help COMMAND' or 'feeds COMMAND --help' for a command
          --version     the version

        exit status: 0 ok, 1 some sources failed, 2 usage or configuration error
        """
        return s
    }

    static func findCommand(_ name: String) throws -> any Command.Type {
        if let c = commands.first(where: { $0.name == name }) { return c }
        var message = "unknown command '\(name)'"
        if let close = Suggest.closest(to: name, in: commands.map { $0.name }) { message += " (did you mean '\(close)'?)" }
        throw UsageError(message)
    }

    /// Runs the command, then says a failed write to standard output (other than a reader
    /// that went away) in one line, with status 1, whatever the command.
    static func runMain(_ argv: [String]) -> ExitStatus {
        let status = run(argv)
        Output.standard.flush()
        if let code = Output.standard.failure {
            Diagnostics.error("cannot write to standard output: \(String(cString: strerror(code)))")
            return .someFailed
        }
        return status
    }

    static func run(_ argv: [String]) -> ExitStatus {
        var args = Array(argv.dropFirst())
        let environment = ProcessInfo.processInfo.environment
        var global = GlobalOptions(home: environment["FEEDS_HOME"],
                                   database: environment["FEEDS_DATABASE"].flatMap { $0.isEmpty ? nil : $0 })
        do {
            while let first = args.first, first.hasPrefix("-") {
                args.removeFirst()
                switch first {
                case "--help", "-h":
                    Output.standard.text(usage()); return .ok
                case "--version":
                    Output.standard.line("feeds \(Version.string)"); return .ok
                case "--home":
                    guard let dir = args.first else { throw UsageError("--home needs a directory") }
                    global.home = dir
                    args.removeFirst()
                case "--database":
                    guard let url = args.first, !url.isEmpty else { throw UsageError("--database needs a URL (postgres://user@host:port/database)") }
                    global.database = url
                    args.removeFirst()
                default:
                    if first.hasPrefix("--home=") { global.home = String(first.dropFirst(7)); continue }
                    if first.hasPrefix("--database=") { global.database = String(first.dropFirst(11)); continue }
                    throw UsageError("unknown option \(first)")
                }
            }
            guard let name = args.first else { throw UsageError("no command given") }
            args.removeFirst()
            if name == "help" {
                guard let topic = args.first else { Output.standard.text(usage()); return .ok }
                Output.standard.text(try findCommand(topic).help)
                return .ok
            }
            let command = try findCommand(name)
            if args.contains("--help") || args.contains("-h") {
                Output.standard.text(command.help)
                return .ok
            }
            let parsed = try Arguments(args, spec: command.spec, command: command.name)
            let status = try command.run(parsed, global: global)
            Output.standard.flush()
            return status
        } catch let e as UsageError {
            Output.standard.discard()
            Diagnostics.error("\(e.message); \(e.hint)")
            return .usage
        } catch {
            Output.standard.flush()
            Diagnostics.error(describe(error))
            return .usage
        }
    }

    /// One line, for a person.
    static func describe(_ error: Error) -> String {
        if let e = error as? LocalizedError, let d = e.errorDescription { return d }
        return String(describing: error)
    }
}
