#!/usr/bin/env python3
"""Items kept when one item of a feed is broken, per class of breakage (issue 17).

Usage: breakage_kept.py FEEDS_BINARY [--items 9]

For each format (RSS 2.0, Atom 1.0, RDF) and each class, one breakage is injected into one
item (first, middle or last; document-level classes into the document), the feed is read with
`FEEDS parse --json` and the intact items found with their title, link and date are counted.
Prints one line per class: intact items kept / intact items, and whether the broken item was kept.
The same classes are in Tests/FeedParsingTests/BreakageRecoveryTests.swift. Standard library only.
"""
import json, subprocess, sys, tempfile, os

N = int(sys.argv[sys.argv.index("--items") + 1]) if "--items" in sys.argv else 9

def item(fmt, k, title=None, desc=None, extra_after="", before_title="", desc_raw=None):
    title = f"Item {k}" if title is None else title
    link = f"http://site.example/{k}"
    date_rss = f"Mon, {k + 1:02d} Jan 2024 10:00:00 GMT"
    date_iso = f"2024-01-{k + 1:02d}T10:00:00Z"
    d = desc_raw if desc_raw is not None else f"Body {k}" if desc is None else desc
    if fmt == "rss":
        return (f"<item>{before_title}<title>{title}</title><description>{d}</description>"
                f"<link>{link}</link><pubDate>{date_rss}</pubDate></item>{extra_after}\n")
    if fmt == "atom":
        return (f"<entry>{before_title}<title>{title}</title><summary type=\"html\">{d}</summary>"
                f"<link href=\"{link}\"/><id>{link}</id><updated>{date_iso}</updated></entry>{extra_after}\n")
    return (f"<item rdf:about=\"{link}\">{before_title}<title>{title}</title><description>{d}</description>"
            f"<link>{link}</link><dc:date>{date_iso}</dc:date></item>{extra_after}\n")

def document(fmt, items, prolog="<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"):
    if fmt == "rss":
        return prolog + "<rss version=\"2.0\"><channel><title>F</title><link>http://site.example/</link>\n" + "".join(items) + "</channel></rss>\n"
    if fmt == "atom":
        return prolog + "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>F</title><id>urn:f</id>\n" + "".join(items) + "</feed>\n"
    return (prolog + "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns=\"http://purl.org/rss/1.0/\""
            " xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel rdf:about=\"http://site.example/\"><title>F</title></channel>\n"
            + "".join(items) + "</rdf:RDF>\n")

END = {"rss": "</item>", "atom": "</entry>", "rdf": "</item>"}

# class name -> function(fmt, k) giving the broken item's XML (or None for document-level classes)
ITEM_CLASSES = {
    "lt-space-in-title": lambda f, k: item(f, k, title=f"Price < 20 ({k})"),
    "lt-digit-in-title": lambda f, k: item(f, k, title=f"under <20 here {k}"),
    "lt-equals-in-desc": lambda f, k: item(f, k, desc="if x <= y then"),
    "lt-dash-in-desc": lambda f, k: item(f, k, desc="<-- back"),
    "stray-item-end": lambda f, k: item(f, k, extra_after=END[f]),
    "two-stray-item-ends": lambda f, k: item(f, k, extra_after=END[f] + END[f]),
    "stray-p-in-summary": lambda f, k: item(f, k, desc_raw="one</p> two"),
    "cdata-ends-early": lambda f, k: item(f, k, desc_raw="<![CDATA[<p>a ]]> b</p> ]]>"),
    "open-div-in-body": lambda f, k: item(f, k, desc_raw="<div>hello"),
    "open-b-in-title": lambda f, k: item(f, k, title=f"Bold <b>{k}"),
    "end-tag-case": lambda f, k: item(f, k).replace(END[f], END[f].upper()),
    "body-end-missing": lambda f, k: item(f, k).replace("</description>", "").replace("</summary>", ""),
    "title-end-missing": lambda f, k: item(f, k).replace("</title>", ""),
    "lt-in-attribute": lambda f, k: item(f, k, before_title='<category label="a<b">c</category>'),
    "item-end-missing": lambda f, k: item(f, k).replace(END[f], "", 1),
    "amp-and-entity-in-title": lambda f, k: item(f, k, title=f"Q&A &nbsp; {k} &bogus;"),
    "control-chars": lambda f, k: item(f, k, title=f"bell\x07 {k}", desc="vt\x0b ff\x0c"),
    "unquoted-attribute": lambda f, k: item(f, k, before_title="<category domain=http://x.example/c>c</category>"),
    "unclosed-quote": lambda f, k: item(f, k, before_title='<category domain="http://x.example/c>c</category>'),
    "unclosed-cdata": lambda f, k: item(f, k, desc_raw="<![CDATA[<p>never closed"),
    "unclosed-comment": lambda f, k: item(f, k, desc_raw="a <!-- never closed"),
}

DOC_CLASSES = {
    "php-warning-before-decl": "<br />\n<b>Warning</b>:  Cannot modify header information - headers already sent by (output started at /var/www/x.php:3) in <b>/var/www/feed.php</b> on line <b>12</b><br />\n<?xml version=\"1.0\" encoding=\"utf-8\"?>\n",
    "php-warning-no-decl": "<br />\n<b>Notice</b>:  Undefined index: q in <b>/var/www/feed.php</b> on line <b>4</b><br />\n",
    "text-before-decl": "Deprecated: a < b in /var/www/x.php on line 3\n<?xml version=\"1.0\"?>\n",
}

def run(binary, text):
    with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False, encoding="utf-8") as t:
        t.write(text)
    try:
        p = subprocess.run([binary, "parse", "--json", t.name], capture_output=True, text=True, timeout=20)
    finally:
        os.unlink(t.name)
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line).get("entries", [])
    return []

def intact_found(entries, k):
    link = f"http://site.example/{k}"
    for e in entries:
        if e.get("link") == link and e.get("title") == f"Item {k}" and (e.get("published") or e.get("updated")):
            return True
    return False

def main():
    binary = sys.argv[1]
    for name, make in ITEM_CLASSES.items():
        kept = total = broken_kept = broken_total = 0
        for fmt in ("rss", "atom", "rdf"):
            for b in (0, N // 2, N - 1):
                items = [make(fmt, k) if k == b else item(fmt, k) for k in range(N)]
                entries = run(binary, document(fmt, items))
                for k in range(N):
                    if k == b:
                        broken_total += 1
                        broken_kept += any(e.get("link") == f"http://site.example/{k}" for e in entries)
                    else:
                        total += 1
                        kept += intact_found(entries, k)
        print(f"{name:26s} intact kept {kept:3d}/{total:3d} ({100.0 * kept / total:5.1f} %)  broken item kept {broken_kept}/{broken_total}")
    for name, prolog in DOC_CLASSES.items():
        kept = total = 0
        for fmt in ("rss", "atom", "rdf"):
            entries = run(binary, document(fmt, [item(fmt, k) for k in range(N)], prolog=prolog))
            total += N
            kept += sum(intact_found(entries, k) for k in range(N))
        print(f"{name:26s} intact kept {kept:3d}/{total:3d} ({100.0 * kept / total:5.1f} %)")

main()
