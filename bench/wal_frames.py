#!/usr/bin/env python3
"""Which b-trees a run writes to SQLite's write-ahead log, and how often: where an update's
log writes go (issue 21: the cost a card grows with the database because the same index pages
are written again at every commit).

Usage:
  strace -f -s 8 -x -e trace=openat,pwrite64,pread64 -o TRACE feeds --home H update
  python3 bench/wal_frames.py TRACE H/feeds.db

Each log frame is written as a 24-byte header (its first four bytes: the page number, big
endian) and then the page; the header's page number is mapped to its table or index by
SQLite's dbstat (read after the run, so pages the run added are named too). Prints, per
b-tree, the frames written, the distinct pages, frames a page (the commits that rewrote it),
and the pages read back from the database file.
"""
import collections
import re
import sqlite3
import sys

trace, database = sys.argv[1], sys.argv[2]
names = {}
fds = {}
frames, reads = collections.Counter(), collections.Counter()
opened = re.compile(r'openat\(AT_FDCWD, "([^"]+)".*= (\d+)$')
io = re.compile(r'(pwrite64|pread64)\((\d+), "((?:\\x[0-9a-f]{2})+)"\.*, (\d+), (\d+)\)')
# With -f, strace splits a call that another thread interrupted into "call(args <unfinished
# ...>" and "<... call resumed>) = N" lines of the same pid: joined here before matching.
pending = {}
with open(trace) as lines:
    for line in lines:
        line = line.rstrip("\n")
        pid = line.split(" ", 1)[0]
        if line.endswith("<unfinished ...>"):
            pending[pid] = line[: -len("<unfinished ...>")].rstrip()
            continue
        resumed = re.search(r"<\.\.\. \w+ resumed>(.*)$", line)
        if resumed:
            line = pending.pop(pid, "") + resumed.group(1)
        m = opened.search(line)
        if m:
            fds[m.group(2)] = m.group(1)
            continue
        m = io.search(line)
        if not m:
            continue
        path = fds.get(m.group(2), "")
        if path == database + "-wal" and m.group(1) == "pwrite64" and m.group(4) == "24":
            header = bytes(int(x, 16) for x in m.group(3).split("\\x")[1:])
            frames[int.from_bytes(header[:4], "big")] += 1
        elif path == database and m.group(1) == "pread64":
            reads[int(m.group(5)) // int(m.group(4)) + 1] += 1

db = sqlite3.connect("file:%s?mode=ro" % database, uri=True)
for page, name in db.execute("SELECT pageno, name FROM dbstat"):
    names[page] = name
by_frames, by_pages, by_reads = collections.Counter(), collections.Counter(), collections.Counter()
for page, count in frames.items():
    by_frames[names.get(page, "?")] += count
    by_pages[names.get(page, "?")] += 1
for page, count in reads.items():
    by_reads[names.get(page, "?")] += count
print("log frames %d over %d pages; database pages read %d" % (sum(frames.values()), len(frames), sum(reads.values())))
print("%-32s %8s %7s %9s %7s" % ("b-tree", "frames", "pages", "frames/pg", "reads"))
for name, count in by_frames.most_common():
    print("%-32s %8d %7d %9.1f %7d" % (name, count, by_pages[name], count / by_pages[name], by_reads[name]))
