import FeedModel
import XCTest

/// The one grammar of durations and times (issue 19), tested once here; the options that use
/// it are tested for taking it in Tests/CLITests/OneGrammarTests.swift.
final class TimeSpecTests: XCTestCase {
    private let now = Timestamp(year: 2026, month: 12, day: 1, hour: 12)!

    func testDurations() {
        let cases: [(String, Int64)] = [("90s", 90), ("30m", 1_800), ("2h", 7_200), ("1d", 86_400), ("2w", 1_209_600),
                                        ("0d", 0), ("36H", 129_600), ("1000000000w", 1_000_000_000 * 604_800)]
        for (text, seconds) in cases {
            XCTAssertEqual(TimeSpec.parse(text), .duration(seconds: seconds), text)
            XCTAssertEqual(TimeSpec.parse(text)?.moment(before: now), now.adding(-seconds), text)
        }
    }

    func testDatesAndRFC3339Times() {
        let cases: [(String, Timestamp)] = [
            ("2026-11-01", Timestamp(year: 2026, month: 11, day: 1)!),
            ("2026-11-01T08:30:00Z", Timestamp(year: 2026, month: 11, day: 1, hour: 8, minute: 30)!),
            ("2026-11-01t08:30:00z", Timestamp(year: 2026, month: 11, day: 1, hour: 8, minute: 30)!),
            ("2026-11-01 08:30:00+01:00", Timestamp(year: 2026, month: 11, day: 1, hour: 7, minute: 30)!),
            ("2026-11-01T08:30:00.123456-05:30", Timestamp(year: 2026, month: 11, day: 1, hour: 14)!),
        ]
        for (text, moment) in cases {
            XCTAssertEqual(TimeSpec.parse(text), .moment(moment), text)
            XCTAssertEqual(TimeSpec.parse(text)?.moment(before: now), moment, text)
        }
    }

    /// Classes of wrong text: no unit, unknown unit, signs, blanks, fractions, non-ASCII digits,
    /// overflowing numbers, impossible dates and times, zones out of range, trailing rubbish.
    func testEverythingElseIsRefused() {
        for text in ["", "30", "30x", "m", "-5m", "+5m", " 5m", "5 m", "5m ", "1.5h", "٥m", "５m", "1000000001w",
                     "99999999999999999999s", "2026-13-01", "2026-02-30", "2026-1-01", "26-11-01", "2026-11-01T",
                     "2026-11-01T08:30Z", "2026-11-01T25:00:00Z", "2026-11-01T08:30:00", "2026-11-01T08:30:00+19:00",
                     "2026-11-01T08:30:00+0100", "2026-11-01T08:30:00.Z", "2026-11-01T08:30:00Zx", "yesterday",
                     "Fri, 05 Jan 2024 08:00:00 GMT"] {
            XCTAssertNil(TimeSpec.parse(text), text)
        }
    }

    func testABareNumberOnlyWhereTheOptionHasAUnit() {
        XCTAssertNil(TimeSpec.durationSeconds("30"))
        XCTAssertEqual(TimeSpec.durationSeconds("30", bareUnit: 60), 1_800)
        XCTAssertEqual(TimeSpec.durationSeconds("2w", bareUnit: 86_400), 1_209_600)
    }

    func testTheOneMessage() {
        XCTAssertEqual(TimeSpec.problem("every=", "soon", durationsOnly: true), "every=soon is not a duration: write 90s, 30m, 2h, 1d or 2w")
        XCTAssertEqual(TimeSpec.problem("--since", "soon"),
                       "--since soon is not a duration or a time: write 90s, 30m, 2h, 1d or 2w (back from now), a date (2026-11-01) or an RFC 3339 time (2026-11-01T08:00:00Z)")
    }
}
