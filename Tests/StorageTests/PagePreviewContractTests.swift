import XCTest
import FeedModel
import TestSupport
@testable import Storage

/// `PagePreviewStore` on both backends: what a page declared (or that it declared nothing)
/// kept with its time, replaced by a later look, found by the page's URL, awkward and huge
/// URLs included; a URL no row can have (empty, U+0000) not kept on either.
final class PagePreviewContractTests: TwoBackendsTestCase {
    private var stores: [any PagePreviewStore] { [sqlite, postgres] }

    func testEntriesAreKeptReplacedAndFoundAlike() throws {
        for store in stores {
            let name = "\(type(of: store))"
            XCTAssertEqual(try store.pagePreviews(for: []), [:], name)
            XCTAssertEqual(try store.pagePreviews(for: ["https://a.example/1"]), [:], name)
            try store.savePagePreviews(["https://a.example/1": "https://a.example/1.png", "https://a.example/2": nil], checkedAt: t(1))
            try store.savePagePreviews([:], checkedAt: t(2))
            XCTAssertEqual(try store.pagePreviews(for: ["https://a.example/1", "https://a.example/2", "https://a.example/3"]), [
                "https://a.example/1": PagePreviewEntry(image: "https://a.example/1.png", checkedAt: t(1)),
                "https://a.example/2": PagePreviewEntry(image: nil, checkedAt: t(1)),
            ], name)
            // A later look replaces the entry, image and time.
            try store.savePagePreviews(["https://a.example/1": nil, "https://a.example/2": "https://a.example/2.jpg"], checkedAt: t(3))
            XCTAssertEqual(try store.pagePreviews(for: ["https://a.example/2", "https://a.example/1", "https://a.example/1"]), [
                "https://a.example/1": PagePreviewEntry(image: nil, checkedAt: t(3)),
                "https://a.example/2": PagePreviewEntry(image: "https://a.example/2.jpg", checkedAt: t(3)),
            ], name)
        }
    }

    func testAwkwardURLsRoundTripAndUnkeyableOnesAreNotKept() throws {
        var generator = SplitMix64(seed: 5)
        let random = String((0..<20_000).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x21...0x7E, using: &generator))) })
        let awkward = ["NULL", "{1,2}", "{\"a\",NULL}", "\"", "\\", "'; DROP TABLE page_previews; --", "$1 ?1", "a,b", " ",
                       "tab\tline\n", "emoji 🧪", "\u{202E}rtl", "\u{FFFD}", "https://p.example/" + random]
        let unkeyable = ["", "\u{0}", "https://p.example/\u{0}x"]
        var entries: [String: String?] = [:]
        for (index, url) in (awkward + unkeyable).enumerated() { entries[url] = index % 2 == 0 ? url + ".png" : nil }
        for store in stores {
            let name = "\(type(of: store))"
            try store.savePagePreviews(entries, checkedAt: Timestamp(secondsSince1970: .max))
            let found = try store.pagePreviews(for: awkward + unkeyable)
            XCTAssertEqual(Set(found.keys), Set(awkward), name)
            // Not the entry of the URL before the U+0000 either (SQLite's json_each ends a string there).
            XCTAssertEqual(try store.pagePreviews(for: ["NULL\u{0}", "\u{202E}rtl\u{0}x"]), [:], name)
            for url in awkward {
                XCTAssertEqual(found[url], PagePreviewEntry(image: entries[url] ?? nil, checkedAt: Timestamp(secondsSince1970: .max)), name)
            }
        }
    }
}
