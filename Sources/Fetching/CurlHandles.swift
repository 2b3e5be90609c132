import CCurlShim
import FeedModel
import Glibc

/// Loads libcurl (see CCurl's shim: it is loaded on first use, not linked) and initializes it
/// (`curl_global_init` exactly once per process, in the shim, whichever thread comes first).
func ensureCurlGlobalInit() throws(FetchError) {
    guard ccurl_load() != 0 else {
        throw .setup(call: "loading libcurl", detail: String(cString: ccurl_load_error())
                     + " (install the Debian package libcurl4)")
    }
    let result = ccurl_global_init_once()
    guard result == CURLE_OK else {
        throw .setup(call: "curl_global_init", detail: String(cString: ccurl_easy_strerror(result)))
    }
}

extension Fetcher {
    /// Starts loading and initializing libcurl on a thread of its own, for a command about to
    /// fetch: the ~30 libraries it loads and `curl_global_init` (~10-20 ms) are then done while
    /// the command reads its sources and database, not after. The first Fetcher waits for it
    /// to finish if it has not; a failure is reported by that Fetcher, as without. The process
    /// must call `finishLoadingLibrary` before it exits.
    public static func loadLibraryInBackground() {
        ccurl_preload()
    }

    /// Waits for `loadLibraryInBackground`'s thread, if it was started: before `exit`, whose
    /// handlers (OpenSSL's cleanup among them) must not run beside a library being loaded.
    public static func finishLoadingLibrary() {
        ccurl_preload_finish()
    }
}

/// `call` is made only on failure (an autoclosure): a name interpolated at every call was 6 %
/// of the instructions of an all-304 pass (60,000 getinfo calls on 5,000 feeds).
private func check(_ code: CURLMcode, _ call: @autoclosure () -> String) throws(FetchError) {
    guard code == CURLM_OK else {
        throw code == CURLM_OUT_OF_MEMORY ? .outOfMemory
            : .setup(call: call(), detail: String(cString: ccurl_multi_strerror(code)))
    }
}

/// Owns one CURLM handle and the epoll set that waits on its sockets: its connection cache
/// and DNS cache outlive single transfers, so connections to a host are reused across
/// transfers (and fetchAll calls).
///
/// Why the socket interface (curl_multi_socket_action) and not curl_multi_perform/poll: in
/// libcurl 7.88 those two visit every transfer on every call. With 480 transfers in flight a
/// pass of 5,000 feeds woke ~23,000 times, each wake-up walking and polling all of them: a
/// fifth of the pass's CPU was that walk, and the kernel's poll of 480 sockets a tenth more.
/// Here curl tells us (socket callback) which sockets it waits on, we keep them in an epoll
/// set, and each wake-up hands curl only the sockets that are ready, plus its timer when due.
final class CurlMulti {
    let handle: UnsafeMutableRawPointer
    private let epoll: Int32
    /// An eventfd in the epoll set: FetchWaker writes it to end a wait from another thread.
    let wakeDescriptor: Int32
    private var watched = Set<Int32>()
    private var timerDue: ContinuousClock.Instant?
    /// An epoll_ctl failure inside a callback (which cannot throw), raised at the next call.
    private var callbackError: FetchError?
    private var ready = [ccurl_ready](repeating: ccurl_ready(), count: 256)

    init() throws(FetchError) {
        guard let handle = ccurl_multi_init() else { throw .setup(call: "curl_multi_init", detail: "returned NULL") }
        let epoll = ccurl_epoll_create()
        let wake = ccurl_eventfd()
        guard epoll >= 0, wake >= 0, ccurl_epoll_set(epoll, 1 /* EPOLL_CTL_ADD */, wake, 1 /* EPOLLIN */) == 0 else {
            let detail = String(cString: strerror(errno))
            if epoll >= 0 { close(epoll) }
            if wake >= 0 { close(wake) }
            ccurl_multi_cleanup(handle)
            throw .setup(call: epoll < 0 ? "epoll_create1" : "eventfd", detail: detail)
        }
        (self.handle, self.epoll, self.wakeDescriptor) = (handle, epoll, wake)
        let me = Unmanaged.passUnretained(self).toOpaque()
        try check(ccurl_multi_setopt_ptr(handle, CURLMOPT_SOCKETDATA, me), "curl_multi_setopt(SOCKETDATA)")
        try check(ccurl_multi_setopt_socketfn(handle, CURLMOPT_SOCKETFUNCTION) { _, socket, what, context, _ in
            guard let context else { return 0 }
            Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue().watch(socket, what)
            return 0
        }, "curl_multi_setopt(SOCKETFUNCTION)")
        try check(ccurl_multi_setopt_ptr(handle, CURLMOPT_TIMERDATA, me), "curl_multi_setopt(TIMERDATA)")
        try check(ccurl_multi_setopt_timerfn(handle, CURLMOPT_TIMERFUNCTION) { _, milliseconds, context in
            guard let context else { return 0 }
            Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue().setTimer(milliseconds)
            return 0
        }, "curl_multi_setopt(TIMERFUNCTION)")
    }

    deinit {
        // curl calls the socket callback while cleaning up; this object is going, so no more.
        _ = ccurl_multi_setopt_socketfn(handle, CURLMOPT_SOCKETFUNCTION, nil)
        _ = ccurl_multi_setopt_timerfn(handle, CURLMOPT_TIMERFUNCTION, nil)
        ccurl_multi_cleanup(handle)
        close(epoll)
        close(wakeDescriptor)
    }

    func add(_ transfer: EasyTransfer) throws(FetchError) {
        try check(ccurl_multi_add_handle(handle, transfer.handle), "curl_multi_add_handle")
    }

    func remove(_ transfer: EasyTransfer) throws(FetchError) {
        try check(ccurl_multi_remove_handle(handle, transfer.handle), "curl_multi_remove_handle")
    }

    /// Drives the transfers whose timer is due (new ones start that way) without waiting.
    func perform() throws(FetchError) {
        if let due = timerDue, due <= .now { try fireTimer() }
        try raiseCallbackError()
    }

    /// Waits for a ready socket, curl's timer or a wake-up, at most `milliseconds`, and hands
    /// curl what is ready.
    func poll(milliseconds: Int32) throws(FetchError) {
        var wait = milliseconds
        if let due = timerDue {
            let left = (due - .now).components
            let ms = left.seconds * 1000 + (left.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            wait = Int32(clamping: max(0, min(Int64(wait), ms)))
        }
        let count = ready.withUnsafeMutableBufferPointer { buffer in
            ccurl_epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), wait)
        }
        guard count >= 0 else {
            if errno == EINTR { return }
            throw .setup(call: "epoll_wait", detail: String(cString: strerror(errno)))
        }
        var running: Int32 = 0
        for i in 0..<Int(count) {
            let (fd, events) = (ready[i].fd, ready[i].events)
            if fd == wakeDescriptor {
                var value: UInt64 = 0
                _ = read(wakeDescriptor, &value, 8)
                continue
            }
            var mask: Int32 = 0
            if events & 0x001 != 0 { mask |= CURL_CSELECT_IN }   // EPOLLIN
            if events & 0x004 != 0 { mask |= CURL_CSELECT_OUT }  // EPOLLOUT
            if events & 0x018 != 0 { mask |= CURL_CSELECT_ERR }  // EPOLLERR, EPOLLHUP
            try check(ccurl_multi_socket_action(handle, fd, mask, &running), "curl_multi_socket_action")
        }
        if let due = timerDue, due <= .now { try fireTimer() }
        try raiseCallbackError()
    }

    /// The next finished transfer: its easy handle and result code.
    func nextFinished() -> (UnsafeMutableRawPointer, CURLcode)? {
        var left: Int32 = 0
        while let message = ccurl_multi_info_read(handle, &left) {
            if message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle {
                return (easy, message.pointee.data.result)
            }
        }
        return nil
    }

    private func fireTimer() throws(FetchError) {
        timerDue = nil  // before the call: curl sets the next one from inside it
        var running: Int32 = 0
        try check(ccurl_multi_socket_action(handle, CURL_SOCKET_TIMEOUT, 0, &running), "curl_multi_socket_action")
    }

    private func raiseCallbackError() throws(FetchError) {
        if let error = callbackError {
            callbackError = nil
            throw error
        }
    }

    /// curl's socket callback: what it now waits for on `socket` (CURL_POLL_IN/OUT/INOUT/REMOVE).
    private func watch(_ socket: Int32, _ what: Int32) {
        if what == CURL_POLL_REMOVE {
            // curl says so before it closes the socket; a socket it already closed left the set.
            if watched.remove(socket) != nil { _ = ccurl_epoll_set(epoll, 2 /* EPOLL_CTL_DEL */, socket, 0) }
            return
        }
        let events: UInt32 = (what & CURL_POLL_IN != 0 ? 0x001 : 0) | (what & CURL_POLL_OUT != 0 ? 0x004 : 0)
        var op: Int32 = watched.contains(socket) ? 3 /* MOD */ : 1 /* ADD */
        var result = ccurl_epoll_set(epoll, op, socket, events)
        if result != 0 && (errno == ENOENT || errno == EEXIST) {
            // The set and our record disagree (curl closed and reopened the number): the other op.
            op = op == 1 ? 3 : 1
            result = ccurl_epoll_set(epoll, op, socket, events)
        }
        if result == 0 {
            watched.insert(socket)
        } else if callbackError == nil {
            callbackError = .setup(call: "epoll_ctl", detail: String(cString: strerror(errno)))
        }
    }

    /// curl's timer callback: -1 means no timer, 0 means now.
    private func setTimer(_ milliseconds: Int) {
        timerDue = milliseconds < 0 ? nil : .now + .milliseconds(milliseconds)
    }
}

/// Whether libcurl will send requests through a proxy named in the environment (it reads
/// `http_proxy`, `HTTPS_PROXY`/`https_proxy` and `ALL_PROXY`/`all_proxy`; `no_proxy` exempts
/// some hosts, which are then judged as through a proxy: by a literal address only).
let proxyFromEnvironment: Bool = {
    ["http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"].contains { name in
        guard let value = getenv(name) else { return false }
        return value.pointee != 0
    }
}()

/// Owns one CURL easy handle, its request header list and error buffer, and collects what the
/// callbacks deliver. Used from the fetching thread only; callbacks reach it through `Unmanaged`
/// while the Fetcher keeps it alive in its in-flight table.
final class EasyTransfer {
    enum Abort { case bodyTooLarge, wireTooLarge, prefixKept }

    let request: FetchRequest
    let hostKey: String
    let isFile: Bool
    let queuedSeconds: Double
    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let maxBodyBytes: Int
    private let maxWireBytes: Int

    private(set) var body: [UInt8] = []
    /// Headers of the latest response; reset at each status line, so after redirects these are
    /// the final response's.
    private(set) var headers = HTTPHeaders()
    /// Status of each non-1xx response in order: the redirect hops, then the final one.
    private(set) var statuses: [Int] = []
    private(set) var lastLocation: String?
    /// Decoded bytes curl handed over, including a refused chunk.
    private(set) var decodedBytesSeen = 0
    private(set) var abort: Abort?
    private var inInformational = false
    /// The origin internal addresses are allowed on (`InternalAddressScope`), parsed when first
    /// needed: only a connection to an internal address asks (`AddressPolicy.refusal`; curl's
    /// URL parser is ~10,000 instructions a URL, and parsing it for every transfer, and again
    /// at each connection to loopback, was 5 % of an all-304 pass of 5,000 feeds).
    private lazy var internalOrigin: WebOrigin? = {
        switch request.internalScope {
        case .sameOriginAs(let url): return WebOrigin(url: url)
        case .nowhere: return nil
        }
    }()
    private let allowInternal: Bool
    /// The last connection `AddressPolicy` refused: it becomes the error when the transfer fails.
    private(set) var refused: (url: String, address: IPAddress, range: InternalRange)?

    init(request: FetchRequest, hostKey: String, isFile: Bool, limits: FetchLimits, queuedSeconds: Double) throws(FetchError) {
        guard let handle = ccurl_easy_init() else { throw .setup(call: "curl_easy_init", detail: "returned NULL") }
        self.handle = handle
        self.request = request
        self.hostKey = hostKey
        self.isFile = isFile
        self.queuedSeconds = queuedSeconds
        self.maxBodyBytes = limits.maxBodyBytes
        self.maxWireBytes = limits.maxWireBytes
        self.allowInternal = limits.allowInternalAddresses
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        ccurl_easy_cleanup(handle)
        ccurl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// curl's receive buffer and (TLS only) request buffer per transfer: see `configure`.
    static let receiveBufferBytes = 4 * 1024
    static let uploadBufferBytes = 16 * 1024

    /// Sets every option; the first one curl refuses becomes the error.
    func configure(limits: FetchLimits) throws(FetchError) {
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer), "CURLOPT_ERRORBUFFER")
        try set(CURLOPT_URL, string: request.url, "CURLOPT_URL")
        try set(CURLOPT_NOSIGNAL, 1, "CURLOPT_NOSIGNAL")
        try set(CURLOPT_PROTOCOLS_STR, string: isFile ? "http,https,file" : "http,https", "CURLOPT_PROTOCOLS_STR")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, string: "http,https", "CURLOPT_REDIR_PROTOCOLS_STR")
        try set(CURLOPT_FOLLOWLOCATION, 1, "CURLOPT_FOLLOWLOCATION")
        try set(CURLOPT_MAXREDIRS, limits.maxRedirects, "CURLOPT_MAXREDIRS")
        try set(CURLOPT_ACCEPT_ENCODING, string: "", "CURLOPT_ACCEPT_ENCODING")
        try set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS), "CURLOPT_HTTP_VERSION")
        // Several transfers starting together to one https host wait for the first connection
        // to learn (by ALPN) whether it speaks HTTP/2, and then share it as streams, instead of
        // each opening a connection of its own. Not for plain http, which stays HTTP/1.1: there
        // the wait would last until the first response and serialize the first requests.
        if request.url.utf8.count > 8 && request.url.prefix(8).lowercased() == "https://" {
            try set(CURLOPT_PIPEWAIT, 1, "CURLOPT_PIPEWAIT")
        }
        try set(CURLOPT_CONNECTTIMEOUT_MS, limits.connectTimeout.curlMilliseconds, "CURLOPT_CONNECTTIMEOUT_MS")
        try set(CURLOPT_TIMEOUT_MS, limits.totalTimeout.curlMilliseconds, "CURLOPT_TIMEOUT_MS")
        try set(CURLOPT_USERAGENT, string: limits.userAgent, "CURLOPT_USERAGENT")
        try set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1, "CURLOPT_SUPPRESS_CONNECT_HEADERS")
        // A running transfer holds its receive buffer, 16 KB by default, and over TLS an upload
        // buffer for the request, 64 KB by default: with 480 transfers at once (an all-304 pass
        // of thousands of feeds) the receive buffers alone were 7.7 MB of a 50 MB peak. 4 KB
        // costs a compressed 60 KB feed three more recv calls (5 instead of 2, of ~470 system
        // calls a feed takes to save); the upload buffer goes to curl's smallest, 16 KB (curl
        // sends a larger request in pieces).
        try set(CURLOPT_BUFFERSIZE, EasyTransfer.receiveBufferBytes, "CURLOPT_BUFFERSIZE")
        try set(CURLOPT_UPLOAD_BUFFERSIZE, EasyTransfer.uploadBufferBytes, "CURLOPT_UPLOAD_BUFFERSIZE")
        try check(ccurl_easy_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxWireBytes)),
                  "CURLOPT_MAXFILESIZE_LARGE")

        var lines: [String] = []
        if let etag = request.etag { lines.append("If-None-Match: \(etag)") }
        if let lastModified = request.lastModified { lines.append("If-Modified-Since: \(lastModified)") }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
        for line in lines {
            // A validator comes from a server: never let it smuggle a second header line in.
            // (Checked on the bytes first: the rewrite by scalars cost 6% of an all-304 pass.)
            var safe = line
            if line.utf8.contains(where: { $0 == 13 || $0 == 10 }) {
                var scalars = String.UnicodeScalarView()
                scalars.append(contentsOf: line.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? " " : $0 })
                safe = String(scalars)
            }
            guard let list = ccurl_slist_append(headerList, safe) else { throw .outOfMemory }
            headerList = list
        }
        if headerList != nil { try check(ccurl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), "CURLOPT_HTTPHEADER") }

        let context = Unmanaged.passUnretained(self).toOpaque()
        try set(CURLOPT_WRITEDATA, pointer: context, "CURLOPT_WRITEDATA")
        try check(ccurl_easy_setopt_datafn(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<EasyTransfer>.fromOpaque(context!).takeUnretainedValue()
            let n = size * count
            return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: n)) ? n : 0
        }, "CURLOPT_WRITEFUNCTION")
        try set(CURLOPT_HEADERDATA, pointer: context, "CURLOPT_HEADERDATA")
        try check(ccurl_easy_setopt_datafn(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<EasyTransfer>.fromOpaque(context!).takeUnretainedValue()
            let n = size * count
            transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: n))
            return n
        }, "CURLOPT_HEADERFUNCTION")
        try set(CURLOPT_XFERINFODATA, pointer: context, "CURLOPT_XFERINFODATA")
        try check(ccurl_easy_setopt_xferinfofn(handle, CURLOPT_XFERINFOFUNCTION) { context, _, downloaded, _, _ in
            let transfer = Unmanaged<EasyTransfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.progress(wireBytes: Int(downloaded)) ? 0 : 1
        }, "CURLOPT_XFERINFOFUNCTION")
        try set(CURLOPT_NOPROGRESS, 0, "CURLOPT_NOPROGRESS")

        // The address policy, at the two moments curl knows the address: before it opens a
        // socket (a refused address gets no packet at all; happy eyeballs tries the next), and
        // before each request on a connection, new or reused (a connection kept from an allowed
        // transfer must not carry a refused one).
        guard !isFile else { return }
        try set(CURLOPT_OPENSOCKETDATA, pointer: context, "CURLOPT_OPENSOCKETDATA")
        try check(ccurl_easy_setopt_opensocketfn(handle, CURLOPT_OPENSOCKETFUNCTION) { context, purpose, address in
            let transfer = Unmanaged<EasyTransfer>.fromOpaque(context!).takeUnretainedValue()
            guard let address else { return CURL_SOCKET_BAD }
            if purpose == CURLSOCKTYPE_IPCXN,
               let ip = IPAddress(socketAddress: withUnsafeMutablePointer(to: &address.pointee.addr) { UnsafeRawPointer($0) }),
               !transfer.admits(ip) {
                return CURL_SOCKET_BAD
            }
            return socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
        }, "CURLOPT_OPENSOCKETFUNCTION")
        try set(CURLOPT_PREREQDATA, pointer: context, "CURLOPT_PREREQDATA")
        try check(ccurl_easy_setopt_prereqfn(handle, CURLOPT_PREREQFUNCTION) { context, primaryIP, _, _, _ in
            let transfer = Unmanaged<EasyTransfer>.fromOpaque(context!).takeUnretainedValue()
            // No parsable address (a Unix socket, say) is nothing the policy speaks of.
            guard let primaryIP, let ip = IPAddress(String(cString: primaryIP)) else { return Int32(CURL_PREREQFUNC_OK) }
            return transfer.admits(ip) ? Int32(CURL_PREREQFUNC_OK) : Int32(CURL_PREREQFUNC_ABORT)
        }, "CURLOPT_PREREQFUNCTION")
    }

    /// `AddressPolicy` for the URL curl is on now (the current redirect hop) and `address`.
    /// Through a proxy (from the environment, as libcurl reads it) `address` is the proxy's,
    /// and the proxy resolves names itself: then only a URL whose host is an address is judged,
    /// by that address.
    private func admits(_ address: IPAddress) -> Bool {
        let url = (try? string(CURLINFO_EFFECTIVE_URL)) ?? request.url
        var address = address
        if proxyFromEnvironment {
            guard let host = WebOrigin(url: url)?.host, let literal = IPAddress(host) else { return true }
            address = literal
        }
        var scopeURL: String?
        if case .sameOriginAs(let own) = request.internalScope { scopeURL = own }
        guard let range = AddressPolicy.refusal(address: address, url: url, scope: internalOrigin, scopeURL: scopeURL,
                                                allowInternal: allowInternal) else {
            return true
        }
        refused = (url, address, range)
        return false
    }

    // MARK: Callbacks

    /// Keeps decoded body bytes; false (abort) once they would pass the limit.
    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        decodedBytesSeen += bytes.count
        if let wanted = request.keepFirstBytes, body.count + bytes.count >= wanted {
            // Enough: keep the prefix and stop; `result` turns this stop into a success.
            body.append(contentsOf: bytes.prefix(max(0, wanted - body.count)))
            abort = .prefixKept
            return false
        }
        guard body.count + bytes.count <= maxBodyBytes else {
            abort = .bodyTooLarge
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Body bytes on the wire so far (before decoding); false (abort) past the limit. Catches
    /// a body with no Content-Length that MAXFILESIZE cannot refuse up front.
    private func progress(wireBytes: Int) -> Bool {
        guard wireBytes <= maxWireBytes else {
            abort = .wireTooLarge
            return false
        }
        return true
    }

    private func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        switch HeaderLine.read(bytes) {
        case .status(let status):
            inInformational = (100..<200).contains(status)
            if !inInformational { statuses.append(status) }
            headers = HTTPHeaders()
        case .ignored:
            break
        case .continuation(let more):
            if !inInformational { headers.appendToLast(more) }
        case let .field(name, value):
            guard !inInformational else { return }
            headers.append(name: name, value: value)
            if name.lowercased() == "location", let status = statuses.last, (300..<400).contains(status) {
                lastLocation = value
            }
        }
    }

    // MARK: Results

    /// The response, or the error, of a transfer curl reported done with `code`.
    func result(_ code: CURLcode, limits: FetchLimits) -> Result<FetchResponse, FetchError> {
        if code != CURLE_OK && abort != .prefixKept {
            switch abort {
            case .bodyTooLarge: return .failure(.bodyTooLarge(limit: maxBodyBytes, onTheWire: false))
            case .wireTooLarge: return .failure(.bodyTooLarge(limit: maxWireBytes, onTheWire: true))
            case .prefixKept, nil: break
            }
            if let refused {
                return .failure(.internalAddressRefused(url: refused.url, address: refused.address.description,
                                                        range: refused.range.rawValue))
            }
            // Connected means TCP, and for https the TLS handshake too, were done.
            let tcp = ((try? offset(CURLINFO_CONNECT_TIME_T)) ?? 0) > 0
            let tls = ((try? offset(CURLINFO_APPCONNECT_TIME_T)) ?? 0) > 0
            let connected = tcp && (tls || !request.url.lowercased().hasPrefix("https:"))
            // A refused redirect ends with the redirect response as the last one seen.
            let redirected = statuses.last.map { (300..<400).contains($0) } ?? false
            var detail = String(cString: errorBuffer)
            if detail.isEmpty { detail = String(cString: ccurl_easy_strerror(code)) }
            let failure = CurlFailure(code: code, detail: detail, url: (try? string(CURLINFO_EFFECTIVE_URL)) ?? request.url,
                                      osErrno: (try? long(CURLINFO_OS_ERRNO)) ?? 0,
                                      neverConnected: !connected,
                                      lastLocation: redirected ? lastLocation : nil)
            return .failure(.from(failure, limits: limits))
        }
        do throws(FetchError) {
            var status = try long(CURLINFO_RESPONSE_CODE)
            if isFile && status == 0 { status = 200 }
            let finalURL = try string(CURLINFO_EFFECTIVE_URL) ?? request.url
            let hops = statuses.dropLast()
            let permanent = !hops.isEmpty && hops.allSatisfy { $0 == 301 || $0 == 308 }
            let version: String
            switch try long(CURLINFO_HTTP_VERSION) {
            case Int(CURL_HTTP_VERSION_1_0): version = "1.0"
            case Int(CURL_HTTP_VERSION_1_1): version = "1.1"
            case Int(CURL_HTTP_VERSION_2_0): version = "2"
            case Int(CURL_HTTP_VERSION_3): version = "3"
            default: version = ""
            }
            let micro = { (info: CURLINFO) throws(FetchError) -> Double in Double(try self.offset(info)) / 1e6 }
            let timing = FetchTiming(queued: queuedSeconds, nameLookup: try micro(CURLINFO_NAMELOOKUP_TIME_T),
                                     connect: try micro(CURLINFO_CONNECT_TIME_T),
                                     tlsHandshake: try micro(CURLINFO_APPCONNECT_TIME_T),
                                     firstByte: try micro(CURLINFO_STARTTRANSFER_TIME_T),
                                     total: try micro(CURLINFO_TOTAL_TIME_T))
            return .success(FetchResponse(
                status: status, finalURL: finalURL, permanentRedirect: permanent ? finalURL : nil,
                redirectCount: try long(CURLINFO_REDIRECT_COUNT), headers: headers,
                body: body, wireBytes: Int(try offset(CURLINFO_SIZE_DOWNLOAD_T)), httpVersion: version,
                newConnections: try long(CURLINFO_NUM_CONNECTS), timing: timing))
        } catch {
            return .failure(error)
        }
    }

    /// Body bytes received on the wire (valid after a failure too).
    var wireBytesReceived: Int { (try? offset(CURLINFO_SIZE_DOWNLOAD_T)).map(Int.init) ?? 0 }

    var connectionsOpened: Int { (try? long(CURLINFO_NUM_CONNECTS)) ?? 0 }

    // MARK: Typed wrappers, each checked

    /// `call` is made only on failure (see the multi handle's `check`).
    private func check(_ code: CURLcode, _ call: @autoclosure () -> String) throws(FetchError) {
        guard code == CURLE_OK else {
            throw code == CURLE_OUT_OF_MEMORY ? .outOfMemory
                : .setup(call: call(), detail: String(cString: ccurl_easy_strerror(code)))
        }
    }

    private func set(_ option: CURLoption, _ value: Int, _ name: String) throws(FetchError) {
        try check(ccurl_easy_setopt_long(handle, option, value), name)
    }

    private func set(_ option: CURLoption, string value: String, _ name: String) throws(FetchError) {
        try check(ccurl_easy_setopt_str(handle, option, value), name)  // curl copies the string
    }

    private func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer, _ name: String) throws(FetchError) {
        try check(ccurl_easy_setopt_ptr(handle, option, value), name)
    }

    private func long(_ info: CURLINFO) throws(FetchError) -> Int {
        var value = 0
        try check(ccurl_easy_getinfo_long(handle, info, &value), "curl_easy_getinfo(\(info.rawValue))")
        return value
    }

    private func offset(_ info: CURLINFO) throws(FetchError) -> Int64 {
        var value: curl_off_t = 0
        try check(ccurl_easy_getinfo_off(handle, info, &value), "curl_easy_getinfo(\(info.rawValue))")
        return Int64(value)
    }

    private func string(_ info: CURLINFO) throws(FetchError) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        try check(ccurl_easy_getinfo_str(handle, info, &value), "curl_easy_getinfo(\(info.rawValue))")
        return value.map { String(cString: $0) }
    }
}
