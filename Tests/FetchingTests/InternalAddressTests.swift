import Fetching
import Foundation
import TestSupport
import XCTest

/// Requests inside the network (issue 15): the address classifier over a generated table of
/// every range and its edges, and the policy at connect time on loopback. Every test runs on
/// 127.0.0.1, so "the source's origin" is one server's port and "another origin" a second
/// server's: 127.0.0.1:A may be reached for a source on A, never for one on B.
final class InternalAddressTests: XCTestCase {
    // MARK: The classifier

    /// Each range with its first and last address and the public neighbours just outside it.
    static let v4Ranges: [(first: String, last: String, range: InternalRange, before: String?, after: String?)] = [
        ("0.0.0.0", "0.255.255.255", .unspecified, nil, "1.0.0.0"),
        ("10.0.0.0", "10.255.255.255", .privateNetwork, "9.255.255.255", "11.0.0.0"),
        ("100.64.0.0", "100.127.255.255", .sharedAddressSpace, "100.63.255.255", "100.128.0.0"),
        ("127.0.0.0", "127.255.255.255", .loopback, "126.255.255.255", "128.0.0.0"),
        ("169.254.0.0", "169.254.255.255", .linkLocal, "169.253.255.255", "169.255.0.0"),
        ("172.16.0.0", "172.31.255.255", .privateNetwork, "172.15.255.255", "172.32.0.0"),
        ("192.168.0.0", "192.168.255.255", .privateNetwork, "192.167.255.255", "192.169.0.0"),
        ("224.0.0.0", "239.255.255.255", .multicast, "223.255.255.255", nil),
        ("240.0.0.0", "255.255.255.255", .reserved, nil, nil),
    ]

    static let v6Ranges: [(first: String, last: String, range: InternalRange, before: String?, after: String?)] = [
        ("::", "::", .unspecified, nil, nil),
        ("::1", "::1", .loopback, nil, nil),
        ("fe80::", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .linkLocal, "fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff", nil),
        ("fc00::", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .uniqueLocal, "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe00::"),
        ("ff00::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .multicast, nil, nil),
    ]

    func testEveryRangeAndItsEdges() throws {
        for row in Self.v4Ranges + Self.v6Ranges {
            for text in [row.first, row.last] {
                let address = try XCTUnwrap(IPAddress(text), text)
                XCTAssertEqual(address.internalRange, row.range, text)
            }
            for text in [row.before, row.after].compactMap({ $0 }) {
                XCTAssertNil(try XCTUnwrap(IPAddress(text), text).internalRange, "\(text) is public")
            }
        }
        for text in ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700::1111", "2001:db8::1", "100.63.0.1", "192.0.2.1"] {
            XCTAssertNil(IPAddress(text)?.internalRange, text)
        }
    }

    /// Every IPv4 range again inside each IPv6 form that carries an IPv4 address.
    func testIPv4InsideIPv6IsJudgedByTheIPv4Address() throws {
        for row in Self.v4Ranges {
            for text in [row.first, row.last] {
                let v4 = try XCTUnwrap(IPAddress(text)).bytes
                let hex = String(format: "%02x%02x:%02x%02x", v4[0], v4[1], v4[2], v4[3])
                let forms = ["::ffff:" + text, "::ffff:" + hex, "64:ff9b::" + text, "2002:" + hex + "::1"]
                    + (text == "0.0.0.0" || text == "0.0.0.1" ? [] : ["::" + text])
                for form in forms {
                    let address = try XCTUnwrap(IPAddress(form), form)
                    XCTAssertEqual(address.bytes.count, 16)
                    XCTAssertEqual(address.internalRange, row.range, form)
                }
            }
        }
        XCTAssertNil(IPAddress("::ffff:8.8.8.8")?.internalRange)
        XCTAssertEqual(IPAddress("[::1]")?.internalRange, .loopback)
        XCTAssertEqual(IPAddress("fe80::1%eth0")?.internalRange, .linkLocal)
    }

    /// A generated sweep: every /8 of IPv4 at a few offsets agrees with a plain restatement of
    /// the ranges.
    func testSweepOfTheIPv4Space() throws {
        func expected(_ a: Int, _ b: Int) -> InternalRange? {
            switch a {
            case 0: return .unspecified
            case 10: return .privateNetwork
            case 100 where b >= 64 && b < 128: return .sharedAddressSpace
            case 127: return .loopback
            case 169 where b == 254: return .linkLocal
            case 172 where b >= 16 && b < 32: return .privateNetwork
            case 192 where b == 168: return .privateNetwork
            case 224...239: return .multicast
            case 240...255: return .reserved
            default: return nil
            }
        }
        for a in 0...255 {
            for b in [0, 15, 16, 31, 32, 63, 64, 127, 128, 167, 168, 169, 253, 254, 255] {
                let address = try XCTUnwrap(IPAddress(bytes: [UInt8(a), UInt8(b), 7, 9]))
                XCTAssertEqual(address.internalRange, expected(a, b), address.description)
            }
        }
    }

    /// Origins as curl reads URLs: other spellings of 127.0.0.1 are the same host.
    func testOriginsNormalizeSpellings() throws {
        let origin = try XCTUnwrap(WebOrigin(url: "http://127.0.0.1:8080/feed"))
        for spelling in ["http://2130706433:8080/x", "http://0x7f.1:8080/x", "http://0177.0.0.1:8080/", "HTTP://127.0.0.1:8080",
                         "http://127.1:8080/", "http://0x7f000001:8080/"] {
            XCTAssertEqual(WebOrigin(url: spelling), origin, spelling)
        }
        XCTAssertEqual(WebOrigin(url: "https://Example.org/a")?.description, "https://example.org:443")
        XCTAssertNotEqual(WebOrigin(url: "https://example.org/"), WebOrigin(url: "http://example.org/"))
        XCTAssertNil(WebOrigin(url: "file:///etc/passwd"))
        XCTAssertNil(WebOrigin(url: "feed.xml"))
    }

    func testThePolicy() throws {
        let loopback = try XCTUnwrap(IPAddress("127.0.0.1"))
        let origin = WebOrigin(url: "http://127.0.0.1:1000/")
        XCTAssertNil(AddressPolicy.refusal(address: loopback, url: "http://127.0.0.1:1000/x", scope: origin, allowInternal: false))
        XCTAssertEqual(AddressPolicy.refusal(address: loopback, url: "http://127.0.0.1:1001/x", scope: origin, allowInternal: false), .loopback)
        XCTAssertEqual(AddressPolicy.refusal(address: loopback, url: "https://127.0.0.1:1000/x", scope: origin, allowInternal: false), .loopback)
        XCTAssertEqual(AddressPolicy.refusal(address: loopback, url: "http://127.0.0.1:1000/x", scope: nil, allowInternal: false), .loopback)
        XCTAssertNil(AddressPolicy.refusal(address: loopback, url: "http://127.0.0.1:1001/x", scope: nil, allowInternal: true))
        XCTAssertNil(AddressPolicy.refusal(address: try XCTUnwrap(IPAddress("8.8.8.8")), url: "http://x/", scope: nil, allowInternal: false))
        // The scope's own URL needs no second parse, and says what parsing it would: allowed
        // when the scope is an origin, refused when there is none (a URL curl cannot parse).
        XCTAssertNil(AddressPolicy.refusal(address: loopback, url: "http://127.0.0.1:1000/x", scope: origin,
                                           scopeURL: "http://127.0.0.1:1000/x", allowInternal: false))
        XCTAssertEqual(AddressPolicy.refusal(address: loopback, url: "http://127.0.0.1:1000/x", scope: nil,
                                             scopeURL: "http://127.0.0.1:1000/x", allowInternal: false), .loopback)
        XCTAssertEqual(AddressPolicy.refusal(address: loopback, url: "http://127.0.0.1:1001/x", scope: origin,
                                             scopeURL: "http://127.0.0.1:1000/x", allowInternal: false), .loopback)
        // The scope is parsed only for an internal address.
        var asked = 0
        func scope() -> WebOrigin? { asked += 1; return origin }
        XCTAssertNil(AddressPolicy.refusal(address: try XCTUnwrap(IPAddress("8.8.8.8")), url: "http://x/", scope: scope(), allowInternal: false))
        XCTAssertNil(AddressPolicy.refusal(address: loopback, url: "http://x/", scope: scope(), allowInternal: true))
        XCTAssertEqual(asked, 0)
        XCTAssertNil(AddressPolicy.refusal(address: loopback, url: "http://127.0.0.1:1000/x", scope: scope(), allowInternal: false))
        XCTAssertEqual(asked, 1)
    }

    // MARK: At connect time, on loopback

    func testRedirectToAnotherOriginOnLoopbackIsRefusedAndToTheOwnIsFollowed() throws {
        let own = try LoopbackHTTPServer()
        let other = try LoopbackHTTPServer()
        defer { own.stop(); other.stop() }
        other.route("/secret", .text("internal"))
        own.route("/ok", .text("fine"))
        own.route("/away", .redirect(302, to: other.url("/secret")))
        own.route("/home", .redirect(302, to: "/ok"))

        let refused = try XCTUnwrap(failure(fetch(own.url("/away"))))
        guard case .internalAddressRefused(let url, let address, let range) = refused else { return XCTFail("\(refused)") }
        XCTAssertEqual(url, other.url("/secret"))
        XCTAssertEqual(address, "127.0.0.1")
        XCTAssertEqual(range, "loopback")
        XCTAssertTrue(refused.localizedDescription.contains("--allow-internal"), refused.localizedDescription)
        XCTAssertEqual(other.requests.count, 0, "nothing reached the other origin")
        XCTAssertEqual(other.connectionsAccepted, 0, "not even a connection")

        XCTAssertEqual(text(try response(fetch(own.url("/home"))).body), "fine")

        var allowing = testLimits()
        allowing.allowInternalAddresses = true
        XCTAssertEqual(text(try response(fetch(own.url("/away"), limits: allowing)).body), "internal")
    }

    /// An image's request names its source's origin: on it the image is fetched, off it refused,
    /// in every spelling of 127.0.0.1, and a kept connection does not carry a refused request.
    func testScopeOfAnotherURLAndSpellingsAndReusedConnections() throws {
        let source = try LoopbackHTTPServer()
        let images = try LoopbackHTTPServer()
        defer { source.stop(); images.stop() }
        images.route("/i.png", .text("png"))
        source.route("/i.png", .text("own"))
        let fetcher = try Fetcher(limits: testLimits(maxInFlight: 1))
        func get(_ url: String, scope: InternalAddressScope) -> Result<FetchResponse, FetchError> {
            fetcher.fetch(FetchRequest(id: 1, url: url, internalScope: scope))
        }
        // Allowed first (a connection to the images server is then kept), refused after.
        XCTAssertEqual(text(try response(get(images.url("/i.png"), scope: .sameOriginAs(images.url("/feed")))).body), "png")
        let before = images.requests.count
        for url in [images.url("/i.png"), "http://2130706433:\(images.port)/i.png", "http://0x7f.1:\(images.port)/i.png",
                    "http://0177.0.0.1:\(images.port)/i.png", "http://127.1:\(images.port)/i.png",
                    "http://[::ffff:127.0.0.1]:\(images.port)/i.png"] {
            let error = failure(get(url, scope: .sameOriginAs(source.url("/feed"))))
            guard case .internalAddressRefused = error else { XCTFail("\(url): \(String(describing: error))"); continue }
        }
        XCTAssertEqual(images.requests.count, before, "the kept connection carried no refused request")
        XCTAssertEqual(text(try response(get(source.url("/i.png"), scope: .sameOriginAs(source.url("/feed")))).body), "own")
        guard case .internalAddressRefused = failure(get(source.url("/i.png"), scope: .nowhere)) else { return XCTFail() }
    }
}
