import CCurlShim
import FeedModel  // TerminalText
import Foundation  // LocalizedError

/// A transfer that produced no HTTP response (HTTP statuses, 404 and 500 included, are
/// responses, not errors). Each message is one line saying what happened and what to check.
public enum FetchError: Error, LocalizedError, Sendable, Hashable {
    /// Not a URL curl can parse.
    case invalidURL(String)
    /// A scheme other than http/https (or file, where the request allows it).
    case unsupportedScheme(url: String)
    case couldNotResolveHost(String)
    case couldNotResolveProxy(String)
    case connectionRefused(host: String)
    /// Could not connect for another reason (network unreachable, ...).
    case couldNotConnect(host: String, detail: String)
    /// The connect or total timeout ran out.
    case timedOut(seconds: Double, whileConnecting: Bool)
    case tls(detail: String)
    /// The body went over `maxBodyBytes` once decoded, or over `maxWireBytes` on the wire.
    case bodyTooLarge(limit: Int, onTheWire: Bool)
    case tooManyRedirects(limit: Int)
    /// A redirect to a scheme other than http/https (`ftp:`, `file:`, ...).
    case redirectRefused(location: String)
    /// HTTP/2 or HTTP/3 framing or stream error.
    case http2(detail: String)
    /// The body did not decode as its Content-Encoding says.
    case badContentEncoding(detail: String)
    /// The server closed the connection without sending a response.
    case emptyReply
    /// The server sent something that is not HTTP.
    case malformedResponse(detail: String)
    /// The connection broke while sending or receiving.
    case connectionLost(detail: String)
    /// The body ended before the announced length.
    case truncatedBody(detail: String)
    /// A `file://` URL that could not be read.
    case fileNotReadable(path: String)
    /// A `file://` URL naming a FIFO, a device, a socket or a directory (`kind` says which):
    /// only regular files are read (see `LocalFile`).
    case notARegularFile(path: String, kind: String)
    /// A redirect, image or preview led to a loopback, private or link-local address off the
    /// source's own origin (see `AddressPolicy`).
    case internalAddressRefused(url: String, address: String, range: String)
    case outOfMemory
    /// Setting up a transfer failed (a curl option or call refused); a bug or a curl built
    /// without a needed feature.
    case setup(call: String, detail: String)
    /// Any other curl error.
    case curl(code: Int, detail: String)
    /// Not sent: the host asked every client (all workers, see `HostGate`) to pause this many
    /// more seconds (429 or 503 with Retry-After).
    case hostBackingOff(host: String, seconds: Int64)

    /// One line; what came from outside (a URL, a Location header, a host name, curl's text
    /// about what a server sent) neutralised for the terminal, since the message is printed,
    /// mailed by cron and stored as the source's last error.
    public var errorDescription: String? { TerminalText.line(message) }

    private var message: String {
        switch self {
        case .invalidURL(let url):
            return "invalid URL \(quoted(url)): check for spaces or a missing http://"
        case .unsupportedScheme(let url):
            return "cannot fetch \(quoted(url)): only http:// and https:// URLs are fetched"
        case .couldNotResolveHost(let host):
            return "could not resolve host \(host): check the spelling of the URL or the DNS settings"
        case .couldNotResolveProxy(let proxy):
            return "could not resolve proxy \(proxy): check the http_proxy/https_proxy settings"
        case .connectionRefused(let host):
            return "connection refused by \(host): the server is down or not listening on that port"
        case .couldNotConnect(let host, let detail):
            return "could not connect to \(host): \(detail)"
        case .timedOut(let seconds, let whileConnecting):
            return whileConnecting
                ? "timeout after \(formatSeconds(seconds)) s while connecting: the server did not answer"
                : "timeout after \(formatSeconds(seconds)) s: the server is too slow or stalled mid-response"
        case .tls(let detail):
            return "TLS error: \(detail)"
        case .bodyTooLarge(let limit, let onTheWire):
            return onTheWire
                ? "body larger than \(limit) bytes on the wire: not a feed, or raise the download limit"
                : "body larger than \(limit) bytes once decompressed: not a feed (or a compression bomb), or raise the limit"
        case .tooManyRedirects(let limit):
            return "too many redirects (more than \(limit)): the URL redirects in a loop or too far"
        case .redirectRefused(let location):
            return "redirect to a non-http(s) URL refused: \(quoted(location))"
        case .http2(let detail):
            return "HTTP/2 error: \(detail)"
        case .badContentEncoding(let detail):
            return "the body could not be decompressed (\(detail)): the server sent corrupt gzip/deflate/br data"
        case .emptyReply:
            return "the server closed the connection without replying"
        case .malformedResponse(let detail):
            return "the server's reply is not valid HTTP: \(detail)"
        case .connectionLost(let detail):
            return "connection lost: \(detail)"
        case .truncatedBody(let detail):
            return "the response ended early: \(detail)"
        case .internalAddressRefused(let url, let address, let range):
            return "refused to connect to \(address) (a \(range) address) for \(quoted(url)): only the source's own site may be on a local network (--allow-internal allows it)"
        case .fileNotReadable(let path):
            return "cannot read file \(path): check that it exists and is readable"
        case .notARegularFile(let path, let kind):
            return "cannot read \(path): it is \(kind), not a regular file; a local source must be a regular file (or a symlink to one)"
        case .outOfMemory:
            return "out of memory while fetching"
        case .setup(let call, let detail):
            return "could not set up the transfer (\(call)): \(detail)"
        case .curl(let code, let detail):
            return "transfer failed (curl error \(code)): \(detail)"
        case .hostBackingOff(let host, let seconds):
            return "not fetched: \(host) asked for a pause (429/503), \(seconds) s more; retrying after it"
        }
    }
}

private func quoted(_ s: String) -> String {
    let short = s.count > 200 ? String(s.prefix(200)) + "…" : s
    return "\"\(short)\""
}

private func formatSeconds(_ s: Double) -> String {
    let tenths = (s * 10).rounded() / 10
    return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
}

/// What curl said about a failed transfer, gathered so the error can name the right thing.
struct CurlFailure {
    var code: CURLcode
    /// CURLOPT_ERRORBUFFER's text, or curl_easy_strerror when that is empty.
    var detail: String
    /// The URL being fetched when it failed (after redirects).
    var url: String
    /// errno of the last failed socket call (CURLINFO_OS_ERRNO).
    var osErrno: Int
    /// Whether the connection was never established.
    var neverConnected: Bool
    /// Location of the redirect response the transfer ended on, if it ended on one.
    var lastLocation: String?
}

extension FetchError {
    /// Maps a failed transfer's CURLcode to an error, code by code. Size and callback aborts
    /// are decided by the caller first (it knows which limit it enforced).
    static func from(_ f: CurlFailure, limits: FetchLimits) -> FetchError {
        let host = hostAndPort(of: f.url) ?? f.url
        switch f.code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            // Requests are checked before they start: after a redirect response, this is the
            // redirect to another scheme; otherwise the reply was not HTTP (curl calls it HTTP/0.9).
            if let location = f.lastLocation { return .redirectRefused(location: location) }
            return .malformedResponse(detail: f.detail)
        case CURLE_URL_MALFORMAT:
            return .invalidURL(f.url)
        case CURLE_COULDNT_RESOLVE_HOST:
            return .couldNotResolveHost(hostName(of: f.url) ?? host)
        case CURLE_COULDNT_RESOLVE_PROXY:
            return .couldNotResolveProxy(f.detail)
        case CURLE_COULDNT_CONNECT:
            return f.osErrno == Int(ECONNREFUSED) ? .connectionRefused(host: host)
                : .couldNotConnect(host: host, detail: f.detail)
        case CURLE_OPERATION_TIMEDOUT:
            // Before the connection is up, whichever of the two timeouts is shorter ran out.
            return f.neverConnected
                ? .timedOut(seconds: min(limits.connectTimeout, limits.totalTimeout).secondsDouble, whileConnecting: true)
                : .timedOut(seconds: limits.totalTimeout.secondsDouble, whileConnecting: false)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
             CURLE_USE_SSL_FAILED, CURLE_SSL_CLIENTCERT:
            return .tls(detail: f.detail)
        case CURLE_FILESIZE_EXCEEDED:
            return .bodyTooLarge(limit: limits.maxWireBytes, onTheWire: true)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(limit: limits.maxRedirects)
        case CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3, CURLE_QUIC_CONNECT_ERROR:
            return .http2(detail: f.detail)
        case CURLE_BAD_CONTENT_ENCODING:
            return .badContentEncoding(detail: f.detail)
        case CURLE_GOT_NOTHING:
            return .emptyReply
        case CURLE_WEIRD_SERVER_REPLY:
            return .malformedResponse(detail: f.detail)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            return .connectionLost(detail: f.detail)
        case CURLE_PARTIAL_FILE:
            return .truncatedBody(detail: f.detail)
        case CURLE_FILE_COULDNT_READ_FILE, CURLE_READ_ERROR:
            return .fileNotReadable(path: filePath(of: f.url))
        case CURLE_OUT_OF_MEMORY:
            return .outOfMemory
        default:
            return .curl(code: Int(f.code.rawValue), detail: f.detail)
        }
    }
}

/// `file:///tmp/x%20y` → `/tmp/x y` (best effort, for messages).
func filePath(of url: String) -> String {
    guard let part = urlPart(url, CURLUPART_PATH, flags: UInt32(CURLU_URLDECODE)) else { return url }
    return part
}

func hostName(of url: String) -> String? {
    urlPart(url, CURLUPART_HOST, flags: 0)
}

/// `example.org` or `example.org:8080` (the port only when the URL names one).
func hostAndPort(of url: String) -> String? {
    guard let host = hostName(of: url) else { return nil }
    if let port = urlPart(url, CURLUPART_PORT, flags: 0) { return "\(host):\(port)" }
    return host
}

/// One part of a URL as curl's URL parser reads it, nil when absent or unparsable.
func urlPart(_ url: String, _ part: CURLUPart, flags: UInt32) -> String? {
    urlParts(url, [part], flags: flags)?[0]
}

/// Parts of a URL as curl's URL parser reads them (nil for an absent part), or nil when curl
/// cannot parse the URL.
func urlParts(_ url: String, _ parts: [CURLUPart], flags: UInt32 = 0) -> [String?]? {
    guard let handle = ccurl_url() else { return nil }
    defer { ccurl_url_cleanup(handle) }
    guard ccurl_url_set(handle, CURLUPART_URL, url, UInt32(CURLU_NON_SUPPORT_SCHEME)) == CURLUE_OK else { return nil }
    return parts.map { part in
        var out: UnsafeMutablePointer<CChar>?
        guard ccurl_url_get(handle, part, &out, flags) == CURLUE_OK, let out else { return nil }
        defer { ccurl_free(out) }
        return String(cString: out)
    }
}
