#!/usr/bin/python3
"""The HTML report in a real browser (Debian's chromium, headless).

browser_render_test.py --kcs KCS --report REPORT.json|REPORT.dsse.json --work DIR [--hostile TEXT]

Renders REPORT with `kcs render --format html`, has chromium load the page
from disk, and checks what a person would see, against numbers taken from
the report itself:
  - the DOM chromium built (--dump-dom): the banner's profile verdict,
    coverage, pass rate and signature status; one matrix cell per class and
    operator; one <details> per instance, each FAIL's holding the table of
    its cases (its evidence); <svg> pictures where the report
    holds the numbers for them; no <script>, <img>, <link> or <iframe>
    element (a hostile string must arrive as text: --hostile TEXT must be
    found in the page's text);
  - a screenshot (--screenshot, 1280x2000): a PNG of that size that is not
    blank and shows the banner's colour.
chromium runs with a private profile and HOME under DIR. Standard library
only; run it with Debian's /usr/bin/python3.
"""
import argparse
import base64
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib

CHROMIUM = "/usr/bin/chromium"
WIDTH, HEIGHT = 1280, 2000
# The banner's background per profile verdict (render_html.cpp's style).
BANNER_RGB = {
    "CONFORMANT": (0xE7, 0xF5, 0xEA),
    "NON-CONFORMANT": (0xFD, 0xEC, 0xEE),
    "INCOMPLETE": (0xFF, 0xF5, 0xE6),
}
PICTURE_CLASSES = ("C-PRC-01", "C-CMP-01", "C-ORD-02")

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def finish(summary):
    """The exit code: 1 after printing every failure, else 0 after printing `summary`."""
    if failures:
        for failure in failures:
            print("FAIL: " + failure, file=sys.stderr)
        return 1
    print(summary)
    return 0


class Dom(html.parser.HTMLParser):
    """What the page holds: elements by tag and class, texts by class."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = {}
        self.classed = {}  # (tag, class word) -> count
        self.text_of = {}  # class word -> text inside the first element with it
        self.all_text = []
        self._open = []  # (tag, classes) of open elements collecting text
        self.fail_details = []  # per FAIL instance: whether its details hold the cases' evidence table
        self._fail_open = None

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        classes = (dict(attrs).get("class") or "").split()
        for word in classes:
            self.classed[(tag, word)] = self.classed.get((tag, word), 0) + 1
        if tag == "details" and "instance" in classes and "v-fail" in classes:
            self._fail_open = False
        elif tag == "table" and "cases" in classes and self._fail_open is not None:
            self._fail_open = True
        if tag not in ("br", "meta", "img", "link", "input", "hr", "circle", "rect", "line", "path"):
            self._open.append((tag, classes))

    def handle_endtag(self, tag):
        if tag == "details" and self._fail_open is not None:
            self.fail_details.append(self._fail_open)
            self._fail_open = None
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i][0] == tag:
                del self._open[i:]
                break

    def handle_data(self, data):
        self.all_text.append(data)
        for _, classes in self._open:
            for word in classes:
                self.text_of.setdefault(word, [])
                self.text_of[word].append(data)

    def text(self, word):
        return "".join(self.text_of.get(word, []))

    def count(self, tag, word):
        return self.classed.get((tag, word), 0)


def chromium(work, arguments, timeout=120):
    home = os.path.join(work, "home")
    profile = os.path.join(work, "chromium-profile")
    shutil.rmtree(profile, ignore_errors=True)
    os.makedirs(home, exist_ok=True)
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_CACHE_HOME=os.path.join(home, ".cache"))
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
               "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"] + arguments
    result = subprocess.run(command, capture_output=True, timeout=timeout, env=env)
    if result.returncode != 0:
        sys.stderr.write(result.stderr.decode(errors="replace")[-4000:])
    return result


def expected_from(report):
    predicate = report["predicate"]
    instances = predicate["instances"]
    rows = [c["class"] for c in predicate["summary"]["classes"]]
    rows += sorted({i["class"] for i in instances} - set(rows))
    operators = {i["operator"] for i in instances}
    # A class overview is drawn where it can show a difference: C-PRC-01's
    # lines always, C-CMP-01's and C-ORD-02's bars when their instances'
    # figures (worst over seeds) and bounds are not all alike.
    def varied(class_id):
        figures = set()
        for i in instances:
            if i["class"] != class_id:
                continue
            numbers = [c["evidence"].get("figure") for c in i["cases"]]
            numbers = [n for n in numbers if isinstance(n, (int, float))]
            if numbers:
                bound = next((c["evidence"].get("bound") for c in i["cases"]), None)
                figures.add((max(numbers), bound))
        return len(figures) > 1
    with_pictures = {c for c in {i["class"] for i in instances} & set(PICTURE_CLASSES)
                     if c == "C-PRC-01" or varied(c)}
    # A picture is drawn only where it can show a difference: two hashes or more.
    hash_instances = sum(1 for i in instances if i["class"] == "C-ORD-02" and any(
        len(c["evidence"]["details"].get("hashes") or []) > 1 for c in i["cases"]))
    return {
        "verdict": predicate["summary"]["profile"]["verdict"],
        "cells": len(rows) * len(operators),
        "instances": len(instances),
        "fails": sum(1 for i in instances if i.get("verdict") == "FAIL"),
        "with_pictures": with_pictures,
        # Each C-ORD-02 instance with two hash groups or more draws one picture in its details.
        "min_svg": hash_instances + (1 if with_pictures else 0),
    }


def check_dom(dom, expected, hostile):
    verdict = dom.text("profile-verdict").strip()
    check(verdict == expected["verdict"], f"banner verdict {verdict!r}, the report says {expected['verdict']!r}")
    check("coverage" in dom.text("coverage"), "the banner shows no coverage")
    check("pass rate" in dom.text("pass-rate"), "the banner shows no pass rate")
    check(dom.text("coverage") != dom.text("pass-rate"), "coverage and pass rate are not shown apart")
    signature = dom.text("signature")
    check(signature.startswith(expected["signature"]),
          f"the banner says {signature!r}, not {expected['signature']} (rendered without a key)")
    cells = dom.count("td", "cell")
    check(cells == expected["cells"], f"{cells} matrix cells, expected classes x operators = {expected['cells']}")
    details = dom.count("details", "instance")
    check(details == expected["instances"], f"{details} instance details, the report has {expected['instances']}")
    # Every FAIL row expands to its evidence: the table of its cases (verdict, figure, bound, message).
    check(len(dom.fail_details) == expected["fails"],
          f"{len(dom.fail_details)} FAIL instance details, the report has {expected['fails']} FAILs")
    check(all(dom.fail_details), f"{dom.fail_details.count(False)} FAIL instance(s) show no table of their cases")
    svgs = dom.tags.get("svg", 0)
    check(svgs >= expected["min_svg"], f"{svgs} <svg> pictures, expected at least {expected['min_svg']}")
    if expected["with_pictures"]:
        check(dom.count("section", "pictures") == 1, "no Pictures section although the report has "
              + ", ".join(sorted(expected["with_pictures"])))
    for tag in ("script", "img", "link", "iframe", "object", "embed"):
        check(tag not in dom.tags, f"the page has a <{tag}> element")
    if hostile:
        check(hostile in "".join(dom.all_text), f"the hostile text {hostile!r} is not shown as text")


def png_rows(png):
    """Width, height and the first rows of an 8-bit RGB or RGBA PNG, unfiltered."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    position, idat, header = 8, [], None
    while position < len(png):
        length, kind = struct.unpack(">I4s", png[position:position + 8])
        body = png[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unexpected PNG format (depth {depth}, colour type {colour}, interlace {interlace})")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(min(height, 700)):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                corner = previous[x - channels] if x >= channels else 0
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(line)
        previous = line
    return width, height, channels, raw, rows


def check_screenshot(path, verdict):
    if not check(os.path.exists(path), f"chromium wrote no screenshot at {path}"):
        return
    png = open(path, "rb").read()
    check(len(png) > 20000, f"the screenshot is only {len(png)} bytes: a blank page?")
    try:
        width, height, channels, raw, rows = png_rows(png)
    except (ValueError, zlib.error, TypeError) as error:
        check(False, f"the screenshot is not a PNG this test reads: {error}")
        return
    check((width, height) == (WIDTH, HEIGHT), f"the screenshot is {width}x{height}, not {WIDTH}x{HEIGHT}")
    check(len(set(raw)) > 32, "the screenshot has almost no distinct byte values: a blank page?")
    wanted = BANNER_RGB.get(verdict)
    if wanted:
        banner_pixels = sum(1 for line in rows for x in range(0, len(line), channels)
                            if tuple(line[x:x + 3]) == wanted)
        check(banner_pixels > WIDTH * 40, f"the top of the page shows {banner_pixels} pixels of the "
              f"{verdict} banner's colour #{bytes(wanted).hex()}: is the banner there?")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kcs", required=True)
    parser.add_argument("--report", required=True)
    parser.add_argument("--work", required=True, help="a folder in the build tree for the page and chromium")
    parser.add_argument("--hostile", default="", help="text the report holds that must show as text")
    args = parser.parse_args()

    if not os.access(CHROMIUM, os.X_OK):
        print(f"FAIL: {CHROMIUM} is missing: run tools/bootstrap, which installs Debian's chromium "
              "(this test needs a real browser)", file=sys.stderr)
        return 1
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    page = os.path.join(work, "report.html")
    screenshot = os.path.join(work, "report.png")
    for stale in (page, screenshot):
        if os.path.exists(stale):
            os.remove(stale)

    with open(args.report, encoding="utf-8") as f:
        document = json.load(f)
    envelope = "payload" in document
    if envelope:  # a DSSE envelope: the Statement is its payload, its signature unchecked by kcs render
        document = json.loads(base64.b64decode(document["payload"]))
    expected = expected_from(document)
    expected["signature"] = "UNVERIFIED" if envelope else "UNSIGNED"
    render = subprocess.run([args.kcs, "render", args.report, "--format", "html", "--out", page],
                            capture_output=True, text=True, timeout=120)
    if render.returncode != 0:
        print(f"FAIL: kcs render exited {render.returncode}: {render.stderr}", file=sys.stderr)
        return 1

    url = "file://" + page
    dumped = chromium(work, ["--dump-dom", url])
    if not check(dumped.returncode == 0 and dumped.stdout, f"chromium --dump-dom exited {dumped.returncode}"):
        print("FAIL: " + "\n".join(failures), file=sys.stderr)
        return 1
    dom = Dom()
    dom.feed(dumped.stdout.decode("utf-8", errors="replace"))
    check_dom(dom, expected, args.hostile)

    shot = chromium(work, [f"--screenshot={screenshot}", f"--window-size={WIDTH},{HEIGHT}", url])
    check(shot.returncode == 0, f"chromium --screenshot exited {shot.returncode}")
    check_screenshot(screenshot, expected["verdict"])

    return finish(f"ok: {dom.count('td', 'cell')} matrix cells, {dom.tags.get('svg', 0)} pictures, "
                  f"{dom.count('details', 'instance')} instances, banner {expected['verdict']}; screenshot {screenshot}")


if __name__ == "__main__":
    sys.exit(main())
