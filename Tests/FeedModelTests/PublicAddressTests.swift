import FeedModel
import XCTest

/// Secrets in the published site (issue 15): what `PublicAddress` keeps of an address, over
/// generated URLs (every credential name in every case and position, user info, encodings).
final class PublicAddressTests: XCTestCase {
    static let secretNames = ["token", "key", "apikey", "api_key", "access_token", "auth", "password", "secret", "sig",
                              "signature", "passwd", "client_secret", "auth_token", "private_token", "X-Amz-Signature",
                              "X-Amz-Credential", "api-key", "feedkey", "sessionid", "oauth_token"]
    static let harmless = ["page=2", "format=rss", "q=swift", "lang=en", "author=bob", "id=7"]

    static func casings(_ s: String) -> [String] { [s, s.uppercased(), s.lowercased(), s.prefix(1).uppercased() + s.dropFirst()] }

    func testCredentialParametersGoWhereverTheyAre() throws {
        let secret = "S3CR3T-v4lue"
        for name in Self.secretNames {
            for spelling in Self.casings(name) {
                for (before, after) in [([String](), [String]()), (["page=2"], []), ([], ["format=rss"]), (["a=1", "b=2"], ["c=3"])] {
                    let query = (before + [spelling + "=" + secret] + after).joined(separator: "&")
                    let url = "https://example.org/feed.xml?" + query
                    let published = try XCTUnwrap(PublicAddress.of(url), url)
                    XCTAssertFalse(published.contains(secret), "\(url) -> \(published)")
                    for kept in before + after { XCTAssertTrue(published.contains(kept), "\(url) -> \(published)") }
                    XCTAssertEqual(published.contains("?"), !(before + after).isEmpty, published)
                }
            }
        }
        // Percent-encoded names, `;` separators, fragments.
        for url in ["https://e.org/f?%74oken=S3CR3T", "https://e.org/f?page=1;token=S3CR3T", "https://e.org/f#access_token=S3CR3T",
                    "https://e.org/f?a=1#x=2&token=S3CR3T", "https://e.org/f?TOKEN", "https://e.org/f?api%5Fkey=S3CR3T"] {
            XCTAssertFalse(try XCTUnwrap(PublicAddress.of(url)).contains("S3CR3T"), url)
        }
        for pair in Self.harmless {
            XCTAssertEqual(PublicAddress.of("https://example.org/f?" + pair), "https://example.org/f?" + pair)
        }
    }

    func testUserInfoGoes() throws {
        for authority in ["user:S3CR3T@example.org", "user@example.org", ":S3CR3T@example.org", "u%40x:S3CR3T@example.org",
                          "user:S3CR3T@example.org:8443", "a@b:S3CR3T@example.org"] {
            let published = try XCTUnwrap(PublicAddress.of("https://" + authority + "/feed"), authority)
            XCTAssertFalse(published.contains("S3CR3T") || published.contains("user") || published.contains("@"), published)
            XCTAssertTrue(published.hasPrefix("https://example.org"), published)
        }
        XCTAssertEqual(PublicAddress.of("HTTP://user:pw@Example.org:8080/a?b=1"), "http://Example.org:8080/a?b=1")
    }

    func testLocalPathsAreNotPublished() throws {
        for path in ["/home/me/private/feed.xml", "file:///home/me/feed.xml", "../feed.xml", "feed.xml", "~/feed.xml",
                     "file:feed.xml", "FILE:///etc/passwd", "javascript:alert(1)", "ftp://e.org/x", "mailto:a@b"] {
            XCTAssertNil(PublicAddress.of(path), path)
        }
        XCTAssertEqual(PublicAddress.sourceName(name: nil, feedTitle: nil, url: "/home/me/private/feed.xml"), "feed.xml")
        XCTAssertEqual(PublicAddress.sourceName(name: nil, feedTitle: nil, url: "file:///home/me/my%20feed.xml"), "my feed.xml")
        XCTAssertEqual(PublicAddress.sourceName(name: "Mine", feedTitle: "T", url: "/x/y"), "Mine")
        XCTAssertEqual(PublicAddress.sourceName(name: nil, feedTitle: "T", url: "/x/y"), "T")
        XCTAssertEqual(PublicAddress.sourceName(name: nil, feedTitle: nil, url: "https://u:p@e.org/f?key=1"), "https://e.org/f")
    }

    func testMessagesAreScrubbed() {
        let cases = [
            ("cannot read file /home/me/private/feed.xml: check that it exists", "cannot read file feed.xml: check that it exists"),
            ("invalid URL \"https://u:S3CR3T@e.org/f?token=S3CR3T&p=1\": check", "invalid URL \"https://e.org/f?p=1\": check"),
            ("HTTP 404 for https://e.org/f?key=S3CR3T.", "HTTP 404 for https://e.org/f."),
            ("moved to file:///etc/passwd", "moved to passwd"),
            ("could not connect to u:S3CR3T@e.org:80: refused", "could not connect to e.org:80: refused"),
            ("timeout after 3 s", "timeout after 3 s"),
        ]
        for (message, expected) in cases { XCTAssertEqual(PublicAddress.scrubbed(message), expected) }
    }
}
