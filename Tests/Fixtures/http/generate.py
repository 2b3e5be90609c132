#!/usr/bin/env python3
"""Regenerates the gzip fixtures the fetching tests serve (run from this folder).

small.rss.gz          small.rss compressed (gzip level 9, mtime 0, so the bytes are reproducible)
bomb-200MiB-zeros.gz  200 MiB of zeros compressed to about 200 KB: a gzip bomb the fetcher must stop early
"""
import gzip
import zlib

with open("small.rss", "rb") as f:
    small = f.read()
with open("small.rss.gz", "wb") as f:
    f.write(gzip.compress(small, 9, mtime=0))

c = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: gzip wrapper
zeros = bytes(1 << 20)
with open("bomb-200MiB-zeros.gz", "wb") as f:
    for _ in range(200):
        f.write(c.compress(zeros))
    f.write(c.flush())
