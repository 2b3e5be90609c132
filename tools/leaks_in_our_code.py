#!/usr/bin/python3
"""Reads a LeakSanitizer log; prints and counts the leak reports with a frame in feeds' own
modules. The Swift runtime, Foundation and XCTest leak a little on Linux by themselves (weak
references of Process and XCTestExpectation, XCTestCaseRun objects); those reports are counted
apart and do not fail the run. Exit status 1 when any report involves our code."""
import re
import sys

OURS = re.compile(r"\$s(11FeedParsing|6Markup|7Storage|8Fetching|10Aggregator|9FeedModel|6Reader"
                  r"|10HTMLDigest|10ImageCache|5feeds|14ContractChecks)[0-9A-Z]")
text = open(sys.argv[1], errors="replace").read()
reports = [b for b in re.split(r"\n(?=(?:Direct|Indirect) leak of)", text)
           if re.match(r"(Direct|Indirect) leak of", b)]
ours = [b.split("\n\n")[0] for b in reports if OURS.search(b.split("\n\n")[0])]
for b in ours[:5]:
    print(b)
print(f"leak reports: {len(reports)}, involving feeds' code: {len(ours)}")
sys.exit(1 if ours else 0)
