#!/usr/bin/python3
"""Differential check: `feeds parse --json` against python3-feedparser, item by item.

Usage: crosscheck.py FEEDS_BIN [--shared ../shared] [--feeds 200] [--seed 1] [--keep DIR]
       crosscheck.py FEEDS_BIN --files FILE... [--expectations ../shared/conformance/feedparser/expectations.jsonl]

Generates ../shared/bench's deterministic corpus (gen_corpus.py), parses every feed with both,
pairs items in document order and compares title, link, id and dates. JSON Feed, which Debian's
feedparser 6.0 cannot read, is compared with the JSON document itself. Item counts are also
checked against the corpus manifest. Each difference is
classified by kind; a kind listed in EXPLAINED is a documented choice (the card model differs
from feedparser's), every other kind counts as a failure (exit status 1).
Needs Debian's python3-feedparser (/usr/bin/python3). Offline: nothing is fetched.
"""
import argparse
import calendar
import collections
import datetime as dt
import html
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse

import feedparser  # Debian: python3-feedparser

# Kinds of difference that are documented choices, with the reason (README "Differences from
# feedparser"). Keep this list short and true: each entry is a promise the card contract makes.
EXPLAINED = {
    "link:from-id": "an Atom entry without a link: feedparser offers its id as the link; a card's "
                    "link comes from link elements only (an Atom id is a name: often tag: or urn:)",
    "theirs-contradicts-own-suite": "feedparser's answer contradicts its own test suite (the "
                                    "conformance expectations), which agrees with feeds",
    "feed-error-theirs": "feedparser raised an exception on the document (feeds read it); nothing to compare",
    "title:markup": "a title typed as HTML: feedparser keeps its markup and references "
                    "('XHTML <b>title</b>', '&#38;'); a card's title is plain text by contract "
                    "('XHTML title', '&')",
    "title:bare-ampersand": "an ill-formed bare '&' in a title: feedparser's loose parser makes '&A' an "
                            "entity and writes 'Q&A;'; feeds keeps the text as written, 'Q&A'",
}

WS = re.compile(r"\s+")
TAG = re.compile(r"<[^>]*>")


def norm_text(s):
    return WS.sub(" ", s or "").strip() or None


def iso_from_struct(t):
    if not t:
        return None
    return dt.datetime.fromtimestamp(calendar.timegm(t), dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def ours(bin_path, path):
    out = subprocess.run([bin_path, "parse", "--json", path], capture_output=True, timeout=60)
    if out.returncode != 0:
        return None, out.stderr.decode("utf-8", "replace").strip()
    return json.loads(out.stdout)["entries"], None


def json_feed_items(data):
    """The reference for JSON Feed, which Debian's feedparser cannot read: the document itself."""
    def iso(value):
        if not value:
            return None
        try:
            parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None  # the card contract: an unreadable date is null
        return parsed.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    items = []
    document = json.loads(data)
    base = document.get("home_page_url") or document.get("feed_url") or ""
    for item in document.get("items", []):
        # The contract's reading of JSON Feed: ids are strings (a number is written as one), links
        # are absolute (url resolved against home_page_url, else external_url).
        ident = item.get("id")
        link = item.get("url") or item.get("external_url")
        if link:
            link = urllib.parse.urljoin(base, link)
        items.append({"title": item.get("title"), "link": link, "id": None if ident is None else str(ident),
                      "published": iso(item.get("date_published")), "updated": iso(item.get("date_modified"))})
    return items


def theirs(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".json"):
        return json_feed_items(data)
    d = feedparser.parse(data)
    items = []
    for e in d.entries:
        items.append({
            "title": e.get("title"),
            "link": e.get("link"),
            "id": e.get("id"),
            # dict.get, not e.get: FeedParserDict answers "updated" with "published" when the
            # entry has no updated date of its own (a deprecated fallback of feedparser 6).
            "published": iso_from_struct(dict.get(e, "published_parsed")),
            "updated": iso_from_struct(dict.get(e, "updated_parsed")),
        })
    return items


def compare(a, b):
    """Differences between our card `a` and feedparser's entry `b`, as (kind, ours, theirs)."""
    diffs = []
    mine, other = norm_text(a.get("title")), norm_text(b["title"])
    if mine != other:
        # feedparser's "&A;" for a bare "&A" (see EXPLAINED); any other difference is a failure.
        bare = mine and other and "&" in mine and re.sub(r"(&[A-Za-z][A-Za-z0-9]*);", r"\1", other) == mine
        markup = other and norm_text(html.unescape(TAG.sub("", other))) == mine
        kind = "title:bare-ampersand" if bare else "title:markup" if markup else "title"
        diffs.append((kind, a.get("title"), b["title"]))
    if (a.get("link") or None) != (b["link"] or None):
        from_id = not a.get("link") and b["link"] == b["id"]
        diffs.append(("link:from-id" if from_id else "link", a.get("link"), b["link"]))
    if (a.get("id") or None) != (b["id"] or None):
        kind = "id-missing-ours" if not a.get("id") else "id-missing-theirs" if not b["id"] else "id"
        diffs.append((kind, a.get("id"), b["id"]))
    # Dates: feedparser files dc:date and Atom's updated as "updated"; the card keeps published
    # and updated separately too. Compare each, then the date a reader sorts by.
    for field in ("published", "updated"):
        if a.get(field) != b[field]:
            diffs.append(("date-" + field, a.get(field), b[field]))
    return diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared"))
    ap.add_argument("--feeds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep")
    ap.add_argument("--files", nargs="*")
    ap.add_argument("--examples", type=int, default=3)
    ap.add_argument("--expectations", help="conformance expectations.jsonl: feedparser's own suite as referee")
    args = ap.parse_args()

    # The conformance expectations (feedparser's own test suite, as ../shared/conformance has it):
    # where feedparser disagrees with feeds and its suite sides with feeds, feedparser is wrong.
    suite = {}
    if args.expectations:
        root = os.path.dirname(args.expectations)
        with open(args.expectations) as f:
            for line in f:
                case = json.loads(line)
                for check in case.get("checks", []):
                    if check.get("op") == "eq":
                        key = os.path.realpath(os.path.join(root, case["file"]))
                        suite.setdefault(key, {})[check["path"]] = (check["value"],)
    manifest = {}
    if args.files:
        files = args.files
    else:
        scratch = None if args.keep else tempfile.TemporaryDirectory(prefix="crosscheck.")
        work = args.keep or scratch.name
        gen = os.path.join(args.shared, "bench", "gen_corpus.py")
        subprocess.run([sys.executable, gen, work, "--feeds", str(args.feeds), "--seed", str(args.seed),
                        "--big-mb", "1"], check=True, stdout=subprocess.DEVNULL)
        folder = os.path.join(work, "feeds")
        files = [os.path.join(folder, f) for f in sorted(os.listdir(folder))]
        with open(os.path.join(work, "manifest.json")) as f:
            manifest = {os.path.basename(e["path"]): e for e in json.load(f)["feeds"]}

    kinds = collections.Counter()
    examples = collections.defaultdict(list)
    items = feeds = 0
    for path in files:
        feeds += 1
        mine, error = ours(args.bin, path)
        try:
            other = theirs(path)
        except Exception as error:  # feedparser itself can raise on hostile input
            kinds["feed-error-theirs"] += 1
            examples["feed-error-theirs"].append((os.path.basename(path), None, repr(error)[:120]))
            continue
        if mine is None:
            kinds["feed-error-ours"] += 1
            examples["feed-error-ours"].append((os.path.basename(path), error, None))
            continue
        expected = manifest.get(os.path.basename(path))
        if expected and not expected["broken"] and expected["items"] != len(mine):
            kinds["item-count-manifest"] += 1
            examples["item-count-manifest"].append((os.path.basename(path), len(mine), expected["items"]))
        if len(mine) != len(other):
            kinds["item-count"] += 1
            examples["item-count"].append((os.path.basename(path), len(mine), len(other)))
        checks = suite.get(os.path.realpath(path), {})
        for index, (a, b) in enumerate(zip(mine, other)):
            items += 1
            for kind, x, y in compare(a, b):
                field = kind.split(":")[0].split("-")[-1] if kind.startswith("date-") else kind.split(":")[0]
                field = {"id-missing-ours": "id", "id-missing-theirs": "id"}.get(field, field)
                expected = checks.get(f"entries[{index}].{field}", ())
                if expected and expected[0] == x:
                    kind = "theirs-contradicts-own-suite"
                kinds[kind] += 1
                if len(examples[kind]) < args.examples:
                    examples[kind].append((os.path.basename(path), x, y))

    print(f"feeds compared: {feeds}, items compared: {items}")
    failed = 0
    if not kinds:
        print("no differences")
    for kind, n in kinds.most_common():
        reason = EXPLAINED.get(kind)
        status = "explained" if reason else "DIFFERENCE"
        if not reason:
            failed += n
        print(f"  {kind}: {n} ({status}{': ' + reason if reason else ''})")
        for where, x, y in examples[kind]:
            print(f"      {where}: feeds={x!r} feedparser={y!r}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
