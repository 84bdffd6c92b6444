#!/usr/bin/env bash
# An adapter (opencl, vulkan; openblas and blis for check) through the kcs
# command line, as CTest runs it:
#   device_cli_test.sh check   ADAPTER KCS WORK_DIR
#   device_cli_test.sh certify ADAPTER KCS WORK_DIR EXPECTED_FAILS
# check:   kcs adapter check ADAPTER must pass every step.
# certify: a quick, strict certify of a few operators (below) must record a
#          verdict for every instance, with no CRASH, ERROR or TIMEOUT, and no
#          FAIL other than the instances EXPECTED_FAILS lists (one id prefix
#          a line, '#' comments; each is explained in vendors/ADAPTER/FINDINGS.md).
#          An ERROR whose message is "no probe implements ..." is the catalog's
#          gap, not the adapter's: it is listed, and does not fail the test.
#          INCONCLUSIVE (no violation seen, too little power at quick: C-ORD-03
#          on reduce_max) fails nothing either.
# Exits 77, which CTest reports as SKIPPED, when the adapter finds no
# driver, platform or device here.
set -euo pipefail
mode="$1" adapter="$2" kcs="$3" work="$4"
mkdir -p "$work"

listing="$("$kcs" adapter list "$adapter" 2>&1 || true)"
if grep -qiE "no (opencl |vulkan |cuda |physical )?(platform|device|driver)" <<<"$listing"; then
  echo "SKIPPED: the $adapter adapter finds no device here:"
  echo "$listing"
  exit 77
fi

case "$mode" in
  check)
    exec "$kcs" adapter check "$adapter"
    ;;
  certify)
    expected="$5"
    out="$work/certify-quick"
    rm -rf "$out"
    # The operators: the copy (gather), a reduction (reduce_max) and a
    # composite with exp (softmax), over every dtype configuration: 17 s
    # warm and 31 s cold on PoCL on a busy 2-core machine
    # (vendors/opencl/FINDINGS.md, Performance). reduce_sum's k-sweep spends
    # a minute in the oracle, so it stays out.
    status=0
    "$kcs" certify --adapter "$adapter" --depth quick --profile strict -j2 \
      --op gather --op reduce_max --op softmax --out "$out" || status=$?
    # 0: conformant, 1: not conformant (FAILs are judged below); else a usage error.
    if [ "$status" -gt 1 ]; then
      echo "kcs certify exited $status"
      exit 1
    fi
    python3 - "$out/report.json" "$expected" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
predicate = report.get("predicate", report)
expected = [line.split("#")[0].strip() for line in open(sys.argv[2])]
expected = [line for line in expected if line]
problems = []
fails = 0
unprobed = []
for instance in predicate["instances"]:
    verdict = instance["verdict"]
    if verdict in ("PASS", "NOT_APPLICABLE", "UNSUPPORTED", "INCONCLUSIVE"):
        continue
    if verdict == "FAIL" and any(instance["id"].startswith(prefix) for prefix in expected):
        fails += 1
        continue
    cases = instance["cases"]
    message = cases[instance["worst_case"]]["message"] if instance.get("worst_case") is not None else \
        (cases[0]["message"] if cases else "")
    if verdict == "ERROR" and message.startswith("no probe implements"):
        unprobed.append(instance["id"])
        continue
    problems.append(f"{instance['id']}: {verdict} {message[:300]}")
print(f"{len(predicate['instances'])} instances, {fails} expected FAIL(s) (FINDINGS.md)")
for instance in unprobed:
    print("not judged (no probe in the catalog yet):", instance)
for problem in problems:
    print("unexpected:", problem)
sys.exit(1 if problems else 0)
PY
    ;;
  *)
    echo "usage: $0 check|certify ADAPTER KCS WORK_DIR [EXPECTED_FAILS]" >&2
    exit 2
    ;;
esac
