import CCurlShim
import Glibc

/// An IPv4 or IPv6 address as bytes (4 or 16), from a socket address or from text.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The address in `text` as `inet_pton` reads it: dotted quad (`127.0.0.1`) or IPv6
    /// (`::1`, `[::1]`, `::ffff:10.0.0.1`). Other spellings of IPv4 (`2130706433`, `0x7f.1`) are
    /// URL host forms: curl's URL parser turns them into dotted quads before connecting.
    public init?(_ text: String) {
        var text = Substring(text)
        if text.hasPrefix("[") && text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, String(text), &v6) == 1 else { return nil }
        self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
    }

    /// The address of an `AF_INET` or `AF_INET6` socket address; nil for any other family.
    init?(socketAddress: UnsafeRawPointer) {
        let family = socketAddress.load(as: sockaddr.self).sa_family
        if family == sa_family_t(AF_INET) {
            var a = socketAddress.loadUnaligned(as: sockaddr_in.self).sin_addr
            bytes = withUnsafeBytes(of: &a) { Array($0) }
        } else if family == sa_family_t(AF_INET6) {
            var a = socketAddress.loadUnaligned(as: sockaddr_in6.self).sin6_addr
            bytes = withUnsafeBytes(of: &a) { Array($0) }
        } else {
            return nil
        }
    }

    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let ok = bytes.withUnsafeBytes { raw in
            inet_ntop(bytes.count == 4 ? AF_INET : AF_INET6, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil
        }
        guard ok else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Which non-public range the address is in (nil: a public address). IPv6 forms that
    /// carry an IPv4 address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64
    /// `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`) are judged by that address, since the
    /// kernel or a gateway may deliver them to it.
    public var internalRange: InternalRange? {
        if bytes.count == 4 { return Self.range(v4: bytes) }
        let b = bytes
        let head = b.prefix(10)
        if head.allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return Self.range(v4: Array(b[12...])) }
        if b.prefix(12).allSatisfy({ $0 == 0 }) {
            if b[12...].allSatisfy({ $0 == 0 }) { return .unspecified }
            if b[12...14].allSatisfy({ $0 == 0 }) && b[15] == 1 { return .loopback }
            return Self.range(v4: Array(b[12...]))
        }
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B && b[4...11].allSatisfy({ $0 == 0 }) {
            return Self.range(v4: Array(b[12...]))
        }
        if b[0] == 0x20 && b[1] == 0x02 { return Self.range(v4: Array(b[2...5])) }
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return .linkLocal }     // fe80::/10
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return .privateNetwork } // fec0::/10, site-local (deprecated)
        if b[0] & 0xFE == 0xFC { return .uniqueLocal }                    // fc00::/7
        if b[0] == 0xFF { return .multicast }                             // ff00::/8
        return nil
    }

    private static func range(v4 b: [UInt8]) -> InternalRange? {
        switch (b[0], b[1]) {
        case (0, _): return .unspecified                       // 0.0.0.0/8, "this network"
        case (10, _): return .privateNetwork                   // 10/8
        case (100, 64...127): return .sharedAddressSpace       // 100.64/10, carrier-grade NAT
        case (127, _): return .loopback                        // 127/8
        case (169, 254): return .linkLocal                     // 169.254/16, cloud metadata
        case (172, 16...31): return .privateNetwork            // 172.16/12
        case (192, 168): return .privateNetwork                // 192.168/16
        case (224...239, _): return .multicast                 // 224/4
        case (240...255, _): return .reserved                  // 240/4 and the broadcast address
        default: return nil
        }
    }
}

/// The address ranges that lead inside a network rather than to the public internet.
public enum InternalRange: String, Sendable, Hashable, CaseIterable {
    case loopback, privateNetwork = "private", sharedAddressSpace = "shared (CGNAT)", linkLocal = "link-local",
         uniqueLocal = "unique-local", unspecified, multicast, reserved
}

/// Scheme, host and port of a URL as curl reads them (host lower-cased, IPv4 spellings such
/// as `0x7f.1` made dotted, the default port filled in): what "the same site" means.
public struct WebOrigin: Hashable, Sendable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int

    /// nil for a URL without a host (`file:` paths) or one curl cannot parse.
    public init?(url: String) {
        guard let parts = urlParts(url, [CURLUPART_SCHEME, CURLUPART_HOST, CURLUPART_PORT], flags: UInt32(CURLU_DEFAULT_PORT)),
              let scheme = parts[0], let host = parts[1], !host.isEmpty, let port = parts[2].flatMap({ Int($0) }) else { return nil }
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port
    }

    public var description: String { "\(scheme)://\(host):\(port)" }
}

/// Where a request may reach an internal address (loopback, private, link-local,
/// unique-local, ...; see `IPAddress.internalRange`). A source's own URL may point anywhere its
/// owner wrote, but what a feed or a server names (redirects, card images, preview pages) may
/// reach such an address only on the source's own origin: so a feed cannot make `feeds` read
/// the cloud metadata service or a router's admin page and publish what it got.
public enum InternalAddressScope: Sendable, Hashable {
    /// Internal addresses only for URLs on the origin of this URL (the source's own).
    case sameOriginAs(String)
    /// Internal addresses nowhere (an image of a local-file source, say).
    case nowhere
}

/// The one rule, applied by every transfer at connect time to the address actually connected
/// to (so a host name that resolves to a public address when checked and to 127.0.0.1 when
/// connecting, DNS rebinding, changes nothing), on every redirect hop and on reused connections.
public enum AddressPolicy {
    /// Why connecting to `address` for `url` is refused, or nil when it is allowed. `scope` is
    /// asked only for an internal address (a URL parse: ~10,000 instructions); `scopeURL`, the
    /// URL the scope is the origin of, when `url` is that URL, spares parsing `url` again.
    public static func refusal(address: IPAddress, url: String, scope: @autoclosure () -> WebOrigin?, scopeURL: String? = nil,
                               allowInternal: Bool) -> InternalRange? {
        guard !allowInternal, let range = address.internalRange else { return nil }
        if let scope = scope(), url == scopeURL || WebOrigin(url: url) == scope { return nil }
        return range
    }
}
