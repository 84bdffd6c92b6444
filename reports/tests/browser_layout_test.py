#!/usr/bin/python3
"""The HTML report's layout and navigation in a real browser (Debian's chromium, headless).

browser_layout_test.py --kcs KCS --report REPORT.json|REPORT.dsse.json --work DIR

Renders REPORT with `kcs render --format html`; then, for windows 1280,
1600 and 1920 px wide, loads it in an iframe of a test page whose script
(the report itself runs none) measures what a reader meets, and checks:
  - the page and the class x operator matrix fit the window: no horizontal
    overflow, every FAIL cell inside it;
  - every matrix cell links to an instance's details that exist, and a
    FAIL cell to a FAIL instance;
  - the failures come first: a "Did not pass" list before the matrix with
    one link per instance that did not pass;
  - the filters work: choosing FAIL leaves exactly the FAIL instances
    visible, choosing a class leaves that class's alone;
and takes a screenshot of the page at 1280 and 1920 px (left in DIR).
chromium runs as browser_render_test.py runs it, with a private profile
and HOME under DIR. Standard library only; run it with Debian's
/usr/bin/python3.
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_render_test as browser  # noqa: E402  (its chromium runner)

WIDTHS = (1280, 1600, 1920)
SCREENSHOTS = (1280, 1920)  # the narrowest and the widest: what a reader of the test's output looks at

# Runs in the test page, not in the report: measures the report in the iframe.
MEASURE = r"""
const frame = document.getElementById('report');
frame.addEventListener('load', () => {
  const d = frame.contentDocument, w = d.documentElement.clientWidth;
  const visible = (el) => el.offsetParent !== null;
  const details = [...d.querySelectorAll('details.instance')];
  const out = {client: w, scroll: d.documentElement.scrollWidth,
               matrixRight: d.getElementById('matrix').getBoundingClientRect().right,
               failCellsOutside: [...d.querySelectorAll('td.cell.v-fail')]
                   .filter(c => c.getBoundingClientRect().right > w + 0.5).length,
               failCells: d.querySelectorAll('td.cell.v-fail').length,
               cells: 0, brokenLinks: [], failCellsToOther: 0,
               notPassedBeforeMatrix: false, notPassedLinks: 0, notPassedInstances: 0};
  for (const a of d.querySelectorAll('td.cell a')) {
    out.cells++;
    const target = d.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)));
    if (!target || !target.matches('details.instance')) out.brokenLinks.push(a.getAttribute('href'));
    else if (a.closest('td').classList.contains('v-fail') && !target.classList.contains('v-fail')) out.failCellsToOther++;
  }
  const list = d.getElementById('not-passed'), matrix = d.getElementById('matrix');
  out.notPassedBeforeMatrix = !!list && !!(list.compareDocumentPosition(matrix) & Node.DOCUMENT_POSITION_FOLLOWING);
  out.notPassedLinks = list ? list.querySelectorAll('a').length : 0;
  out.notPassedInstances = details.filter(x => !x.matches('.v-pass, .v-unsupported, .v-not-applicable')).length;
  out.allVisible = details.filter(visible).length;
  const fail = d.getElementById('show-v-fail');
  if (fail) {
    fail.checked = true;
    out.failVisible = details.filter(visible).length;
    out.failVisibleNotFail = details.filter(x => visible(x) && !x.classList.contains('v-fail')).length;
    out.failCount = details.filter(x => x.classList.contains('v-fail')).length;
    d.getElementById('show-all').checked = true;
  }
  const firstClass = d.querySelector('input[name=class]:not(#class-all)');
  if (firstClass) {
    firstClass.checked = true;
    const word = firstClass.id.replace(/^only-/, '');
    out.classWord = word;
    out.classVisibleOutside = details.filter(x => visible(x) && !x.closest('.class-block').classList.contains(word)).length;
    out.classVisibleInside = details.filter(x => visible(x)).length;
    out.classTotal = details.filter(x => x.closest('.class-block').classList.contains(word)).length;
  }
  const pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
"""

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


# Flags the measuring page needs: its script reads the report's document
# from the iframe (both file:// pages), and the load events get time to run.
MEASURING = ["--allow-file-access-from-files", "--virtual-time-budget=10000"]


def measure(work, width):
    page = os.path.join(work, f"measure-{width}.html")
    with open(page, "w", encoding="utf-8") as out:
        out.write(f'<!DOCTYPE html><html><body style="margin:0"><iframe id="report" src="report.html" '
                  f'style="width:{width}px;height:1200px;border:0"></iframe><script>{MEASURE}</script></body></html>')
    result = browser.chromium(work, MEASURING + [f"--window-size={width},1200", "--dump-dom", "file://" + page])
    found = re.search(r'<pre id="measured">([^<]*)</pre>', result.stdout.decode(errors="replace"))
    if not check(found, f"{width} px: the test page measured nothing (chromium exit {result.returncode})"):
        return None
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def check_width(width, m):
    at = f"{width} px"
    check(m["scroll"] <= m["client"], f"{at}: the page is {m['scroll']} px wide in a {m['client']} px window")
    check(m["matrixRight"] <= m["client"] + 0.5,
          f"{at}: the matrix ends at {m['matrixRight']:.0f} px, past the window's {m['client']} px")
    check(m["failCellsOutside"] == 0, f"{at}: {m['failCellsOutside']} of {m['failCells']} FAIL cells lie outside the window")
    check(m["cells"] > 0, f"{at}: no matrix cell links to an instance")
    check(not m["brokenLinks"], f"{at}: cells link to no instance: {m['brokenLinks'][:3]}")
    check(m["failCellsToOther"] == 0, f"{at}: {m['failCellsToOther']} FAIL cells link to an instance that did not FAIL")
    if m["notPassedInstances"]:
        check(m["notPassedBeforeMatrix"], f"{at}: no 'Did not pass' list before the matrix")
        check(m["notPassedLinks"] == m["notPassedInstances"],
              f"{at}: the 'Did not pass' list links {m['notPassedLinks']} instances, {m['notPassedInstances']} did not pass")
    if "failVisible" in m:
        check(m["failVisible"] == m["failCount"] and m["failVisibleNotFail"] == 0,
              f"{at}: the FAIL filter shows {m['failVisible']} instances ({m['failVisibleNotFail']} not FAIL), "
              f"the report has {m['failCount']} FAILs")
    if "classWord" in m:
        check(m["classVisibleOutside"] == 0 and m["classVisibleInside"] == m["classTotal"],
              f"{at}: the class filter {m['classWord']} shows {m['classVisibleInside']} instances, "
              f"{m['classVisibleOutside']} of other classes; the class has {m['classTotal']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kcs", required=True)
    parser.add_argument("--report", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    if not os.path.exists(browser.CHROMIUM):
        print(f"FAIL: {browser.CHROMIUM} is missing: run tools/bootstrap, which installs Debian's chromium", file=sys.stderr)
        return 1
    work = os.path.realpath(args.work)
    os.makedirs(work, exist_ok=True)
    page = os.path.join(work, "report.html")
    rendered = subprocess.run([args.kcs, "render", args.report, "--format", "html", "--out", page],
                              capture_output=True, text=True)
    if rendered.returncode not in (0, 1) or not os.path.exists(page):
        print(f"FAIL: kcs render exited {rendered.returncode}: {rendered.stderr}", file=sys.stderr)
        return 1
    for width in WIDTHS:
        m = measure(work, width)
        if m:
            check_width(width, m)
        if width not in SCREENSHOTS:
            continue
        shot = os.path.join(work, f"report-{width}.png")
        result = browser.chromium(work, [f"--window-size={width},1400", f"--screenshot={shot}", "file://" + page])
        check(result.returncode == 0 and os.path.getsize(shot) > 20000,
              f"{width} px: no screenshot, or a blank one, at {shot}")
    if failures:
        for failure in failures:
            print("FAIL: " + failure, file=sys.stderr)
        return 1
    print(f"ok: the report fits {', '.join(map(str, WIDTHS))} px, cells link to their instances, failures come "
          f"first, the filters work; screenshots in {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
