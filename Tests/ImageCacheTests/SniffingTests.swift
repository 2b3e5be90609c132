@testable import ImageCache
import XCTest

/// Keys and types: the key is a hash of the URL; the type comes from the bytes.
final class SniffingTests: XCTestCase {
    func testSHA256MatchesTheStandardVectors() {
        XCTAssertEqual(SHA256.hex(Array("".utf8)), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hex([UInt8](repeating: 0x61, count: 1_000)), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    func testKeyIsAStableHashOfTheURL() {
        let key = ImageCache.key(for: "https://example.org/a.png")
        XCTAssertEqual(key.count, 32)
        XCTAssertEqual(key, ImageCache.key(for: "https://example.org/a.png"))
        XCTAssertNotEqual(key, ImageCache.key(for: "https://example.org/a.png?"))
        XCTAssertEqual(key, String(SHA256.hex(Array("https://example.org/a.png".utf8)).prefix(32)))
    }

    func testMagicNumbersAndSizes() {
        // PNG: IHDR width/height.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 2, 0x80, 0, 0, 1, 0x68]
        XCTAssertEqual(ImageSniffer.sniff(png), SniffedImage(type: .png, width: 640, height: 360))
        // GIF: little-endian logical screen size.
        XCTAssertEqual(ImageSniffer.sniff(Array("GIF89a".utf8) + [0x90, 1, 0x2C, 1]), SniffedImage(type: .gif, width: 400, height: 300))
        // JPEG: an APP0 segment, then SOF0 with height 480, width 640.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 11, 8, 0x01, 0xE0, 0x02, 0x80, 3, 0, 0, 0, 0]
        XCTAssertEqual(ImageSniffer.sniff(jpeg), SniffedImage(type: .jpeg, width: 640, height: 480))
        // WebP, lossy VP8: 14-bit sizes at 26 and 28.
        var webp: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [UInt8](repeating: 0, count: 10)
        webp += [0x20, 0x03, 0x58, 0x02]
        XCTAssertEqual(ImageSniffer.sniff(webp), SniffedImage(type: .webp, width: 800, height: 600))
        // AVIF: ftyp brand, then an ispe property.
        var avif: [UInt8] = [0, 0, 0, 24] + Array("ftypavif".utf8) + [UInt8](repeating: 0, count: 12)
        avif += [0, 0, 0, 20] + Array("ispe".utf8) + [0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 3, 0] + [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(ImageSniffer.sniff(avif), SniffedImage(type: .avif, width: 1024, height: 768))
    }

    func testEverythingElseIsRefused() {
        XCTAssertNil(ImageSniffer.sniff(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".utf8)))
        XCTAssertNil(ImageSniffer.sniff(Array("<!DOCTYPE html><title>404 Not Found</title>".utf8)))
        XCTAssertNil(ImageSniffer.sniff(Array("RIFF\0\0\0\0WAVEfmt ".utf8)))
        XCTAssertNil(ImageSniffer.sniff([0, 0, 0, 24] + Array("ftypmp42".utf8)))
        XCTAssertNil(ImageSniffer.sniff([]))
        XCTAssertNil(ImageSniffer.sniff([0xFF, 0xD8]))
    }

    func testACorruptSizeIsDroppedNotTrusted() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]
        XCTAssertEqual(ImageSniffer.sniff(png), SniffedImage(type: .png, width: nil, height: nil))
    }
}
