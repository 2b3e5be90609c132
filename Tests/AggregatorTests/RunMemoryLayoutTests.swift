@testable import Aggregator
import Storage
import XCTest

/// An update run holds, for its whole length, the sources file's entries and one `RunSlot` per
/// chosen source, and a `RunSource` per source in flight (see RunHoldsLittlePerSourceTests) (issue 21: at 5,000 feeds a field added inline here costs 5,000 times its size
/// of peak memory, which the goal keeps flat in the number of feeds). These bounds fail when a
/// field is added inline: box it, or keep it out of the run (see `RunState`).
final class RunMemoryLayoutTests: XCTestCase {
    func testWhatARunHoldsPerSourceStaysSmall() {
        XCTAssertLessThanOrEqual(MemoryLayout<SourceEntry>.stride, 160)
        XCTAssertLessThanOrEqual(MemoryLayout<RunState>.stride, 128)
        XCTAssertLessThanOrEqual(MemoryLayout<RunSource>.stride, 288)
    }
}
