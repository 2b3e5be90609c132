import Foundation
import TestSupport
import XCTest
@testable import Markup

/// One sanitizer expectation: `html` in, substrings that must (not) appear in the output.
struct SanitizeCase: Decodable {
    struct Check: Decodable {
        var op: String
        var value: String
        var ignore_case: Bool?
    }
    var `case`: String
    var html: String
    var checks: [Check]
}

final class SanitizerTests: XCTestCase {
    private func s(_ html: String, base: String? = nil) -> String { HTMLSanitizer.sanitize(html, base: base) }

    /// Runs `sanitize` and checks idempotence on the way.
    private func clean(_ html: String, base: String? = nil, file: StaticString = #filePath, line: UInt = #line) -> String {
        let once = s(html, base: base)
        XCTAssertEqual(s(once, base: base), once, "not idempotent for \(html.prefix(200))", file: file, line: line)
        return once
    }

    // MARK: - feedparser's sanitize corpus

    func testFeedparserSanitizeCorpus() throws {
        struct Corpus: Decodable { var cases: [SanitizeCase] }
        let corpus = try JSONDecoder().decode(Corpus.self, from: Fixtures.data("markup/sanitize-cases.json"))
        XCTAssertGreaterThan(corpus.cases.count, 70)
        for c in corpus.cases {
            let out = clean(c.html)
            for check in c.checks {
                let hay = check.ignore_case == true ? out.lowercased() : out
                let needle = check.ignore_case == true ? check.value.lowercased() : check.value
                switch check.op {
                case "contains": XCTAssertTrue(hay.contains(needle), "\(c.case): \(out) should contain \(needle)")
                case "not_contains": XCTAssertFalse(hay.contains(needle), "\(c.case): \(out) should not contain \(needle)")
                default: XCTFail("unknown op \(check.op)")
                }
            }
        }
    }
}
