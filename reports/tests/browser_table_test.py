#!/usr/bin/python3
"""A comparison table page in a real browser (Debian's chromium, headless).

browser_table_test.py --table TABLE.html --work DIR --columns N [--classes K] [--linked-fails]

Has chromium load the page from disk (it loads nothing else: the page's
Content-Security-Policy allows no source) and checks what a person would
see:
  - the DOM chromium built (--dump-dom): a header cell per adapter (N) and
    the class column; a row per contract class (C-XXX-NN; K of them), each
    with N cells; no <script>, <img>, <link>, <iframe>, <object> or <embed>;
    with --linked-fails, every FAIL cell holds a link (to where the FAIL is
    explained) and no other outcome's cell does;
  - a screenshot (--screenshot, 1280x2000): a PNG of that size that is not
    blank, and shows the FAIL colour where the table has a FAIL cell.
Standard library only; run it with Debian's /usr/bin/python3. It shares
chromium, the DOM reader and the PNG reader with browser_render_test.py.
"""
import argparse
import html.parser
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_render_test as browser  # noqa: E402

FAIL_RGB = (0xF8, 0xD7, 0xD7)  # td.fail in table_render.cpp's style


class TableDom(html.parser.HTMLParser):
    """Rows of the table: each row's header text and its cells (class, text, links)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = {}
        self.header_cells = 0
        self.rows = []  # [header text, [(classes, text, links)]]
        self._cell = None
        self._in_head = False
        self._in_row_header = False

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        attributes = dict(attrs)
        if tag == "thead":
            self._in_head = True
        elif tag == "tr" and not self._in_head:
            self.rows.append(["", []])
        elif tag == "th" and self._in_head:
            self.header_cells += 1
        elif tag == "th" and self.rows:
            self._in_row_header = True
        elif tag == "td" and self.rows:
            self._cell = [(attributes.get("class") or "").split(), "", 0]
        elif tag == "a" and self._cell is not None and attributes.get("href"):
            self._cell[2] += 1
        elif tag == "br" and self._in_row_header:
            self.rows[-1][0] += " "  # the class id, then its title

    def handle_endtag(self, tag):
        if tag == "thead":
            self._in_head = False
        elif tag == "th":
            self._in_row_header = False
        elif tag == "td" and self._cell is not None:
            self.rows[-1][1].append(tuple(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._in_row_header and self.rows:
            self.rows[-1][0] += data
        elif self._cell is not None:
            self._cell[1] += data


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", required=True)
    parser.add_argument("--work", required=True, help="a folder in the build tree for chromium")
    parser.add_argument("--columns", required=True, type=int, help="the adapters the table sets side by side")
    parser.add_argument("--classes", type=int, default=0, help="the class rows it must have (0: at least one)")
    parser.add_argument("--linked-fails", action="store_true", help="every FAIL cell must link to its findings")
    args = parser.parse_args()
    check = browser.check

    if not os.access(browser.CHROMIUM, os.X_OK):
        print(f"FAIL: {browser.CHROMIUM} is missing: run tools/bootstrap, which installs Debian's chromium",
              file=sys.stderr)
        return 1
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    screenshot = os.path.join(work, "table.png")
    if os.path.exists(screenshot):
        os.remove(screenshot)
    url = "file://" + os.path.abspath(args.table)

    dumped = browser.chromium(work, ["--dump-dom", url])
    if not check(dumped.returncode == 0 and dumped.stdout, f"chromium --dump-dom exited {dumped.returncode}"):
        print("FAIL: " + "\n".join(browser.failures), file=sys.stderr)
        return 1
    dom = TableDom()
    dom.feed(dumped.stdout.decode("utf-8", errors="replace"))
    check(dom.header_cells == args.columns + 1,
          f"{dom.header_cells} header cells, expected the class column and {args.columns} adapters")
    class_rows = [row for row in dom.rows if row[0].startswith("C-")]
    if args.classes:
        check(len(class_rows) == args.classes, f"{len(class_rows)} class rows, expected {args.classes}")
    else:
        check(class_rows, "no class rows")
    fails = 0
    for header, cells in class_rows:
        check(len(cells) == args.columns, f"row {header.split()[0]} has {len(cells)} cells, not {args.columns}")
        for classes, text, links in cells:
            failed = "fail" in classes
            fails += failed
            check(failed == text.startswith("FAIL"), f"row {header.split()[0]}: a cell reads {text!r} "
                  f"with classes {classes}")
            if args.linked_fails:
                check(links == (1 if failed else 0), f"row {header.split()[0]}: the cell {text!r} has "
                      f"{links} link(s); a FAIL cell links to its findings, no other cell links")
    for tag in ("script", "img", "link", "iframe", "object", "embed"):
        check(tag not in dom.tags, f"the page has a <{tag}> element")

    shot = browser.chromium(work, [f"--screenshot={screenshot}",
                                   f"--window-size={browser.WIDTH},{browser.HEIGHT}", url])
    check(shot.returncode == 0, f"chromium --screenshot exited {shot.returncode}")
    if check(os.path.exists(screenshot), f"chromium wrote no screenshot at {screenshot}"):
        png = open(screenshot, "rb").read()
        width, height, channels, raw, rows = browser.png_rows(png)
        check((width, height) == (browser.WIDTH, browser.HEIGHT), f"the screenshot is {width}x{height}")
        check(len(set(raw)) > 32, "the screenshot has almost no distinct byte values: a blank page?")
        if fails:
            red = sum(1 for line in rows for x in range(0, len(line), channels) if tuple(line[x:x + 3]) == FAIL_RGB)
            check(red > 100, f"{fails} FAIL cells, but the top of the screenshot shows {red} pixels of their "
                  f"colour #{bytes(FAIL_RGB).hex()}")

    return browser.finish(f"ok: {len(class_rows)} class rows x {args.columns} adapters, {fails} FAIL cells"
                          f"{' each linked to its findings' if args.linked_fails else ''}; screenshot {screenshot}")


if __name__ == "__main__":
    sys.exit(main())
