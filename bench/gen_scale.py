#!/usr/bin/env python3
"""Deterministic generator of a big subscription list's history (stdlib only), for bench/scale.sh.

Usage: gen_scale.py OUT --cards 1000000 [--sources 5000] [--seed 1] [--now EPOCH (default: today 00:00 UTC)]

Writes OUT/www/fN.rss (one RSS 2.0 file per source) and OUT/sources (the sources file, paths
relative to OUT) such that `feeds update --all` in OUT saves --cards cards. Prints one line:
    sources=N cards=C bytes=B rare=WORD rare_cards=K phrase="A B" common=WORD
What feeds then stores is what feeds itself makes of these files: the generator writes feeds,
never database rows (scale.sh then only ages the timestamps and read flags by SQL, see there).

The shape of a big list, years of it:
  - sources of very different sizes (a Zipf-like spread: a few with thousands of items, most
    with a hundred or two, each at most 5,000, the default max-items), names on most, 0-2 tags
    out of 24 on each (some shared by hundreds of sources);
  - dates spread over up to six years back from --now (a busy source's items weeks apart
    or minutes apart), 1% undated, some with only an updated date;
  - titles of 3-14 words, descriptions of ~150 bytes to ~8 KB of HTML (log-normal, median
    ~900), paragraphs, links, emphasis; words drawn Zipf-wise from 40,000 made-up words and a
    few hundred English ones, so a search finds common words in most cards and the tail in a
    handful; one planted rare word in exactly `rare_cards` cards and a planted phrase in ~0.5%;
  - links on every item, guids on ~70% (the rest are keyed by link), authors on ~60%,
    a picture (media:thumbnail) on ~30%, an audio enclosure on ~4% (podcasts) and an image
    enclosure on ~3%.
Same seed and options => byte-identical output.
"""
import argparse
import bisect
import itertools
import math
import os
import random
import sys
import time
from email.utils import formatdate
from xml.sax.saxutils import escape

ENGLISH = """the of and to in is for on that with as by this from at are be it an was or have has not
but which their more can will about new one all also been after first when other data release
update server client network support performance memory parser feed article post version system
security patch kernel build test library design open source community project developer user team
report week today review guide change log issue bug fix feature cloud storage database query index
cache thread runtime compiler linux stable beta roadmap interview podcast episode video photo travel
recipe garden weather market economy policy climate energy science research study health music film
book history city river mountain coffee morning evening weekend summer winter spring autumn school
election council budget housing transport railway airport football league season player coach match
album concert festival museum gallery theatre novel poetry author editor newsletter launch startup
funding product device phone laptop camera battery screen chip browser privacy encryption password
outage incident migration backup release notes""".split()
TAGS = ["news", "tech", "linux", "science", "sport", "music", "film", "books", "food", "travel",
        "politics", "economy", "climate", "health", "security", "dev", "swift", "rust", "python",
        "podcasts", "photo", "local", "world", "blogs"]
FIRST = ["Alice", "Bob", "Chloé", "Dmitri", "Emma", "Farah", "George", "Hana", "Ivan", "Julia",
         "Kofi", "Lena", "Åsa", "Nuño", "Olga", "Pablo", "Quinn", "Rosa", "Sven", "Tomás"]
LAST = ["Martin", "Nguyen", "Dubois", "Ivanov", "Schmidt", "Khan", "Li", "Sato", "Petrov",
        "Rossi", "Mensah", "Berg", "Lindqvist", "Pérez", "Novak", "Silva", "Kim", "Okafor"]
RARE = "quixotrelliph"           # the planted rare word (in no other text)
PHRASE = ("harbour", "lanterns")  # the planted phrase; each word alone is common enough
YEAR = 365 * 86400


class Words:
    """A Zipf-ish vocabulary: English words first (the commonest), then made-up ones."""

    def __init__(self, r, count=40000):
        syll = ["ka", "lo", "mi", "ne", "sa", "tu", "ri", "po", "ve", "da", "xo", "qui", "zel",
                "bra", "tor", "fen", "gal", "mor", "pel", "sun", "vin", "dra", "kel", "nor"]
        made = set()
        while len(made) < count:
            made.add("".join(r.choice(syll) for _ in range(r.randint(2, 4))))
        self.words = ENGLISH + sorted(made)
        weights = [1.0 / (rank + 8) ** 1.05 for rank in range(len(self.words))]
        self.cum = list(itertools.accumulate(weights))
        self.r = r

    def take(self, k):
        return self.r.choices(self.words, cum_weights=self.cum, k=k)


class Gen:
    def __init__(self, seed, now):
        self.r = random.Random(seed)
        self.now = now
        self.w = Words(self.r)
        # A pool of sentences: descriptions are sentences drawn from it (fast), so a rare word of
        # the vocabulary's tail lands in the few cards that draw its sentence.
        self.sentences = [self.sentence() for _ in range(60000)]

    def sentence(self):
        words = self.w.take(self.r.randint(6, 22))
        s = " ".join(words)
        return s[:1].upper() + s[1:] + "."

    def paragraph(self, budget):
        r, out, n = self.r, [], 0
        while n < budget:
            s = r.choice(self.sentences)
            if r.random() < 0.06:
                s = '<a href="https://ref%d.example/%s">%s</a>' % (r.randrange(500), r.choice(self.w.words), s)
            elif r.random() < 0.06:
                s = "<em>%s</em>" % s
            out.append(s)
            n += len(s) + 1
        return "<p>" + " ".join(out) + "</p>"

    def description(self, extra):
        r = self.r
        size = int(min(8000, max(150, r.lognormvariate(math.log(900), 0.8))))
        paras, n = [], 0
        while n < size:
            p = self.paragraph(min(600, size - n))
            paras.append(p)
            n += len(p)
        if extra:  # first: the index takes the first 2 KB of a description's text only
            paras.insert(0, "<p>%s</p>" % extra)
        return "".join(paras)


def source_sizes(r, sources, cards):
    """Items per source: Zipf-like weights, at least 1 and at most 5,000 each, summing to cards."""
    weights = [1.0 / (i + 20) ** 0.9 for i in range(sources)]
    r.shuffle(weights)
    total = sum(weights)
    sizes = [max(1, min(5000, int(cards * w / total))) for w in weights]
    i = 0
    while sum(sizes) != cards:  # spread the rounding over the sources
        d = cards - sum(sizes)
        step = 1 if d > 0 else -1
        j = i % sources
        if 1 <= sizes[j] + step <= 5000:
            sizes[j] += step
        i += 1
    return sizes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--cards", type=int, default=1000000)
    ap.add_argument("--sources", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--now", type=int, default=int(time.time()) // 86400 * 86400)
    a = ap.parse_args()
    if a.sources < 1 or a.cards < a.sources or a.cards > a.sources * 5000:
        sys.exit("gen_scale: need sources <= cards <= 5000 x sources")
    g = Gen(a.seed, a.now)
    r = g.r
    sizes = source_sizes(r, a.sources, a.cards)
    # The rare word: in 40 cards whatever the size (fewer when there are fewer cards).
    rare_cards = min(40, a.cards)
    rare_at = set(r.sample(range(a.cards), rare_cards))
    os.makedirs(os.path.join(a.out, "www"), exist_ok=True)
    total_bytes, card_no = 0, 0
    lines = []
    for s, n in enumerate(sizes):
        host = "site%d.example" % s
        # Span of the source's history: up to six years; busy sources post more often but
        # their history may be just as long.
        span = int(YEAR * r.choice([0.05, 0.25, 0.5, 1, 2, 3, 4, 6]))
        has_guid = r.random() < 0.7
        podcast = r.random() < 0.04
        pictures = r.random() < 0.45
        name = " ".join(w.capitalize() for w in g.w.take(r.randint(1, 3)))
        buf = ['<?xml version="1.0" encoding="UTF-8"?>\n'
               '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" '
               'xmlns:media="http://search.yahoo.com/mrss/" '
               'xmlns:atom="http://www.w3.org/2005/Atom">\n<channel>\n'
               '<title>%s</title>\n<link>https://%s/</link>\n<description>%s</description>\n'
               % (escape(name + " Weekly"), host, escape(g.sentence()))]
        for i in range(n):
            age = span * i // max(1, n) + r.randrange(max(1, span // max(1, n)))
            date = a.now - 3600 - age
            extra = ""
            if card_no in rare_at:
                extra = "A %s appeared." % RARE
            elif r.random() < 0.005:
                extra = "The %s %s were lit." % PHRASE
            title = " ".join(g.w.take(r.randint(3, 14)))
            title = title[:1].upper() + title[1:]
            link = "https://%s/%d/%s-%d" % (host, 2026 - age // YEAR, "-".join(g.w.take(3)), i)
            item = ["<item>\n<title>%s</title>\n<link>%s</link>\n" % (escape(title), link)]
            if has_guid:
                item.append('<guid isPermaLink="false">urn:%s:%d</guid>\n' % (host, i))
            u = r.random()
            if u < 0.01:
                pass  # undated
            elif u < 0.04:
                item.append("<atom:updated>%s</atom:updated>\n" % time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(date)))
            else:
                item.append("<pubDate>%s</pubDate>\n" % formatdate(date, usegmt=True))
            if r.random() < 0.6:
                item.append("<dc:creator>%s %s</dc:creator>\n" % (r.choice(FIRST), r.choice(LAST)))
            item.append("<description>%s</description>\n" % escape(g.description(extra)))
            if pictures and r.random() < 0.65:
                item.append('<media:thumbnail url="https://img.%s/%d.jpg" width="640" height="360"/>\n' % (host, i))
            if podcast:
                item.append('<enclosure url="https://cdn.%s/ep%d.mp3" type="audio/mpeg" length="%d"/>\n'
                            % (host, i, r.randrange(5_000_000, 90_000_000)))
            elif r.random() < 0.03:
                item.append('<enclosure url="https://img.%s/full%d.jpg" type="image/jpeg" length="%d"/>\n'
                            % (host, i, r.randrange(50_000, 900_000)))
            item.append("</item>\n")
            buf.append("".join(item))
            card_no += 1
        buf.append("</channel>\n</rss>\n")
        data = "".join(buf).encode()
        total_bytes += len(data)
        with open(os.path.join(a.out, "www", "f%d.rss" % s), "wb") as f:
            f.write(data)
        k = r.random()
        tags = r.sample(TAGS[:6] if k < 0.5 else TAGS, r.choice([0, 1, 1, 2]))
        line = "www/f%d.rss" % s
        if r.random() < 0.8:
            line += ' name="%s"' % name
        if tags:
            line += " tags=" + ",".join(tags)
        lines.append(line)
    with open(os.path.join(a.out, "sources"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print('sources=%d cards=%d bytes=%d rare=%s rare_cards=%d phrase="%s %s" common=%s'
          % (a.sources, card_no, total_bytes, RARE, rare_cards, PHRASE[0], PHRASE[1], "update"))


if __name__ == "__main__":
    main()
