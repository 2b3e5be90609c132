#!/usr/bin/env python3
"""Writes a small feed whose items have pictures, and the pictures, for the browser test.

Usage: sample_site.py DIR BASE_URL
DIR gets pics.rss and img/*.png (gradients drawn here, so nothing is downloaded); the feed's
image URLs point at BASE_URL (a loopback server serving DIR), the way a real feed's images
point at the web.
"""
import os, struct, sys, zlib
from datetime import datetime, timedelta, timezone

def png(path, w, h, c1, c2):
    rows = b""
    for y in range(h):
        rows += b"\0" + bytes(int(c1[i] + (c2[i] - c1[i]) * (x + y) / (w + h)) for x in range(w) for i in range(3))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))

def main():
    out, base = sys.argv[1], sys.argv[2].rstrip("/")
    os.makedirs(os.path.join(out, "img"), exist_ok=True)
    colors = [((14, 116, 144), (250, 204, 21)), ((190, 24, 93), (251, 146, 60)), ((21, 128, 61), (165, 243, 252)),
              ((67, 56, 202), (244, 114, 182)), ((30, 41, 59), (148, 163, 184))]
    titles = ["Harbour lights at dusk", "A field guide to autumn colours", "Green roofs, measured",
              "Night trains are back", "Granite, slowly"]
    now = datetime.now(timezone.utc)
    items = []
    for i, (title, (c1, c2)) in enumerate(zip(titles, colors)):
        png(os.path.join(out, "img", f"p{i}.png"), 320, 180, c1, c2)
        date = (now - timedelta(hours=3 + 7 * i)).strftime("%a, %d %b %Y %H:%M:%S +0000")
        items.append(f"""<item><guid>pic-{i}</guid><title>{title}</title><link>https://photos.example.org/{i}</link>
<description>&lt;p&gt;Photo essay number {i + 1}: a few words about {title.lower()}, and a picture.&lt;/p&gt;</description>
<media:thumbnail url="{base}/img/p{i}.png"/><pubDate>{date}</pubDate></item>""")
    # A long post (a whole post to read): a picture from the cache, one that is not cached (a
    # link), a list and a quote.
    long = (f"&lt;p&gt;Walking the coast from the harbour to the old lighthouse takes a morning. "
            f"{'The path climbs, turns and drops again to the water. ' * 6}&lt;/p&gt;"
            f"&lt;p&gt;&lt;img src=\"{base}/img/p2.png\" alt=\"The harbour from the cliff\" width=\"320\" height=\"180\"&gt;&lt;/p&gt;"
            "&lt;ul&gt;&lt;li&gt;Start early&lt;/li&gt;&lt;li&gt;Take water&lt;/li&gt;&lt;li&gt;Mind the tide&lt;/li&gt;&lt;/ul&gt;"
            "&lt;blockquote&gt;The sea is the same everywhere; the coast is not.&lt;/blockquote&gt;"
            "&lt;p&gt;&lt;img src=\"https://photos.example.org/not-cached.jpg\" alt=\"The lighthouse\"&gt;&lt;/p&gt;")
    items.append(f"""<item><guid>pic-walk</guid><title>A walk along the coast</title><link>https://photos.example.org/walk</link>
<description>{long}</description><media:thumbnail url="{base}/img/p3.png"/>
<pubDate>{(now - timedelta(hours=2)).strftime("%a, %d %b %Y %H:%M:%S +0000")}</pubDate></item>""")
    # One image URL that answers with an HTML error page: refused, shown as the placeholder.
    items.append(f"""<item><guid>pic-broken</guid><title>Broken picture</title><link>https://photos.example.org/x</link>
<description>The image of this card is an HTML error page.</description>
<media:thumbnail url="{base}/pics.rss"/><pubDate>{(now - timedelta(hours=40)).strftime("%a, %d %b %Y %H:%M:%S +0000")}</pubDate></item>""")
    with open(os.path.join(out, "pics.rss"), "w") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">'
                "<channel><title>Photo essays</title><link>https://photos.example.org/</link>" + "".join(items) + "</channel></rss>\n")

main()
