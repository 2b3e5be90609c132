import XCTest
@testable import Markup

final class ImagesTests: XCTestCase {
    func testFirstContentImage() {
        let html = """
        <p><img src="http://feeds.feedburner.com/~r/blog/~4/x" width="1" height="1">
        <img src="/pixel.gif"><img src="data:image/png;base64,AAAA">
        <img src="javascript:alert(1)"><img src="img/photo.jpg" alt="photo"><img src="second.jpg"></p>
        """
        XCTAssertEqual(HTMLImages.firstContentImage(html, base: "https://e.example/post/1/"), "https://e.example/post/1/img/photo.jpg")
    }

    func testFirstContentImageNeedsAnAbsoluteWebURL() {
        XCTAssertNil(HTMLImages.firstContentImage("<img src=\"photo.jpg\">", base: nil))
        XCTAssertNil(HTMLImages.firstContentImage("<img src=\"ftp://e.example/a.jpg\">", base: nil))
        XCTAssertNil(HTMLImages.firstContentImage("no images here", base: "http://e.example/"))
        XCTAssertNil(HTMLImages.firstContentImage("<img src=\"http://e.example/a.gif\" width=\"0\" height=\"0\">", base: nil))
        XCTAssertNil(HTMLImages.firstContentImage("<noscript><img src=\"http://e.example/a.jpg\"></noscript>", base: nil))
        XCTAssertEqual(HTMLImages.firstContentImage("<IMG SRC=' //cdn.example/a b.png '>", base: "https://e.example/"),
                       "https://cdn.example/a%20b.png")
    }

    func testPagePreviewImagePreferenceOrder() {
        let all = """
        <html><head><link rel="image_src" href="/link.jpg">
        <meta name="twitter:image" content="/twitter.jpg">
        <meta property="og:image" content="/og.jpg"></head><body><img src="/body.jpg"></body></html>
        """
        XCTAssertEqual(HTMLImages.pagePreviewImage(all, base: "https://e.example/a/"), "https://e.example/og.jpg")
        let noOG = all.replacingOccurrences(of: "og:image", with: "og:title")
        XCTAssertEqual(HTMLImages.pagePreviewImage(noOG, base: "https://e.example/a/"), "https://e.example/twitter.jpg")
        let onlyLink = noOG.replacingOccurrences(of: "twitter:image", with: "twitter:card")
        XCTAssertEqual(HTMLImages.pagePreviewImage(onlyLink, base: "https://e.example/a/"), "https://e.example/link.jpg")
        XCTAssertNil(HTMLImages.pagePreviewImage(onlyLink.replacingOccurrences(of: "image_src", with: "icon"), base: "https://e.example/"))
    }

    func testPagePreviewImageRules() {
        // An unusable og:image falls through to the next candidate.
        let page = "<meta property=\"og:image\" content=\"javascript:alert(1)\"><meta name=\"twitter:image:src\" content=\"http://e.example/t.png\">"
        XCTAssertEqual(HTMLImages.pagePreviewImage(page, base: nil), "http://e.example/t.png")
        // `<base href>` of the page counts.
        let based = "<head><base href=\"https://cdn.example/assets/\"><meta property=\"og:image\" content=\"i.png\"></head>"
        XCTAssertEqual(HTMLImages.pagePreviewImage(based, base: "https://e.example/"), "https://cdn.example/assets/i.png")
        // Relative without any base: nothing.
        XCTAssertNil(HTMLImages.pagePreviewImage("<meta property=\"og:image\" content=\"/i.png\">", base: nil))
        // A meta charset inside does not re-decode the text.
        let latin = "<meta charset=\"iso-8859-1\"><meta property=\"og:image\" content=\"https://e.example/caf\u{E9}.png\">"
        XCTAssertEqual(HTMLImages.pagePreviewImage(latin, base: nil), "https://e.example/caf\u{E9}.png")
    }

    func testTrackingPixelRule() {
        XCTAssertTrue(HTMLPolicy.isTrackingPixel(src: "http://e.example/a.gif", width: "1", height: "1px"))
        XCTAssertFalse(HTMLPolicy.isTrackingPixel(src: "http://e.example/a.gif", width: "1", height: nil))
        XCTAssertTrue(HTMLPolicy.isTrackingPixel(src: "https://pixel.wp.com/g.gif?x", width: nil, height: nil))
        XCTAssertFalse(HTMLPolicy.isTrackingPixel(src: "https://e.example/photos/cat.jpg", width: "640", height: "480"))
        // Patterns match without regard to ASCII case, anywhere in the URL, up to its last byte.
        XCTAssertTrue(HTMLPolicy.isTrackingPixel(src: "HTTP://Feeds.FeedBurner.COM/~R/x/~4/y", width: nil, height: nil))
        XCTAssertTrue(HTMLPolicy.isTrackingPixel(src: "http://e.example/a/b/__UTM.gif", width: "300", height: "200"))
        XCTAssertTrue(HTMLPolicy.isTrackingPixel(src: "http://e.example/beacon", width: nil, height: nil))
        XCTAssertFalse(HTMLPolicy.isTrackingPixel(src: "http://e.example/beaco", width: nil, height: nil))
        XCTAssertFalse(HTMLPolicy.isTrackingPixel(src: "http://e.example/pixels-and-tracks/x.png".replacingOccurrences(of: "/pixels", with: "/p1xels").replacingOccurrences(of: "/track", with: "/trak"), width: nil, height: nil))
    }

    /// The byte scan over sanitized output finds what a parse of the original finds.
    func testFirstImageInSanitizedAgreesWithTheParsingPath() {
        let base = "https://site.example/posts/1"
        let inputs = [
            "<p>no image</p>",
            "<img src=\"/a.png\" alt=\"x\"><img src=\"/b.png\">",
            "<img src=\"http://t.example/p.gif\" width=\"1\" height=\"1\"><IMG SRC='pic.jpg?a=1&amp;b=2'>",
            "<img src=\"javascript:alert(1)\"><img alt=\"no source\"><p><img title=\"t\" src=\"x.webp\"></p>",
            "<noscript><img src=\"hidden.png\"></noscript>text",
        ]
        for html in inputs {
            let sanitized = HTMLSanitizer.sanitize(html, base: base)
            XCTAssertEqual(HTMLImages.firstImageInSanitized(sanitized), HTMLImages.firstContentImage(html, base: base), html)
        }
        XCTAssertEqual(HTMLImages.firstImageInSanitized(HTMLSanitizer.sanitize(inputs[2], base: base)),
                       "https://site.example/posts/pic.jpg?a=1&b=2")
    }

    /// The scan reads eight bytes at a time: an image found wherever `<img` falls across a word
    /// boundary, after decoys that also start with `<i`.
    func testFirstImageInSanitizedAtEveryOffset() {
        let base = "https://site.example/"
        for decoy in ["", "<i>x</i>", "<ins>y</ins> ", "a < i "] {
            for offset in 0..<20 {
                let html = String(repeating: "t", count: offset) + decoy + "<img src=\"/p\(offset).png\" alt=\"\">"
                let sanitized = HTMLSanitizer.sanitize(html, base: base)
                XCTAssertEqual(HTMLImages.firstImageInSanitized(sanitized), "https://site.example/p\(offset).png", sanitized)
            }
        }
    }
}
