import ContractChecks
import FeedModel
import Foundation
import TestSupport
import XCTest

/// Every input the fuzzers ever broke something with (Tests/Fixtures/fuzz/TARGET/*), replayed
/// through the same contract checks as `make fuzz`, plus the feed fixtures of the other suites
/// as extra inputs. A failure names the file and the broken invariant.
final class FuzzRegressionTests: XCTestCase {
    private func inputs(_ folder: String) throws -> [URL] {
        let url = Fixtures.url(folder)
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        return walker.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    func testSavedFuzzInputsKeepTheContract() throws {
        var replayed = 0
        for target in FuzzTarget.allCases {
            for file in try inputs("fuzz/" + target.rawValue) {
                replayed += 1
                XCTAssertNoThrow(try target.run([UInt8](Data(contentsOf: file))), file.lastPathComponent)
            }
        }
        XCTAssertGreaterThan(replayed, 0, "Tests/Fixtures/fuzz holds no inputs")
    }

    func testEveryFeedFixtureKeepsTheContract() throws {
        let files = try inputs("feeds")
        XCTAssertGreaterThan(files.count, 10)
        for file in files {
            XCTAssertNoThrow(try FuzzTarget.xml.run([UInt8](Data(contentsOf: file))), file.path)
        }
    }

    func testEveryMarkupFixtureKeepsTheContract() throws {
        for file in try inputs("markup") {
            XCTAssertNoThrow(try FuzzTarget.html.run([UInt8](Data(contentsOf: file))), file.path)
        }
    }
}
