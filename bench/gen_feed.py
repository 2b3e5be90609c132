#!/usr/bin/env python3
"""Deterministic generator of one big, realistic RSS 2.0 feed (stdlib only).

Usage: gen_feed.py OUT --mb 20 [--seed 1] [--content 0.5] [--newest EPOCH]
       gen_feed.py 'DIR/f%d.rss' --many N --mb 0.06 --seed S --newest EPOCH --spread-hours H

Writes OUT (streamed, never held in memory) and prints one line to stdout:
    items=N bytes=B
The newest item is dated --newest (seconds since 1970; default 2024-06-01 12:00 UTC), the
others 20-40 minutes apart before it. --many N writes N distinct feeds instead (OUT a pattern
with %d: 0..N-1), feed i seeded S * 1000 + i, its newest item up to --spread-hours before
--newest: what a poll of N feeds of one site network brings (bench/scale.sh's timed updates).
What an item has (all links on reserved *.example.test hosts):
  - a title with XML entities (&amp; &lt; &#8217; ...) and non-ASCII (é, —, 東京, emoji)
  - link, guid (permalink or urn:uuid), pubDate in RFC 822 with various zones, dc:creator,
    0-3 categories
  - a description holding HTML (paragraphs, inline links, emphasis, code, an inline image,
    lists, blockquotes, HTML entities such as &nbsp; &mdash; &hellip; that only HTML knows),
    either escaped (&lt;p&gt;...) or in a CDATA section
  - content:encoded (a longer HTML body) on a share of the items (--content), CDATA mostly
  - media:thumbnail on ~60% and an enclosure on ~25% of the items
Same seed + options => byte-identical output.
"""
import argparse
import datetime as dt
import random
import sys
from email.utils import format_datetime
from xml.sax.saxutils import escape

BASE_TIME = dt.datetime(2024, 6, 1, 12, 0, 0, tzinfo=dt.timezone.utc)
SITE = "https://bench.example.test"

WORDS = """the of and to in is for on that with as by this from at are be it an was or
have has not but which their more can will about new one all also been after first when
other data release update server client network support performance memory parser feed
article post version system security patch kernel build test library design open source
community project developer user team report week today review guide notes change log
issue bug fix feature cloud storage database query index cache thread async runtime
compiler swift rust python linux candidate stable beta roadmap interview podcast episode
video photo travel recipe garden weather market economy policy climate energy science
research study health music film book history city river mountain coffee morning evening
weekend summer winter spring autumn""".split()
# Non-ASCII words (raw UTF-8 in the document).
UNICODE = ["café", "naïve", "Zürich", "São Paulo", "Kraków", "über", "—", "“quoted”",
           "it’s", "…", "東京", "Ελλάδα", "Москва", "emoji 🚀", "½", "€5", "señor", "façade"]
# Pieces of title text that need XML escaping or are character references.
TITLE_BITS = ["Q&A:", "Tom & Jerry", "<T>", "AT&T", "x < y", "\"quoted\"", "it's",
              "&#8217;", "&#x2014;", "&#233;t&#233;"]
# Entities inside the HTML bodies: the named ones are HTML-only (the XML layer must pass them
# through escaped, the HTML layer must resolve them).
HTML_ENTITIES = ["&nbsp;", "&mdash;", "&hellip;", "&amp;", "&rsquo;", "&lt;T&gt;", "&eacute;",
                 "&quot;", "&copy;", "&#8217;", "&#x1F600;", "&laquo;", "&raquo;", "&trade;"]
AUTHORS = ["Alice Martin", "Bob Nguyen", "Chloé Dubois", "Dmitri Ivanov", "Emma Schmidt",
           "Farah Khan", "George Li", "Hana Sato", "Ivan Petrov", "Julia Rossi",
           "Kofi Mensah", "Lena Berg", "Åsa Lindqvist", "Nuño Pérez"]
ZONES = [0, 0, 0, -300, -240, 60, 120, 330, -480, 540]  # minutes east of UTC


def cap(s):
    return s[:1].upper() + s[1:]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def words(self, lo, hi):
        r = self.r
        w = r.choices(WORDS, k=r.randint(lo, hi))
        if r.random() < 0.5:
            w[r.randrange(len(w))] = r.choice(UNICODE)
        return w

    def title(self):
        """Plain-text title (escape() happens at write time), with entities and non-ASCII."""
        r = self.r
        w = self.words(4, 11)
        if r.random() < 0.4:
            w.insert(r.randrange(len(w) + 1), r.choice(TITLE_BITS))
        return cap(" ".join(w))

    def paragraph(self):
        r = self.r
        w = self.words(25, 75)
        for _ in range(r.randint(0, 3)):  # inline markup
            i = r.randrange(len(w))
            tag = r.choice(("a", "a", "em", "strong", "code"))
            if tag == "a":
                w[i] = '<a href="%s/%s/%d.html">%s</a>' % (SITE, r.choice(WORDS), r.randrange(10**6), w[i])
            else:
                w[i] = "<%s>%s</%s>" % (tag, w[i], tag)
        for _ in range(r.choice((0, 1, 1, 2))):
            w.insert(r.randrange(len(w) + 1), r.choice(HTML_ENTITIES))
        return "<p>%s.</p>" % cap(" ".join(w))

    def html(self, n_par):
        r = self.r
        out = []
        for p in range(n_par):
            out.append(self.paragraph())
            if p == 0 and r.random() < 0.6:
                src = (SITE + "/img/%d.jpg" % r.randrange(10**6)) if r.random() < 0.7 \
                    else "/img/%d.png" % r.randrange(10**5)
                out.append('<p><img src="%s" alt="%s" width="640" height="360"></p>' % (src, r.choice(WORDS)))
        if r.random() < 0.2:
            out.append("<ul><li>%s</li><li>%s</li></ul>" % (title_xml(self.title()), title_xml(self.title())))
        if r.random() < 0.1:
            out.append("<blockquote><p>%s</p></blockquote>" % title_xml(self.title()))
        if r.random() < 0.05:
            out.append("<pre><code>if (a &lt; b &amp;&amp; c) { return; }</code></pre>")
        return "\n".join(out)

    def field(self, html, cdata_p):
        """HTML inside an XML element: a CDATA section or escaped text."""
        if self.r.random() < cdata_p:
            return "<![CDATA[%s]]>" % html.replace("]]>", "]]]]><![CDATA[>")
        return escape(html)


def title_xml(t):
    """Escape a title but keep the character references in TITLE_BITS as references."""
    return escape(t).replace("&amp;#", "&#")


def item(g, i, content_share, newest):
    r = g.r
    t = newest - dt.timedelta(minutes=23 * i + r.randrange(20))
    link = "%s/%d/%02d/%s-%d.html" % (SITE, t.year, t.month, r.choice(WORDS), i)
    out = ["<item>\n<title>%s</title>\n<link>%s</link>\n" % (title_xml(g.title()), link)]
    if r.random() < 0.9:
        if r.random() < 0.5:
            out.append('<guid isPermaLink="true">%s</guid>\n' % link)
        else:
            out.append('<guid isPermaLink="false">urn:uuid:%032x</guid>\n' % r.getrandbits(128))
    off = r.choice(ZONES)
    date = format_datetime(t, usegmt=True) if off == 0 else \
        format_datetime(t.astimezone(dt.timezone(dt.timedelta(minutes=off))))
    out.append("<pubDate>%s</pubDate>\n<dc:creator>%s</dc:creator>\n" % (date, escape(r.choice(AUTHORS))))
    for _ in range(r.randint(0, 3)):
        out.append("<category>%s</category>\n" % r.choice(WORDS))
    out.append("<description>%s</description>\n" % g.field(g.html(r.randint(1, 3)), 0.35))
    if r.random() < content_share:
        out.append("<content:encoded>%s</content:encoded>\n" % g.field(g.html(r.randint(3, 9)), 0.7))
    if r.random() < 0.6:
        out.append('<media:thumbnail url="%s/thumb/%d.jpg" width="320" height="180"/>\n'
                   % (SITE, r.randrange(10**6)))
    if r.random() < 0.25:
        kind = r.choice((("mp3", "audio/mpeg"), ("mp4", "video/mp4"), ("m4a", "audio/mp4")))
        out.append('<enclosure url="%s/media/ep%d.%s" length="%d" type="%s"/>\n'
                   % (SITE, i, kind[0], r.randrange(10**6, 10**9), kind[1]))
    out.append("</item>\n")
    return "".join(out)


def head(g, newest):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"'
            ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/"'
            ' xmlns:atom="http://www.w3.org/2005/Atom">\n<channel>\n'
            "<title>%s</title>\n<link>%s/</link>\n" % (title_xml(g.title()), SITE) +
            '<atom:link href="%s/feed.rss" rel="self" type="application/rss+xml"/>\n' % SITE +
            "<description>%s</description>\n<language>en-us</language>\n" % title_xml(g.title()) +
            "<lastBuildDate>%s</lastBuildDate>\n<generator>feeds bench/gen_feed.py</generator>\n"
            % format_datetime(newest, usegmt=True) +
            "<image><url>%s/logo.png</url><title>logo</title><link>%s/</link></image>\n" % (SITE, SITE))


TAIL = "</channel>\n</rss>\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--mb", type=float, default=20.0, help="target size in MB (1e6 bytes)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--content", type=float, default=0.5, help="share of items with content:encoded")
    ap.add_argument("--newest", type=int, help="the newest item's date, seconds since 1970")
    ap.add_argument("--many", type=int, help="write this many distinct feeds (OUT a pattern with %%d)")
    ap.add_argument("--spread-hours", type=float, default=0.0, help="with --many: newest items spread over this")
    a = ap.parse_args()
    newest = BASE_TIME if a.newest is None else dt.datetime.fromtimestamp(a.newest, dt.timezone.utc)
    if a.many is None:
        n, size = write(a.out, a.seed, a.mb, a.content, newest)
        print("items=%d bytes=%d" % (n, size))
        return
    items, total = 0, 0
    for i in range(a.many):
        seed = a.seed * 1000 + i
        feed_newest = newest - dt.timedelta(minutes=random.Random(seed).randrange(int(a.spread_hours * 60) + 1))
        n, size = write(a.out % i, seed, a.mb, a.content, feed_newest)
        items += n
        total += size
    print("items=%d bytes=%d" % (items, total))


def write(out, seed, mb, content, newest):
    """One feed of about `mb` MB, its newest item dated `newest`: its item count and size."""
    g = Gen(seed)
    target = int(mb * 1e6)
    tail = TAIL.encode()
    n = 0
    with open(out, "wb") as f:
        data = head(g, newest).encode()
        f.write(data)
        size = len(data)
        while size + len(tail) < target:
            data = item(g, n, content, newest).encode()
            f.write(data)
            size += len(data)
            n += 1
        f.write(tail)
        size += len(tail)
    return n, size


if __name__ == "__main__":
    sys.exit(main())
