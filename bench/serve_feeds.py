#!/usr/bin/env python3
"""Loopback HTTP/1.1 server for the update bench (stdlib only).

Usage: serve_feeds.py ROOT --port-file FILE [--latency-ms 0] [--max-seconds 900] [--hosts 1]

Serves the files of ROOT on 127.0.0.1 (a free port, written to FILE) with keep-alive, ETag and
Last-Modified, answering If-None-Match / If-Modified-Since with 304, gzip when the client
accepts it (bodies compressed once, kept in memory), and --latency-ms of delay before every
response (the round trip of a distant server). Stops by itself after --max-seconds. With --log FILE each request is a line of FILE:
"ADDRESS PATH N", N the requests that address was answering at once counting this one.
With --hosts N the same files are served on 127.0.0.1 ... 127.0.0.N too (one port), so a client
sees N servers (per-host connection limits then apply per address, as with N real hosts).
With --address-prefix P the addresses are P1 ... PN instead (10.213.0.1 ...: addresses the
caller put on lo, which other network namespaces reach across a veth link; bench/workers.sh).
"""
import argparse, email.utils, gzip, http.server, os, socketserver, sys, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("root")
ap.add_argument("--port-file", required=True)
ap.add_argument("--latency-ms", type=float, default=0)
ap.add_argument("--max-seconds", type=float, default=900)
ap.add_argument("--hosts", type=int, default=1)
ap.add_argument("--log")
ap.add_argument("--address-prefix", default="127.0.0.")
args = ap.parse_args()
LOG = open(args.log, "a", buffering=1) if args.log else None
LOCK, ACTIVE = threading.Lock(), {}

STORE, BY_INODE = {}, {}
for name in os.listdir(args.root):
    path = os.path.join(args.root, name)
    st = os.stat(path)
    key = (st.st_dev, st.st_ino)  # hard links (the bench's copies of one document) compressed once
    if key not in BY_INODE:
        body = open(path, "rb").read()
        mtime = int(st.st_mtime)
        BY_INODE[key] = {"body": body, "gz": gzip.compress(body, 6, mtime=0),
                         "etag": '"%x-%x"' % (mtime, len(body)),
                         "lm": email.utils.formatdate(mtime, usegmt=True)}
    STORE["/" + name] = BY_INODE[key]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_GET(self):
        if LOG is None:
            return self.answer()
        host = self.connection.getsockname()[0]
        with LOCK:
            ACTIVE[host] = ACTIVE.get(host, 0) + 1
            LOG.write("%s %s %d\n" % (host, self.path, ACTIVE[host]))
        try:
            self.answer()
        finally:
            with LOCK:
                ACTIVE[host] -= 1

    def answer(self):
        if args.latency_ms:
            time.sleep(args.latency_ms / 1000)
        f = STORE.get(self.path.split("?")[0])
        if f is None:
            return self.reply(404, b"not found\n", {"Content-Type": "text/plain"})
        validators = {"ETag": f["etag"], "Last-Modified": f["lm"]}
        inm, ims = self.headers.get("If-None-Match"), self.headers.get("If-Modified-Since")
        if (inm and f["etag"] in [t.strip() for t in inm.split(",")]) or (not inm and ims == f["lm"]):
            return self.reply(304, b"", validators)
        headers = dict(validators, **{"Content-Type": "application/rss+xml; charset=utf-8"})
        body = f["body"]
        if "gzip" in (self.headers.get("Accept-Encoding") or ""):
            headers["Content-Encoding"] = "gzip"
            body = f["gz"]
        self.reply(200, body, headers)

    def reply(self, status, body, headers):
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status != 304:
            self.wfile.write(body)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 256


srv = Server((args.address_prefix + "1", 0), Handler)
port = srv.server_address[1]
for h in range(2, max(1, args.hosts) + 1):  # loopback only: 127.0.0.0/8 is all local on Linux
    extra = Server((args.address_prefix + str(h), port), Handler)
    threading.Thread(target=extra.serve_forever, daemon=True).start()
threading.Timer(args.max_seconds, lambda: os._exit(0)).start()
with open(args.port_file + ".tmp", "w") as out:
    out.write(str(srv.server_address[1]))
os.rename(args.port_file + ".tmp", args.port_file)
srv.serve_forever()
