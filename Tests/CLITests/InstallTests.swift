import Foundation
import TestSupport
import XCTest

/// Issue 19: installed like a Unix tool. The manual pages and the three shell completions
/// know every command and option the binary's help lists; `make install-data` puts each file
/// where distributions put them; the pages lint clean and the completions complete (with the
/// checkers and shells that are installed: `make test` installs mandoc).
final class InstallTests: XCTestCase {
    private let root = Fixtures.repositoryRoot

    private func file(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Each command of `feeds --help` with the options its own help lists.
    private func commandsAndOptions() throws -> [(command: String, options: [String])] {
        let usage = try FeedsCommand.run(["--help"]).stdout
        let section = usage.components(separatedBy: "commands:\n")[1].components(separatedBy: "\n\n")[0]
        let commands = section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        XCTAssertGreaterThanOrEqual(commands.count, 12, usage)
        return try commands.map { command in
            let help = try FeedsCommand.run(["help", command]).stdout
            var options: [String] = []
            for line in help.split(separator: "\n") where line.hasPrefix("  -") {
                for word in line.split(separator: " ").prefix(3) {
                    let option = word.trimmingCharacters(in: CharacterSet(charactersIn: ","))
                    if option.hasPrefix("-") { options.append(option) }
                }
            }
            return (command, options)
        }
    }

    private func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        process.currentDirectoryURL = root
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private func have(_ tool: String) -> Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/" + tool) }

    func testManualAndCompletionsKnowEveryCommandAndOption() throws {
        let page = try file("man/feeds.1")
        let bash = try file("completions/feeds.bash"), zsh = try file("completions/_feeds"), fish = try file("completions/feeds.fish")
        for (command, options) in try commandsAndOptions() {
            XCTAssertTrue(page.contains("Cm \(command)"), "feeds(1) lacks \(command)")
            XCTAssertTrue(bash.contains(" \(command)"), "bash lacks \(command)")
            XCTAssertTrue(zsh.contains("'\(command):"), "zsh lacks \(command)")
            XCTAssertTrue(fish.contains("-a \(command) "), "fish lacks \(command)")
            for option in options where option != "--help" && option != "-h" {
                let bare = String(option.drop { $0 == "-" })
                XCTAssertTrue(page.contains("Fl -\(bare)") || option == "-v", "feeds(1) lacks \(command) \(option)")
                XCTAssertTrue(bash.contains(option), "bash lacks \(command) \(option)")
                XCTAssertTrue(zsh.contains("\(option)["), "zsh lacks \(command) \(option)")
                XCTAssertTrue(fish.contains(option.hasPrefix("--") ? "-l \(bare)" : "-s \(bare)"), "fish lacks \(command) \(option)")
            }
        }
        for order in ["newest", "oldest", "source", "title", "relevance"] {
            for (name, text) in [("bash", bash), ("zsh", zsh), ("fish", fish), ("feeds(1)", page)] {
                XCTAssertTrue(text.contains(order), "\(name) lacks the order \(order)")
            }
        }
        let sourcesPage = try file("man/feeds-sources.5")
        for option in ["name=", "tags=", "every=", "keep-days=", "keep-cards=", "max-items=", "max-cards=", "endpoint=", "preview="] {
            XCTAssertTrue(sourcesPage.contains("Cm \(option)"), "feeds-sources(5) lacks \(option)")
        }
    }

    func testInstallPutsEachFileWhereDistributionsDo() throws {
        for (prefix, units) in [("/usr", "/usr/lib/systemd/user"), ("/usr/local", "/usr/local/lib/systemd/user")] {
            let stage = TemporaryDirectory("feeds-install")
            let r = try run("make", ["--no-print-directory", "install-data", "DESTDIR=\(stage.path)", "PREFIX=\(prefix)"])
            XCTAssertEqual(r.status, 0, r.output)
            for path in ["\(prefix)/share/man/man1/feeds.1", "\(prefix)/share/man/man5/feeds-sources.5",
                         "\(prefix)/share/bash-completion/completions/feeds", "\(prefix)/share/zsh/site-functions/_feeds",
                         "\(prefix)/share/fish/vendor_completions.d/feeds.fish",
                         "\(units)/feeds-update.service", "\(units)/feeds-update.timer"] {
                XCTAssertTrue(FileManager.default.fileExists(atPath: stage.path + path), "\(prefix): no \(path)")
            }
            let service = try String(contentsOfFile: stage.path + units + "/feeds-update.service", encoding: .utf8)
            XCTAssertTrue(service.contains("\nExecStart=\(prefix)/bin/feeds update\n"), service)
            let timer = try String(contentsOfFile: stage.path + units + "/feeds-update.timer", encoding: .utf8)
            XCTAssertTrue(timer.contains("OnCalendar=") && timer.contains("WantedBy=timers.target"), timer)
        }
    }

    /// systemd reads the units (the service's ExecStart naming a binary that is there).
    func testSystemdUnitsVerify() throws {
        try XCTSkipUnless(have("systemd-analyze"), "systemd-analyze is not installed")
        let stage = TemporaryDirectory("feeds-install-units")
        let bin = FeedsCommand.binary.deletingLastPathComponent().path
        let r = try run("make", ["--no-print-directory", "install-data", "DESTDIR=\(stage.path)", "PREFIX=/usr", "BINDIR=\(bin)"])
        XCTAssertEqual(r.status, 0, r.output)
        let units = stage.path + "/usr/lib/systemd/user/"
        let verify = try run("systemd-analyze", ["verify", "--man=no", units + "feeds-update.service", units + "feeds-update.timer"])
        XCTAssertEqual(verify.status, 0, verify.output)
        XCTAssertEqual(verify.output, "")
    }

    func testManualPagesLintClean() throws {
        try XCTSkipUnless(have("mandoc"), "mandoc is not installed (make test installs it)")
        let lint = try run("mandoc", ["-T", "lint", "-W", "warning", "man/feeds.1", "man/feeds-sources.5"])
        XCTAssertEqual(lint.status, 0, lint.output)
        XCTAssertEqual(lint.output, "")
        for page in ["man/feeds.1", "man/feeds-sources.5"] where have("man") {
            let man = try run("man", ["--warnings", "-l", page], environment: ["MANWIDTH": "80"])
            XCTAssertEqual(man.status, 0, man.output)
            XCTAssertTrue(man.output.contains("NAME"), man.output)
        }
    }

    /// Bash completes commands, orders and the names of the sources of the home given.
    func testBashCompletesOrdersAndSourceNames() throws {
        try XCTSkipUnless(have("bash"))
        let home = TemporaryDirectory("feeds-completion")
        try "a.rss name=\"My Blog\"\nb.rss name=Other\n".write(to: home.file("sources"), atomically: false, encoding: .utf8)
        let script = """
            source completions/feeds.bash
            comp() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _feeds; echo "${COMPREPLY[*]}"; }
            comp feeds se
            comp feeds read --sort r
            comp feeds --home \(home.path) remove M
            comp feeds --home \(home.path) read --source ""
            comp feeds mark ""
            """
        let bin = FeedsCommand.binary.deletingLastPathComponent().path
        let r = try run("bash", ["-c", script], environment: ["PATH": bin + ":/usr/bin:/bin"])
        XCTAssertEqual(r.output, "search\nrelevance\nMy\\ Blog\nMy\\ Blog Other\nread unread\n")
    }

    func testZshAndFishFilesParse() throws {
        if have("zsh") { XCTAssertEqual(try run("zsh", ["-n", "completions/_feeds"]).status, 0) }
        if have("fish") {
            XCTAssertEqual(try run("fish", ["-n", "completions/feeds.fish"]).status, 0)
            let home = TemporaryDirectory("feeds-completion-fish")
            try "a.rss name=\"My Blog\"\n".write(to: home.file("sources"), atomically: false, encoding: .utf8)
            let bin = FeedsCommand.binary.deletingLastPathComponent().path
            let r = try run("fish", ["-c", "source completions/feeds.fish; complete -C 'feeds --home \(home.path) remove '; complete -C 'feeds read --sort n'"],
                            environment: ["PATH": bin + ":/usr/bin:/bin"])
            XCTAssertTrue(r.output.contains("My Blog"), r.output)
            XCTAssertTrue(r.output.contains("newest"), r.output)
        }
    }
}
