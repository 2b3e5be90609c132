import FeedModel
import Fetching
import Foundation
@testable import ImageCache
import Storage
import TestSupport
import XCTest

/// A cache in its own folder and database; time is a number the test moves by hand.
class ImageCacheTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var store: FeedStore!
    var cache: ImageCache!

    override func setUpWithError() throws {
        directory = TemporaryDirectory("feeds-images")
        store = try FeedStore(path: directory.path + "/feeds.db")
        cache = ImageCache(directory: directory.path + "/images", store: store)
    }

    override func tearDown() {
        cache = nil
        store = nil
        directory = nil
    }

    /// `hours` hours after 2026-01-01T00:00:00Z.
    func t(_ hours: Int64) -> Timestamp { Timestamp(secondsSince1970: 1_767_225_600 + hours * 3_600) }

    /// A PNG header of `width`×`height`, padded to `size` bytes.
    func png(_ width: Int = 32, _ height: Int = 16, size: Int = 64) -> [UInt8] {
        var b: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for v in [width, height] { b += [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return b + [UInt8](repeating: 0, count: max(0, size - b.count))
    }

    func ok(_ body: [UInt8], url: String = "https://img.example/x", etag: String? = nil) -> Result<FetchResponse, FetchError> {
        var headers = HTTPHeaders()
        if let etag { headers = HTTPHeaders([.init(name: "ETag", value: etag)]) }
        return .success(FetchResponse(status: 200, finalURL: url, headers: headers, body: body))
    }
}
