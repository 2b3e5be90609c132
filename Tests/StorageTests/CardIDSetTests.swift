import XCTest
@testable import Storage

/// The membership test a filtered relevance search runs per full-text match (`CardIDSet`): a
/// bitmap over dense ids, a set over sparse ones; either way the answers of a `Set`.
final class CardIDSetTests: XCTestCase {
    /// Generated lists: empty, one id, dense runs, every other id, sparse, negative, the extremes
    /// of Int64 (whose span overflows), duplicates; probed at, around and far from every id.
    func testAnswersAsASetDoes() {
        var seed: UInt64 = 7
        func next() -> Int64 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int64(bitPattern: seed >> 1)
        }
        var lists: [[Int64]] = [[], [5], [0], [-3], [Int64.max], [Int64.min], [Int64.min, Int64.max],
                                Array(1...1_000), Array(stride(from: 2, through: 20_000, by: 2)),
                                [1, 1, 1, 64, 64, 65, 127, 128], Array(-500...500)]
        for _ in 0..<20 {
            let base = next() % 1_000_000
            let count = Int(next() % 3_000)
            let gap = 1 + next() % 200
            lists.append((0..<count).map { _ in base + (next() % (Int64(count) * gap + 1)) })
        }
        for list in lists {
            let bits = CardIDSet(list)
            let set = Set(list)
            var probes: [Int64] = [0, 1, -1, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
            for id in list.prefix(500) {
                probes += [id, id &- 1, id &+ 1, id &+ 63, id &- 64, id &+ 64, id &+ 1_000_000]
            }
            for probe in probes {
                XCTAssertEqual(bits.contains(probe), set.contains(probe), "\(probe) in a list of \(list.count)")
            }
        }
    }
}
