#!/usr/bin/python3
"""check_junit.py FILE: FILE is well-formed JUnit XML as kcs render writes it.

Parses it with the standard library's XML parser (so it is well-formed XML),
then checks that every <testsuite>'s tests / failures / errors / skipped
attributes count its <testcase> children and their <failure>, <error> and
<skipped> elements, and that <testsuites> holds the sums. Exit 0 when all
agree, 1 with one line per disagreement.
"""
import sys
import xml.etree.ElementTree as ElementTree


def counted(testcases):
    counts = {"tests": len(testcases), "failures": 0, "errors": 0, "skipped": 0}
    for case in testcases:
        outcomes = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        if len(outcomes) > 1:
            raise ValueError(f"testcase {case.get('name')!r} has {len(outcomes)} outcomes")
        for tag, key in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
            counts[key] += outcomes.count(tag)
    return counts


def disagreements(element, counts, what):
    return [
        f"{what}: {key}=\"{element.get(key)}\" but {value} counted"
        for key, value in counts.items()
        if element.get(key) != str(value)
    ]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        root = ElementTree.parse(sys.argv[1]).getroot()
    except ElementTree.ParseError as error:
        print(f"{sys.argv[1]}: not well-formed XML: {error}", file=sys.stderr)
        return 1
    if root.tag != "testsuites":
        print(f"{sys.argv[1]}: the root element is <{root.tag}>, not <testsuites>", file=sys.stderr)
        return 1
    problems = []
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    suites = root.findall("testsuite")
    if not suites:
        problems.append("no <testsuite>")
    for suite in suites:
        try:
            counts = counted(suite.findall("testcase"))
        except ValueError as error:
            problems.append(f"suite {suite.get('name')}: {error}")
            continue
        problems += disagreements(suite, counts, f"suite {suite.get('name')}")
        for case in suite.findall("testcase"):
            if case.get("classname") != suite.get("name"):
                problems.append(f"testcase {case.get('name')} has classname {case.get('classname')}")
        for key in totals:
            totals[key] += counts[key]
    problems += disagreements(root, totals, "testsuites")
    for problem in problems:
        print(f"{sys.argv[1]}: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
