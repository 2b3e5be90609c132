import Foundation
import TestSupport
import XCTest

/// The command-line skeleton: help, version, usage errors and their exit status.
final class CommandLineTests: XCTestCase {
    func testVersionAndHelp() throws {
        let version = try FeedsCommand.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("feeds "), version.stdout)
        let help = try FeedsCommand.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("parse"), help.stdout)
        XCTAssertTrue(help.stdout.contains("exit status"), help.stdout)
        for args in [["help", "parse"], ["parse", "--help"]] {
            let r = try FeedsCommand.run(args)
            XCTAssertEqual(r.status, 0)
            XCTAssertTrue(r.stdout.contains("usage: feeds parse"), r.stdout)
            XCTAssertTrue(r.stdout.contains("\noptions:\n"), "the help keeps its lines: \(r.stdout)")
        }
        XCTAssertTrue(help.stdout.hasPrefix("usage: feeds [--home DIR] [--database URL] COMMAND [OPTIONS] [ARGS]\n"), help.stdout)
    }

    func testUnknownCommandIsAUsageErrorWithAHint() throws {
        let r = try FeedsCommand.run(["pars", "x.xml"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("unknown command 'pars'"), r.stderr)
        XCTAssertTrue(r.stderr.contains("did you mean 'parse'"), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
    }

    func testUnknownOptionAndMissingValue() throws {
        let r = try FeedsCommand.run(["parse", "--jsn", "x.xml"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("did you mean --json"), r.stderr)
        XCTAssertTrue(r.stderr.contains("feeds parse --help"), r.stderr)
        let missing = try FeedsCommand.run(["parse", "--base"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("--base needs a value"), missing.stderr)
        XCTAssertEqual(try FeedsCommand.run([]).status, 2)
        XCTAssertEqual(try FeedsCommand.run(["--bogus"]).status, 2)
    }
}

/// libcurl is loaded when something is fetched, not at start-up (see CCurlShim): commands that
/// never fetch do not pay for mapping it and its thirty libraries.
final class LibcurlLoadingTests: XCTestCase {
    func testParseDoesNotLoadLibcurl() throws {
        let doc = "<rss version='2.0'><channel><item><title>t</title></item></channel></rss>"
        // The dynamic loader lists every library it loads on standard error with LD_DEBUG=libs.
        let r = try FeedsCommand.run(["parse", "-"], stdin: Data(doc.utf8), environment: ["LD_DEBUG": "libs"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("libxml2"), "LD_DEBUG gave no list of libraries: \(r.stderr.prefix(300))")
        XCTAssertFalse(r.stderr.contains("libcurl"), "libcurl was loaded by `feeds parse`")
    }
}
