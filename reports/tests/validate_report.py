#!/usr/bin/env python3
"""Checks a KCS report: against reports/schema/report-v1.schema.json, and
then what a schema cannot say: every count and ratio of the summary agrees
with the instances, and every failing case carries its repro command.

usage: validate_report.py SCHEMA REPORT [--break bad-verdict]

--break bad-verdict gives one instance a verdict the schema does not know
and succeeds only if the check then fails (the schema really constrains
verdicts).
Exit 0: the report is valid (or, with --break, the broken one was caught).
"""
import argparse
import json
import sys

import jsonschema

FAILING = {"FAIL", "CRASH", "TIMEOUT", "ERROR"}
EXECUTED = {"PASS", "FAIL", "CRASH", "TIMEOUT"}


def tally(instances):
    counts = dict.fromkeys(["planned", "applicable", "not_applicable", "executed", "pass", "fail", "consequence",
                            "crash", "timeout", "error", "unsupported", "inconclusive", "missing"], 0)
    for i in instances:
        counts["planned"] += 1
        verdict = i["verdict"]
        if not i["applicable"] or verdict == "NOT_APPLICABLE":
            counts["not_applicable"] += 1
            continue
        counts["applicable"] += 1
        if verdict is None:
            counts["missing"] += 1
            continue
        counts[verdict.lower()] += 1
        counts["consequence"] += verdict == "FAIL" and i["consequence_of"] is not None
        counts["executed"] += verdict in EXECUTED
    return counts


def ratio(a, b):
    return None if b == 0 else a / b


def same_ratio(recorded, expected):
    if expected is None:
        return recorded is None
    return recorded is not None and abs(recorded - expected) <= 1e-12


def consistency_problems(report):
    predicate = report["predicate"]
    instances = predicate["instances"]
    summary = predicate["summary"]
    problems = []

    def check_group(name, recorded, group):
        expected = tally(group)
        if recorded["counts"] != expected:
            problems.append(f"{name}: counts {recorded['counts']} but the instances give {expected}")
        if not same_ratio(recorded["coverage"], ratio(expected["executed"], expected["applicable"])):
            problems.append(f"{name}: coverage {recorded['coverage']} is not executed / applicable")
        if not same_ratio(recorded["pass_rate"], ratio(expected["pass"], expected["executed"])):
            problems.append(f"{name}: pass rate {recorded['pass_rate']} is not PASS / executed")
        if recorded["verdict"] == "NOT_APPLICABLE":
            if expected["applicable"]:
                problems.append(f"{name}: NOT_APPLICABLE with applicable instances")
            return
        # A FAIL that is a consequence of another class's FAIL decides nothing about its own class.
        broken = expected["fail"] - expected["consequence"] + expected["crash"] + expected["timeout"] > 0
        if broken != (recorded["verdict"] == "NON-CONFORMANT") and not recorded.get("rejected_claims"):
            problems.append(f"{name}: verdict {recorded['verdict']} with {expected}")
        if recorded["verdict"] == "CONFORMANT" and (expected["error"] or expected["missing"] or not predicate["complete"]):
            problems.append(f"{name}: CONFORMANT with errors or missing instances, or an incomplete run")

    classes = sorted({i["class"] for i in instances})
    if [c["class"] for c in summary["classes"]] != classes:
        problems.append(f"summary classes {[c['class'] for c in summary['classes']]} but instances of {classes}")
    for c in summary["classes"]:
        check_group(c["class"], c, [i for i in instances if i["class"] == c["class"]])
    check_group("profile " + summary["profile"]["id"], summary["profile"], instances)
    shard = predicate.get("shard")
    if shard is None and predicate["plan"]["instances"] != len(instances):
        problems.append("plan.instances is not the number of instances")
    if shard is not None and (shard["instances"] != len(instances) or predicate["plan"]["instances"] < len(instances)):
        problems.append("shard.instances is not the number of instances, or plan.instances is fewer")

    for i in instances:
        for n, c in enumerate(i["cases"]):
            if c["verdict"] in FAILING:
                if not c["repro"].startswith("kcs run ") or f"--case {i['id']} --seed {c['seed']}" not in c["repro"]:
                    problems.append(f"{i['id']} case {n}: repro '{c['repro']}' does not replay it")
        if i["worst_case"] is not None and i["cases"][i["worst_case"]]["verdict"] != i["verdict"]:
            problems.append(f"{i['id']}: worst_case does not have the instance's verdict")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("schema")
    parser.add_argument("report")
    parser.add_argument("--break", dest="breakage", choices=["bad-verdict"])
    args = parser.parse_args()

    with open(args.schema, encoding="utf-8") as f:
        schema = json.load(f)
    with open(args.report, encoding="utf-8") as f:
        report = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    if args.breakage == "bad-verdict":
        instances = report["predicate"]["instances"]
        if not instances:
            print("the report has no instance to break", file=sys.stderr)
            return 1
        instances[0]["verdict"] = "PASSED"
        errors = list(validator.iter_errors(report))
        if not errors:
            print("a verdict 'PASSED' was accepted by the schema", file=sys.stderr)
            return 1
        print(f"rejected as expected: {errors[0].message}")
        return 0

    errors = sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))
    for e in errors[:20]:
        print(f"schema: {'/'.join(map(str, e.absolute_path))}: {e.message}", file=sys.stderr)
    if errors:
        return 1
    problems = consistency_problems(report)
    for p in problems[:20]:
        print(f"consistency: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"{args.report}: valid ({len(report['predicate']['instances'])} instances, "
          f"profile {report['predicate']['summary']['profile']['verdict']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
