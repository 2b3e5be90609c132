import XCTest
import TestSupport

/// What the dynamic loader maps when `feeds` starts: libcurl and libpq (each with some twenty
/// libraries of its own) are loaded on first use, never at the start of a command that does
/// not need them (see ccurl_shim.h and cpq_shim.h).
final class StartupLibrariesTests: XCTestCase {
    func testNeitherLibcurlNorLibpqIsLoadedAtStart() throws {
        // glibc's loader lists every library it initialises on standard error with LD_DEBUG=libs.
        let result = try FeedsCommand.run(["--version"], environment: ["LD_DEBUG": "libs"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("libc.so"), "the loader's list is missing: \(result.stderr.prefix(500))")
        XCTAssertFalse(result.stderr.contains("libpq.so"), "libpq is loaded at start")
        XCTAssertFalse(result.stderr.contains("libcurl.so"), "libcurl is loaded at start")
    }
}
