#!/usr/bin/env python3
"""Loopback HTTP/1.1 server for the update bench (stdlib only).

Usage: serve_feeds.py ROOT --port-file FILE [--port 0] [--latency-ms 0] [--max-seconds 900] [--hosts 1]

Serves the files of ROOT on 127.0.0.1 (a free port, written to FILE) with keep-alive, ETag and
Last-Modified, answering If-None-Match / If-Modified-Since with 304, gzip when the client
accepts it (bodies compressed once, kept in memory), and --latency-ms of delay before every
response (the round trip of a distant server). Stops by itself after --max-seconds. With --log FILE each request is a line of FILE:
"ADDRESS PATH N", N the requests that address was answering at once counting this one.
With --hosts N the same files are served on 127.0.0.1 ... 127.0.0.N too (one port), so a client
sees N servers (per-host connection limits then apply per address, as with N real hosts).
With --address-prefix P the addresses are P1 ... PN instead (10.213.0.1 ...: addresses the
caller put on lo, which other network namespaces reach across a veth link; bench/workers.sh).

Why one thread and an event loop: the server is the instrument, and it shares the machine's
cores with the tools it measures. The first version (a thread per connection and
http.server's header parsing) took 2.4 s of CPU for an all-304 pass of 5,000 feeds, more than
the tool under test, so that pass measured the server. Here a request costs a dictionary
lookup and one prepared answer, and the latency is a timer, not a sleeping thread.
"""
import argparse, email.utils, gzip, heapq, os, selectors, socket, sys, time

ap = argparse.ArgumentParser()
ap.add_argument("root")
ap.add_argument("--port-file", required=True)
ap.add_argument("--port", type=int, default=0)  # 0: a free one; a fixed one serves a kept home again
ap.add_argument("--latency-ms", type=float, default=0)
ap.add_argument("--max-seconds", type=float, default=900)
ap.add_argument("--hosts", type=int, default=1)
ap.add_argument("--log")
ap.add_argument("--address-prefix", default="127.0.0.")
args = ap.parse_args()
LOG = open(args.log, "a", buffering=1) if args.log else None
LATENCY = max(0.0, args.latency_ms / 1000)
MAX_HEAD = 64 * 1024  # a request head larger than this is refused (the bench's clients send < 1 KB)

STORE, BY_INODE = {}, {}
for name in os.listdir(args.root):
    path = os.path.join(args.root, name)
    st = os.stat(path)
    key = (st.st_dev, st.st_ino)  # hard links (the bench's copies of one document) prepared once
    if key not in BY_INODE:
        body = open(path, "rb").read()
        mtime = int(st.st_mtime)
        etag, lm = '"%x-%x"' % (mtime, len(body)), email.utils.formatdate(mtime, usegmt=True)
        validators = "ETag: %s\r\nLast-Modified: %s\r\n" % (etag, lm)
        # .rss (every bench corpus) as before; a JSON Feed as one, other XML with no charset
        # (the document's own declaration decides: tools/symbol-order.sh serves encodings).
        kind = {".json": "application/feed+json", ".xml": "application/xml", ".atom": "application/atom+xml"}.get(
            os.path.splitext(name)[1], "application/rss+xml; charset=utf-8")
        kind = "Content-Type: %s\r\n" % kind
        gz = gzip.compress(body, 6, mtime=0)
        BY_INODE[key] = {
            "etag": etag, "lm": lm,
            "304": ("HTTP/1.1 304 Not Modified\r\n" + validators + "\r\n").encode(),
            "200": ("HTTP/1.1 200 OK\r\n%s%sContent-Length: %d\r\n\r\n" % (validators, kind, len(body))).encode() + body,
            "gz": ("HTTP/1.1 200 OK\r\n%s%sContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n"
                   % (validators, kind, len(gz))).encode() + gz,
        }
    STORE["/" + name] = BY_INODE[key]
NOT_FOUND = b"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\nnot found\n"
BAD = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
ACTIVE = {}  # address -> requests being answered there (received, answer not yet written)


def answer(head):
    """(response bytes, keep the connection open) for one request head (bytes up to CRLFCRLF)."""
    lines = head.split(b"\r\n")
    parts = lines[0].split(b" ")
    if len(parts) != 3 or parts[0] not in (b"GET", b"HEAD"):
        return BAD, False
    headers = {}
    for line in lines[1:]:
        name, sep, value = line.partition(b":")
        if sep:
            headers[name.strip().lower()] = value.strip().decode("latin-1")
    keep = parts[2] == b"HTTP/1.1" and headers.get(b"connection", "").lower() != "close"
    f = STORE.get(parts[1].split(b"?")[0].decode("latin-1"))
    if f is None:
        return NOT_FOUND, keep
    inm, ims = headers.get(b"if-none-match"), headers.get(b"if-modified-since")
    if (inm and f["etag"] in [t.strip() for t in inm.split(",")]) or (not inm and ims == f["lm"]):
        return f["304"], keep
    whole = f["gz"] if "gzip" in headers.get(b"accept-encoding", "") else f["200"]
    if parts[0] == b"HEAD":
        whole = whole[: whole.index(b"\r\n\r\n") + 4]
    return whole, keep


class Connection:
    __slots__ = ("sock", "address", "inbuf", "out", "busy", "keep", "closed")

    def __init__(self, sock, address):
        self.sock, self.address = sock, address
        self.inbuf, self.out = bytearray(), None
        self.busy, self.keep, self.closed = False, True, False


SEL = selectors.DefaultSelector()
TIMERS, SEQ = [], [0]  # heap of (due, seq, connection, response, keep)


def close(c):
    if c.closed:
        return
    c.closed = True
    if c.busy:
        ACTIVE[c.address] -= 1
        c.busy = False
    try:
        SEL.unregister(c.sock)
    except (KeyError, ValueError):
        pass
    c.sock.close()


def next_request(c):
    """Start answering the next buffered request of c, if one is complete and none is in hand."""
    if c.busy or c.closed:
        return
    end = c.inbuf.find(b"\r\n\r\n")
    if end < 0:
        if len(c.inbuf) > MAX_HEAD:
            c.sock.send(BAD)
            close(c)
        return
    head = bytes(c.inbuf[:end])
    del c.inbuf[: end + 4]
    response, keep = answer(head)
    c.busy = True
    ACTIVE[c.address] = ACTIVE.get(c.address, 0) + 1
    if LOG is not None:
        path = head.split(b"\r\n", 1)[0].split(b" ")
        LOG.write("%s %s %d\n" % (c.address, path[1].decode("latin-1") if len(path) > 1 else "?",
                                  ACTIVE[c.address]))
    if LATENCY:
        SEQ[0] += 1
        heapq.heappush(TIMERS, (time.monotonic() + LATENCY, SEQ[0], c, response, keep))
    else:
        send(c, response, keep)


def send(c, response, keep):
    if c.closed:
        return
    c.keep = keep
    try:
        n = c.sock.send(response)
    except (BlockingIOError, InterruptedError):
        n = 0
    except OSError:
        return close(c)
    if n < len(response):
        c.out = memoryview(response)[n:]
        SEL.modify(c.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, c)
    else:
        finished(c)


def finished(c):
    """The answer in hand is written: count it done, close or go on with the next request."""
    c.out = None
    c.busy = False
    ACTIVE[c.address] -= 1
    if not c.keep:
        return close(c)
    next_request(c)


def on_readable(c):
    try:
        data = c.sock.recv(65536)
    except (BlockingIOError, InterruptedError):
        return
    except OSError:
        return close(c)
    if not data:
        return close(c)
    c.inbuf += data
    next_request(c)


def on_writable(c):
    try:
        n = c.sock.send(c.out)
    except (BlockingIOError, InterruptedError):
        return
    except OSError:
        return close(c)
    c.out = c.out[n:]
    if len(c.out) == 0:
        SEL.modify(c.sock, selectors.EVENT_READ, c)
        finished(c)


def listen(address, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((address, port))
    s.listen(1024)
    s.setblocking(False)
    SEL.register(s, selectors.EVENT_READ, None)
    return s


first = listen(args.address_prefix + "1", args.port)
port = first.getsockname()[1]
for h in range(2, max(1, args.hosts) + 1):  # loopback only: 127.0.0.0/8 is all local on Linux
    listen(args.address_prefix + str(h), port)
with open(args.port_file + ".tmp", "w") as out:
    out.write(str(port))
os.rename(args.port_file + ".tmp", args.port_file)

deadline = time.monotonic() + args.max_seconds
while True:
    now = time.monotonic()
    if now >= deadline:
        sys.exit(0)
    timeout = deadline - now
    if TIMERS:
        timeout = min(timeout, max(0.0, TIMERS[0][0] - now))
    for key, mask in SEL.select(timeout):
        if key.data is None:  # a listening socket: take every waiting connection
            while True:
                try:
                    sock, _ = key.fileobj.accept()
                except (BlockingIOError, InterruptedError):
                    break
                except OSError:
                    break
                sock.setblocking(False)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                c = Connection(sock, sock.getsockname()[0])
                SEL.register(sock, selectors.EVENT_READ, c)
            continue
        c = key.data
        if mask & selectors.EVENT_WRITE and c.out is not None:
            on_writable(c)
        if mask & selectors.EVENT_READ and not c.closed:
            on_readable(c)
    now = time.monotonic()
    while TIMERS and TIMERS[0][0] <= now:
        _, _, c, response, keep = heapq.heappop(TIMERS)
        send(c, response, keep)
