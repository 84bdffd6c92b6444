#!/usr/bin/python3
"""check_junit.py FILE...: each FILE is JUnit XML that CI systems accept.

For each FILE: it is well-formed XML (the standard library parses it); it
obeys the rules of the two schemas CI tools validate JUnit files against,
written down below from the schemas' text: Jenkins xunit's junit-10.xsd
(jenkinsci/xunit-plugin, src/main/resources/org/jenkinsci/plugins/xunit/
types/model/xsd/junit-10.xsd) and the Apache Ant JUnit.xsd (windyroad/
JUnit-Schema); every <testsuite>'s tests / failures / errors / skipped
attributes count its <testcase> children and their outcomes; every
testcase's classname is its suite's package and name.

Across all FILEs together, no (classname, name) pair repeats: the files of
several adapters merge into one CI run without duplicate test ids.

Exit 0 when all holds, 1 with one line per problem.
"""
import re
import sys
import xml.etree.ElementTree as ElementTree

INT = re.compile(r"[+-]?[0-9]+")
DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)")
# junit-10.xsd's SUREFIRE_TIME: digits, optional thousands commas, a fraction
SUREFIRE_TIME = re.compile(r"(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?")
# Ant's ISO8601_DATETIME_PATTERN: no fraction, no time zone
ANT_TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}")
NON_EMPTY = re.compile(r"\s*\S.*", re.S)
ANY = None


class Element:
    """One element's declaration: its attributes (name -> value pattern or
    ANY), which are required, and its content model as a regular expression
    over the space-separated child tags (ANY: unchecked)."""

    def __init__(self, attributes, required=(), content=""):
        self.attributes = attributes
        self.required = set(required)
        self.content = content


def strings(*names):
    return {name: ANY for name in names}


OUTCOME = Element(strings("type", "message"), content="")
JENKINS_XUNIT = {
    "testsuites": Element({**strings("name", "tests", "failures", "errors"), "time": SUREFIRE_TIME},
                          content=r"(testsuite )*"),
    "testsuite": Element({**strings("name", "tests", "failures", "errors", "group", "skipped", "timestamp",
                                    "hostname", "id", "package", "file", "log", "url"), "time": SUREFIRE_TIME},
                         required=("name", "tests", "failures", "errors"),
                         content=r"((testsuite|properties|testcase|system-out|system-err) )*"),
    "properties": Element({}, content=r"(property )*"),
    "property": Element(strings("name", "value"), required=("name", "value")),
    "testcase": Element(strings("name", "time", "classname", "group"), required=("name",),
                        content=r"((skipped|error|failure|rerunFailure|rerunError|flakyFailure|flakyError"
                                r"|system-out|system-err) )*"),
    "failure": OUTCOME,
    "error": OUTCOME,
    "skipped": OUTCOME,
    "system-out": Element({}),
    "system-err": Element({}),
}

ANT_OUTCOME = Element(strings("message", "type"), required=("type",))
ANT_JUNIT = {
    "testsuites": Element({}, content=r"(testsuite )*"),
    # the testsuite of an aggregated document: the testsuite type plus package and id
    "testsuite": Element({"name": NON_EMPTY, "timestamp": ANT_TIMESTAMP, "hostname": NON_EMPTY, "tests": INT,
                          "failures": INT, "errors": INT, "skipped": INT, "time": DECIMAL, "package": NON_EMPTY,
                          "id": INT},
                         required=("name", "timestamp", "hostname", "tests", "failures", "errors", "time", "package",
                                   "id"),
                         content=r"properties (testcase )*system-out system-err "),
    "properties": Element({}, content=r"(property )*"),
    "property": Element({"name": NON_EMPTY, "value": ANY}, required=("name", "value")),
    "testcase": Element({"name": ANY, "classname": ANY, "time": DECIMAL}, required=("name", "classname", "time"),
                        content=r"((skipped|error|failure) )?"),
    "failure": ANT_OUTCOME,
    "error": ANT_OUTCOME,
    "skipped": Element(ANY, content=ANY),  # declared without a type: anything goes
    "system-out": Element({}),
    "system-err": Element({}),
}
SCHEMAS = {"Jenkins xunit junit-10.xsd": JENKINS_XUNIT, "Ant JUnit.xsd": ANT_JUNIT}


def schema_problems(element, schema, where):
    declaration = schema.get(element.tag)
    if declaration is None:
        return [f"{where}: <{element.tag}> is not declared"]
    problems = []
    if declaration.attributes is not ANY:
        for name, value in element.attrib.items():
            if name not in declaration.attributes:
                problems.append(f"{where}: attribute {name} is not allowed")
            elif declaration.attributes[name] is not ANY and not declaration.attributes[name].fullmatch(value):
                problems.append(f"{where}: attribute {name}=\"{value}\" is not of its type")
        for name in sorted(declaration.required - set(element.attrib)):
            problems.append(f"{where}: attribute {name} is required")
    if declaration.content is not ANY:
        children = "".join(child.tag + " " for child in element)
        if not re.fullmatch(declaration.content, children):
            problems.append(f"{where}: children [{children.strip()}] do not match ({declaration.content.strip()})")
        for index, child in enumerate(element):
            label = child.get("name") or str(index)
            problems += schema_problems(child, schema, f"{where}/{child.tag}[{label}]")
    return problems


def counted(testcases):
    counts = {"tests": len(testcases), "failures": 0, "errors": 0, "skipped": 0}
    for case in testcases:
        outcomes = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        if len(outcomes) > 1:
            raise ValueError(f"testcase {case.get('name')!r} has {len(outcomes)} outcomes")
        for tag, key in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
            counts[key] += outcomes.count(tag)
    return counts


def count_problems(root):
    problems = []
    suites = root.findall("testsuite")
    if not suites:
        problems.append("no <testsuite>")
    for suite in suites:
        try:
            counts = counted(suite.findall("testcase"))
        except ValueError as error:
            problems.append(f"suite {suite.get('name')}: {error}")
            continue
        problems += [
            f"suite {suite.get('name')}: {key}=\"{suite.get(key)}\" but {value} counted"
            for key, value in counts.items()
            if suite.get(key) != str(value)
        ]
        expected = f"{suite.get('package')}.{suite.get('name')}"
        for case in suite.findall("testcase"):
            if case.get("classname") != expected:
                problems.append(f"testcase {case.get('name')} has classname {case.get('classname')}, not {expected}")
    return problems


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = []
    seen = {}
    for path in sys.argv[1:]:
        try:
            root = ElementTree.parse(path).getroot()
        except ElementTree.ParseError as error:
            problems.append(f"{path}: not well-formed XML: {error}")
            continue
        if root.tag != "testsuites":
            problems.append(f"{path}: the root element is <{root.tag}>, not <testsuites>")
            continue
        for schema_name, schema in SCHEMAS.items():
            problems += [f"{path}: {schema_name}: {p}" for p in schema_problems(root, schema, "testsuites")]
        problems += [f"{path}: {p}" for p in count_problems(root)]
        for case in root.iter("testcase"):
            key = (case.get("classname"), case.get("name"))
            if key in seen:
                problems.append(f"{path}: testcase {key} repeats one in {seen[key]}")
            seen[key] = path
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
