#!/usr/bin/env python3
"""Deterministic generator of big JSON documents for the JSON bench (stdlib only).

Usage: gen_json.py OUT --shape SHAPE --mb 20 [--seed 1]

Writes OUT and prints one line to stdout: `values=N bytes=B` (N: JSON values in the document).
Shapes:
  feed           a realistic JSON Feed 1.1: items with HTML content, authors, tags, dates,
                 attachments, non-ASCII text and \\u escapes
  searxng        a realistic SearXNG `format=json` answer: results with title, url, content,
                 engines, positions, parsed_url, scores, thumbnails
  feed-nested    hostile: a JSON Feed whose items carry runs of nested arrays ([[[[]]]], ...)
  searxng-tiny   hostile: a SearXNG answer whose infobox holds millions of tiny values
                 ({"a":[]}, {}, [[]], 0, "", null)
Same seed + options => byte-identical output.
"""
import argparse
import json
import random
import sys

WORDS = """the of and to in is for on that with as by this from at are be it an was or
have has not but which their more can will about new one all also been after first when
data release update server client network support performance memory parser feed article
post version system security patch kernel build test library design open source community
project developer user team report week today review guide notes change log issue bug fix
feature cloud storage database query index cache thread async runtime compiler swift""".split()
UNICODE = ["café", "naïve", "Zürich", "São Paulo", "Kraków", "—", "“quoted”", "東京", "😀", "Ελλάδα"]


def words(rng, n):
    out = []
    for _ in range(n):
        out.append(rng.choice(UNICODE) if rng.random() < 0.05 else rng.choice(WORDS))
    return " ".join(out)


def feed_item(rng, i):
    body = "".join("<p>%s <a href=\"https://bench.example.test/%d\">%s</a> %s</p>" %
                   (words(rng, 30), i, words(rng, 3), words(rng, 25)) for _ in range(rng.randint(2, 8)))
    item = {
        "id": str(i) if rng.random() < 0.5 else "https://bench.example.test/posts/%d" % i,
        "url": "https://bench.example.test/posts/%d" % i,
        "title": words(rng, rng.randint(4, 12)).capitalize(),
        "content_html": body,
        "summary": words(rng, 20),
        "date_published": "2024-%02d-%02dT%02d:%02d:00+02:00" % (rng.randint(1, 12), rng.randint(1, 28),
                                                                 rng.randint(0, 23), rng.randint(0, 59)),
        "authors": [{"name": words(rng, 2).title(), "url": "https://bench.example.test/a/%d" % rng.randint(1, 99)}],
        "tags": [rng.choice(WORDS) for _ in range(rng.randint(0, 5))],
    }
    if rng.random() < 0.3:
        item["image"] = "https://bench.example.test/img/%d.png" % i
    if rng.random() < 0.25:
        item["attachments"] = [{"url": "https://bench.example.test/a/%d.mp3" % i, "mime_type": "audio/mpeg",
                                "size_in_bytes": rng.randint(1000, 90000000), "duration_in_seconds": rng.randint(60, 7200)}]
    return item


def searxng_result(rng, i):
    url = "https://r%d.bench.example.test/%s/%d" % (rng.randint(1, 500), rng.choice(WORDS), i)
    return {
        "url": url, "title": words(rng, rng.randint(4, 12)), "content": words(rng, rng.randint(20, 120)),
        "engine": rng.choice(["bing", "duckduckgo", "google", "qwant"]),
        "parsed_url": ["https", "r.bench.example.test", "/" + rng.choice(WORDS), "", "", ""],
        "template": "default.html", "engines": rng.sample(["bing", "duckduckgo", "google", "qwant", "brave"], 2),
        "positions": [rng.randint(1, 20) for _ in range(rng.randint(1, 3))],
        "publishedDate": None if rng.random() < 0.6 else "2024-06-%02dT10:00:00" % rng.randint(1, 28),
        "thumbnail": "" if rng.random() < 0.7 else "https://img.bench.example.test/%d.jpg" % i,
        "img_src": "", "score": rng.random() * 10, "category": "general", "priority": "",
    }


class Counter:
    def __init__(self):
        self.values = 0

    def count(self, v):
        self.values += 1
        if isinstance(v, dict):
            for k, x in v.items():
                self.values += 1  # the key
                self.count(x)
        elif isinstance(v, list):
            for x in v:
                self.count(x)


def write_realistic(out, rng, target, head, tail, make, counter):
    out.write(head)
    size, i = len(head) + len(tail), 0
    while size < target:
        item = make(rng, i)
        counter.count(item)
        text = (", " if i else "") + json.dumps(item, ensure_ascii=rng.random() < 0.2)
        out.write(text)
        size += len(text.encode())
        i += 1
    out.write(tail)


def write_hostile(out, rng, target, head, tail, atoms, counter):
    out.write(head)
    size, first = len(head) + len(tail), True
    chunk = []
    while size < target:
        a, n = rng.choice(atoms)
        text = ("" if first else ",") + a
        first = False
        chunk.append(text)
        size += len(text)
        counter.values += n
        if len(chunk) >= 4096:
            out.write("".join(chunk)); chunk = []
    out.write("".join(chunk))
    out.write(tail)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--shape", required=True, choices=["feed", "searxng", "feed-nested", "searxng-tiny"])
    ap.add_argument("--mb", type=float, default=20)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    target = int(a.mb * 1000 * 1000)
    c = Counter()
    with open(a.out, "w", encoding="utf-8") as out:
        if a.shape == "feed":
            head = '{"version": "https://jsonfeed.org/version/1.1", "title": "Bench JSON Feed", ' \
                   '"home_page_url": "https://bench.example.test/", "feed_url": "https://bench.example.test/feed.json", "items": ['
            c.values += 11
            write_realistic(out, rng, target, head, "]}\n", feed_item, c)
        elif a.shape == "searxng":
            head = '{"query": "bench", "number_of_results": 0, "results": ['
            c.values += 7
            write_realistic(out, rng, target, head, '], "answers": [], "corrections": [], "infoboxes": [], '
                            '"suggestions": [], "unresponsive_engines": []}\n', searxng_result, c)
        elif a.shape == "feed-nested":
            # One ordinary item, then items whose only field is a run of nested arrays.
            head = '{"version": "https://jsonfeed.org/version/1.1", "title": "Nested", "items": [' \
                   '{"id": "1", "title": "first", "url": "https://bench.example.test/1"}, {"id": "2", "x": ['
            c.values += 15
            atoms = [("[[[[[[[[]]]]]]]]", 8), ("[]", 1), ("[[]]", 2), ("[[],[[]]]", 4)]
            write_hostile(out, rng, target, head, "]}]}\n", atoms, c)
        else:
            head = '{"query": "tiny", "number_of_results": 1, "results": [{"url": "https://bench.example.test/", ' \
                   '"title": "one"}], "infoboxes": [{"attributes": ['
            c.values += 13
            atoms = [('{"a":[]}', 3), ('{"a":{}}', 3), ("{}", 1), ("[[]]", 2), ("0", 1), ('""', 1), ("null", 1)]
            write_hostile(out, rng, target, head, "]}]}\n", atoms, c)
    import os
    print("values=%d bytes=%d" % (c.values, os.path.getsize(a.out)))


if __name__ == "__main__":
    sys.exit(main())
