import XCTest
import FeedModel

final class WebAddressTests: XCTestCase {
    static let rfcBase = "http://a/b/c/d;p?q"

    private func resolve(_ reference: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let viaStatic = WebAddress.resolve(reference, against: Self.rfcBase)
        let viaValue = WebAddress(parsing: reference).resolved(against: WebAddress(parsing: Self.rfcBase)).description
        XCTAssertEqual(viaStatic, viaValue, "the two ways of resolving \(reference) disagree", file: file, line: line)
        return viaStatic
    }

    // MARK: - RFC 3986 section 5.4

    func testRFC3986NormalExamples() {
        let normal: [(String, String)] = [
            ("g:h", "g:h"),
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("g#s", "http://a/b/c/g#s"),
            ("g?y#s", "http://a/b/c/g?y#s"),
            (";x", "http://a/b/c/;x"),
            ("g;x", "http://a/b/c/g;x"),
            ("g;x?y#s", "http://a/b/c/g;x?y#s"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../", "http://a/"),
            ("../../g", "http://a/g"),
        ]
        XCTAssertEqual(normal.count, 23)
        for (reference, expected) in normal {
            XCTAssertEqual(resolve(reference), expected, "reference \"\(reference)\"")
        }
    }

    func testRFC3986AbnormalExamples() {
        let abnormal: [(String, String)] = [
            // 5.4.2: more ".." than hierarchical levels
            ("../../../g", "http://a/g"),
            ("../../../../g", "http://a/g"),
            // dot segments that are not complete segments, or in absolute paths
            ("/./g", "http://a/g"),
            ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."),
            (".g", "http://a/b/c/.g"),
            ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"),
            // unnecessary or nonsensical dot segments
            ("./../g", "http://a/b/g"),
            ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"),
            ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"),
            // dot segments in query and fragment are left alone
            ("g?y/./x", "http://a/b/c/g?y/./x"),
            ("g?y/../x", "http://a/b/c/g?y/../x"),
            ("g#s/./x", "http://a/b/c/g#s/./x"),
            ("g#s/../x", "http://a/b/c/g#s/../x"),
            // strict parser: a scheme makes the reference absolute
            ("http:g", "http:g"),
        ]
        XCTAssertEqual(abnormal.count, 19)
        for (reference, expected) in abnormal {
            XCTAssertEqual(resolve(reference), expected, "reference \"\(reference)\"")
        }
    }

    func testResolvingAgainstBaseWithEmptyPath() {
        XCTAssertEqual(WebAddress.resolve("g", against: "http://a"), "http://a/g")
        XCTAssertEqual(WebAddress.resolve("../g", against: "http://a"), "http://a/g")
        XCTAssertEqual(WebAddress.resolve("?y", against: "http://a"), "http://a?y")
    }

    func testResolvingKeepsReferenceWhenNoBase() {
        XCTAssertEqual(WebAddress.resolve("images/x.png", against: nil), "images/x.png")
        XCTAssertEqual(WebAddress.resolve("images/x.png", against: ""), "images/x.png")
        XCTAssertEqual(WebAddress.resolve("  a b  ", against: nil), "a%20b")
    }

    func testAbsoluteReferenceIgnoresBase() {
        XCTAssertEqual(WebAddress.resolve("https://other.example/x?y#z", against: Self.rfcBase), "https://other.example/x?y#z")
        XCTAssertEqual(WebAddress.resolve("mailto:someone@example.org", against: Self.rfcBase), "mailto:someone@example.org")
        // The scheme is lower-cased, the rest is kept as written.
        XCTAssertEqual(WebAddress.resolve("HTTPS://Other.Example/X", against: Self.rfcBase), "https://Other.Example/X")
    }

    func testNetworkPathReferenceTakesBaseScheme() {
        XCTAssertEqual(WebAddress.resolve("//cdn.example/img/../a.png", against: "https://site.example/p/"), "https://cdn.example/a.png")
    }

    // MARK: - xml:base chains

    func testXMLBaseChainAppliedOutermostFirst() {
        // document URL, then the feed's xml:base, then the entry's, then a link inside the entry.
        var base = "http://example.org/feeds/main.xml"
        base = WebAddress.resolve("/blog/", against: base)
        XCTAssertEqual(base, "http://example.org/blog/")
        base = WebAddress.resolve("2024/entries/", against: base)
        XCTAssertEqual(base, "http://example.org/blog/2024/entries/")
        XCTAssertEqual(WebAddress.resolve("../images/a.png", against: base), "http://example.org/blog/2024/images/a.png")
        XCTAssertEqual(WebAddress.resolve("post-1.html#top", against: base), "http://example.org/blog/2024/entries/post-1.html#top")
    }

    func testXMLBaseChainWithAbsoluteInnerBase() {
        var base = "http://example.org/feed"
        base = WebAddress.resolve("https://mirror.example.net/root/", against: base)
        base = WebAddress.resolve("sub/", against: base)
        XCTAssertEqual(WebAddress.resolve("x", against: base), "https://mirror.example.net/root/sub/x")
    }

    func testXMLBaseWithoutTrailingSlashReplacesLastSegment() {
        let base = WebAddress.resolve("entries", against: "http://example.org/blog/index.xml")
        XCTAssertEqual(base, "http://example.org/blog/entries")
        XCTAssertEqual(WebAddress.resolve("a.html", against: base), "http://example.org/blog/a.html")
    }

    func testRelativeBaseChainStaysRelative() {
        let base = WebAddress.resolve("b/", against: "a/")
        XCTAssertEqual(base, "a/b/")
        XCTAssertEqual(WebAddress.resolve("c", against: base), "a/b/c")
    }

    // MARK: - parsing, trimming and spaces

    func testParsingSplitsComponents() {
        let a = WebAddress(parsing: "HTTPS://user:Pw@Example.COM:8443/a/b;p?q=1&r=2#frag")
        XCTAssertEqual(a.scheme, "https")
        XCTAssertEqual(a.authority, "user:Pw@Example.COM:8443")
        XCTAssertEqual(a.host, "example.com")
        XCTAssertEqual(a.path, "/a/b;p")
        XCTAssertEqual(a.query, "q=1&r=2")
        XCTAssertEqual(a.fragment, "frag")
        XCTAssertTrue(a.isAbsolute)
        XCTAssertEqual(a.description, "https://user:Pw@Example.COM:8443/a/b;p?q=1&r=2#frag")
    }

    func testQuestionMarkInsideFragmentBelongsToFragment() {
        let a = WebAddress(parsing: "http://h/p#f?notquery")
        XCTAssertNil(a.query)
        XCTAssertEqual(a.fragment, "f?notquery")
        XCTAssertEqual(a.path, "/p")
    }

    func testColonAfterSlashIsNotAScheme() {
        let a = WebAddress(parsing: "a/b:c")
        XCTAssertNil(a.scheme)
        XCTAssertFalse(a.isAbsolute)
        XCTAssertEqual(a.path, "a/b:c")
        XCTAssertNil(WebAddress(parsing: "1abc:x").scheme, "a scheme starts with a letter")
        XCTAssertEqual(WebAddress(parsing: "svn+ssh.x-y:x").scheme, "svn+ssh.x-y")
    }

    func testEmptyQueryAndFragmentAreKept() {
        let a = WebAddress(parsing: "http://h/p?#")
        XCTAssertEqual(a.query, "")
        XCTAssertEqual(a.fragment, "")
        XCTAssertEqual(a.description, "http://h/p?#")
    }

    func testHostOfIPv6AndUserInfo() {
        XCTAssertEqual(WebAddress(parsing: "http://[2001:DB8::1]:8080/").host, "[2001:DB8::1]")
        XCTAssertEqual(WebAddress(parsing: "http://me@Host.Example/").host, "host.example")
        XCTAssertNil(WebAddress(parsing: "/just/a/path").host)
    }

    func testLeadingAndTrailingWhiteSpaceIsTrimmed() {
        XCTAssertEqual(WebAddress(parsing: "  \t\nhttp://example.com/a \r\n ").description, "http://example.com/a")
        XCTAssertEqual(WebAddress(parsing: "\u{FEFF}http://example.com/").description, "http://example.com/")
        XCTAssertEqual(WebAddress(parsing: "\u{A0}http://example.com/\u{A0}").description, "http://example.com/")
    }

    func testInnerSpacesArePercentEncoded() {
        let a = WebAddress(parsing: "http://example.com/my file.html?q=a b#x y")
        XCTAssertEqual(a.path, "/my%20file.html")
        XCTAssertEqual(a.query, "q=a%20b")
        XCTAssertEqual(a.fragment, "x%20y")
    }

    func testInnerTabsAndLineBreaksAreRemoved() {
        XCTAssertEqual(WebAddress(parsing: "http://example.com/a\tb").description, "http://example.com/ab")
        XCTAssertEqual(WebAddress(parsing: "http://example.com/very/\nlong/path").description, "http://example.com/very/long/path")
        XCTAssertEqual(WebAddress(parsing: "http://example.com/very/\rlong").description, "http://example.com/very/long")
        // A URL wrapped with a CR LF pair (one Character in Swift) loses both.
        XCTAssertEqual(WebAddress(parsing: "http://example.com/very/\r\nlong").description, "http://example.com/very/long")
        XCTAssertEqual(WebAddress(parsing: "http://example.com/a b/\r\nc").description, "http://example.com/a%20b/c")
    }

    func testResolutionTrimsAndEncodesReference() {
        XCTAssertEqual(WebAddress.resolve("  my pic.png ", against: "http://a/b/"), "http://a/b/my%20pic.png")
    }

    // MARK: - normalizedForIdentity

    func testIdentityLowerCasesSchemeAndHostButStoredFormKeepsCase() {
        let raw = "HTTP://Example.COM/Path/To?Q=A"
        let a = WebAddress(parsing: raw)
        XCTAssertEqual(a.normalizedForIdentity, "http://example.com/Path/To?Q=A")
        XCTAssertEqual(a.authority, "Example.COM", "the parsed value keeps the host as written")
        XCTAssertEqual(a.description, "http://Example.COM/Path/To?Q=A")
        // The card's link is stored as given; only the key is normalized.
        let card = Card(link: "http://Example.COM/Path")
        XCTAssertEqual(card.link, "http://Example.COM/Path")
        XCTAssertEqual(card.key.rawValue, "link:http://example.com/Path")
    }

    func testIdentityKeepsUserInfoCase() {
        XCTAssertEqual(WebAddress(parsing: "http://User:PW@HOST/").normalizedForIdentity, "http://User:PW@host/")
        XCTAssertEqual(WebAddress(parsing: "http://A@B@HOST/").normalizedForIdentity, "http://A@B@host/")
        XCTAssertEqual(WebAddress(parsing: "http://Üser@HÖST.example/").normalizedForIdentity, "http://Üser@höst.example/")
    }

    func testIdentityDropsDefaultPorts() {
        XCTAssertEqual(WebAddress(parsing: "http://example.com:80/a").normalizedForIdentity, "http://example.com/a")
        XCTAssertEqual(WebAddress(parsing: "https://example.com:443/a").normalizedForIdentity, "https://example.com/a")
        XCTAssertEqual(WebAddress(parsing: "http://u@example.com:80/").normalizedForIdentity, "http://u@example.com/")
    }

    func testIdentityKeepsOtherPorts() {
        XCTAssertEqual(WebAddress(parsing: "http://example.com:443/a").normalizedForIdentity, "http://example.com:443/a")
        XCTAssertEqual(WebAddress(parsing: "https://example.com:80/a").normalizedForIdentity, "https://example.com:80/a")
        XCTAssertEqual(WebAddress(parsing: "http://example.com:8080/a").normalizedForIdentity, "http://example.com:8080/a")
        XCTAssertEqual(WebAddress(parsing: "http://example.com:180/a").normalizedForIdentity, "http://example.com:180/a")
        XCTAssertEqual(WebAddress(parsing: "https://example.com:1443/a").normalizedForIdentity, "https://example.com:1443/a")
    }

    func testIdentityDropsFragmentAndEmptyQuery() {
        XCTAssertEqual(WebAddress(parsing: "http://example.com/a#section-2").normalizedForIdentity, "http://example.com/a")
        XCTAssertEqual(WebAddress(parsing: "http://example.com/a?#").normalizedForIdentity, "http://example.com/a")
        XCTAssertEqual(WebAddress(parsing: "http://example.com/a?x=1#s").normalizedForIdentity, "http://example.com/a?x=1")
    }

    func testIdentityGivesEmptyWebPathASlash() {
        XCTAssertEqual(WebAddress(parsing: "https://Example.com").normalizedForIdentity, "https://example.com/")
        XCTAssertEqual(WebAddress(parsing: "https://example.com:443").normalizedForIdentity, "https://example.com/")
        XCTAssertEqual(WebAddress(parsing: "http://example.com?x").normalizedForIdentity, "http://example.com/?x")
        XCTAssertEqual(WebAddress(parsing: "ftp://Example.com").normalizedForIdentity, "ftp://example.com",
                       "only http(s) get the slash")
    }

    func testIdentityOfEquivalentSpellingsIsEqual() {
        let spellings = [
            "http://example.com/a",
            "HTTP://EXAMPLE.COM/a",
            "http://example.com:80/a",
            "  http://Example.com/a#top ",
        ]
        let keys = Set(spellings.map { WebAddress(parsing: $0).normalizedForIdentity })
        XCTAssertEqual(keys, ["http://example.com/a"])
        XCTAssertNotEqual(WebAddress(parsing: "http://example.com/A").normalizedForIdentity,
                          WebAddress(parsing: "http://example.com/a").normalizedForIdentity,
                          "paths are case-sensitive")
    }

    func testIdentityOfMailto() {
        XCTAssertEqual(WebAddress(parsing: "MAILTO:Someone@Example.org").normalizedForIdentity, "mailto:Someone@Example.org")
    }

    // MARK: - isWebURL

    func testIsWebURL() {
        XCTAssertTrue(WebAddress(parsing: "http://example.com").isWebURL)
        XCTAssertTrue(WebAddress(parsing: "HTTPS://example.com/x").isWebURL)
        XCTAssertTrue(WebAddress(parsing: "http://user@example.com:8080/").isWebURL)
        XCTAssertFalse(WebAddress(parsing: "ftp://example.com/x").isWebURL)
        XCTAssertFalse(WebAddress(parsing: "mailto:a@example.com").isWebURL)
        XCTAssertFalse(WebAddress(parsing: "javascript:alert(1)").isWebURL)
        XCTAssertFalse(WebAddress(parsing: "//example.com/x").isWebURL, "no scheme")
        XCTAssertFalse(WebAddress(parsing: "/x").isWebURL)
        XCTAssertFalse(WebAddress(parsing: "http:///x").isWebURL, "empty host")
        XCTAssertFalse(WebAddress(parsing: "http:x").isWebURL, "no authority")
        XCTAssertFalse(WebAddress(parsing: "").isWebURL)
    }

    // MARK: - looksLikeImageURL

    func testLooksLikeImageURLAcceptsEachExtension() {
        for ext in ["jpg", "jpeg", "png", "gif", "webp", "avif"] {
            XCTAssertTrue(WebAddress.looksLikeImageURL("https://example.com/img/a.\(ext)"), ext)
            XCTAssertTrue(WebAddress.looksLikeImageURL("http://example.com/a.\(ext.uppercased())"), ext.uppercased())
        }
    }

    func testLooksLikeImageURLUpperAndMixedCase() {
        XCTAssertTrue(WebAddress.looksLikeImageURL("http://example.com/PHOTO.PNG"))
        XCTAssertTrue(WebAddress.looksLikeImageURL("http://example.com/photo.JpEg"))
    }

    func testLooksLikeImageURLIgnoresQueryAndFragment() {
        XCTAssertTrue(WebAddress.looksLikeImageURL("http://example.com/a.png?w=300&h=200"))
        XCTAssertTrue(WebAddress.looksLikeImageURL("http://example.com/a.png#frag"))
        XCTAssertTrue(WebAddress.looksLikeImageURL("http://example.com/a.jpg?x=.html#y.txt"))
        XCTAssertFalse(WebAddress.looksLikeImageURL("http://example.com/page.html?img=a.png"))
        XCTAssertFalse(WebAddress.looksLikeImageURL("http://example.com/page#a.png"))
    }

    func testLooksLikeImageURLRefusesOtherSchemesAndRelative() {
        XCTAssertFalse(WebAddress.looksLikeImageURL("ftp://example.com/a.png"))
        XCTAssertFalse(WebAddress.looksLikeImageURL("file:///home/a.png"))
        XCTAssertFalse(WebAddress.looksLikeImageURL("data:image/png;base64,AAAA.png"))
        XCTAssertFalse(WebAddress.looksLikeImageURL("/images/a.png"))
        XCTAssertFalse(WebAddress.looksLikeImageURL("a.png"))
    }

    func testLooksLikeImageURLRefusesNonImagePaths() {
        XCTAssertFalse(WebAddress.looksLikeImageURL("http://example.com/"))
        XCTAssertFalse(WebAddress.looksLikeImageURL("http://example.com"))
        XCTAssertFalse(WebAddress.looksLikeImageURL("http://example.com/a.svg"))
        XCTAssertFalse(WebAddress.looksLikeImageURL("http://example.com/a.png.html"))
        XCTAssertFalse(WebAddress.looksLikeImageURL("http://example.com/a.pngx"))
        XCTAssertFalse(WebAddress.looksLikeImageURL("http://example.com/png"))
        XCTAssertFalse(WebAddress.looksLikeImageURL("http://images.png/gallery"), "a dot in the host is not an extension")
        XCTAssertFalse(WebAddress.looksLikeImageURL("http://example.com/dir.png/"))
        XCTAssertFalse(WebAddress.looksLikeImageURL("http://example.com/dir.jpg/page"))
    }

    func testLooksLikeImageURLTrimsWhiteSpace() {
        XCTAssertTrue(WebAddress.looksLikeImageURL("  http://example.com/a.gif\n"))
    }

    /// Found by fuzzing (url target): a relative result whose first segment has a colon read back
    /// as a scheme ("Mtp:" then "mtp:"), and one starting with "//" as an authority.
    func testWrittenRelativePathsReadBackTheSame() {
        let colon = WebAddress.resolve("./Mtp:./x", against: "#frag")
        XCTAssertEqual(colon, "./Mtp:./x")
        XCTAssertNil(WebAddress(parsing: colon).scheme)
        XCTAssertEqual(WebAddress.resolve(colon, against: "#frag"), colon)
        // "/.//x/y" resolves to the path "//x/y" (dot segment removed), written back with "/.".
        let slashes = WebAddress.resolve("/.//x/y", against: "file:/a")
        XCTAssertEqual(slashes, "file:/.//x/y")
        XCTAssertNil(WebAddress(parsing: slashes).authority)
    }

    /// Found by fuzzing: a combining mark joins the delimiter before it into one Character, so
    /// splitting on Characters missed ":" and "/" ("htt:\u{06E2}/bz" lost its scheme).
    func testDelimitersFollowedByCombiningMarksStillSplit() {
        let a = WebAddress(parsing: "htt:\u{06E2}/bz")
        XCTAssertEqual(a.scheme, "htt")
        XCTAssertEqual(a.path, "\u{06E2}/bz")
        XCTAssertEqual(WebAddress.resolve("\u{0301}x", against: "https://h.example/a/\u{0301}/b"),
                       "https://h.example/a/\u{0301}/\u{0301}x")
        XCTAssertEqual(WebAddress.resolve("./\u{0301}/../y", against: "https://h.example/a/"), "https://h.example/a/y")
    }

    /// Found by fuzzing: a control character left raw at the end of a path was trimmed away when
    /// the written address was read again. Controls are percent-encoded, tabs and newlines dropped.
    func testControlCharactersArePercentEncoded() {
        XCTAssertEqual(WebAddress(parsing: "ht:/\0\u{0C}#x").description, "ht:/%00%0C#x")
        XCTAssertEqual(WebAddress.resolve("", against: "ht:/\0\u{0C}#x"), "ht:/%00%0C")
        XCTAssertEqual(WebAddress(parsing: "https://a.example/a\tb\nc").description, "https://a.example/abc")
    }
}
