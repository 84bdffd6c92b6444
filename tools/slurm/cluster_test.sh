#!/usr/bin/env bash
# The CTest test of label slurm: starts a single-node Slurm cluster in a
# temporary folder (local-cluster), submits a smoke certification of
# reference-cpu as 4 shards with tools/slurm/submit, waits for the merge
# job, verifies the signed merged report, and tears the cluster down. The
# cost model (--costs) makes one exhaustive sweep (unary.tanh f16) nearly
# all of the plan's time, so the shards cut it into 4 parts, one each, and
# the merge folds them.
# Exits 77 (CTest: skipped, with the reason printed) when Slurm cannot be
# started here.
#
#   cluster_test.sh KCS WORK_DIR
set -euo pipefail
kcs=${1:?usage: cluster_test.sh KCS WORK_DIR} work=${2:?usage: cluster_test.sh KCS WORK_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$work"
mkdir -p "$work"
cluster=$work/cluster
trap '"$here/local-cluster" stop "$cluster" > /dev/null 2>&1 || true' EXIT

status=0
"$here/local-cluster" start "$cluster" > "$work/cluster.env" 2> "$work/cluster.err" || status=$?
if [[ $status -ne 0 ]]; then
    cat "$work/cluster.err" >&2
    if [[ $status -eq 77 ]]; then
        echo "SKIPPED: Slurm cannot be started on this machine (see above); the sharded run was not tested" >&2
        exit 77
    fi
    exit 1
fi
# shellcheck source=/dev/null
source "$work/cluster.env"

"$kcs" keygen --out "$work/lab" --label "slurm test" --development > /dev/null
split=v1/C-CMP-01/unary.tanh/f16-f16/shapes-sweep
cat > "$work/costs.json" << EOF
{"predicate": {"instances": [{"id": "$split", "wall_s": 1000, "verdict": "PASS"},
  {"id": "v1/C-CMP-01/unary.exp/f16-f16/shapes-sweep", "wall_s": 0.01, "verdict": "PASS"},
  {"id": "v1/C-CMP-01/unary.log/f16-f16/shapes-sweep", "wall_s": 0.01, "verdict": "PASS"}]}}
EOF
start=$(date +%s.%N)
"$here/submit" --shards 4 --out "$work/run" --key "$work/lab.key" --kcs "$kcs" --wait \
    -- --adapter reference-cpu --depth smoke --costs "$work/costs.json"
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')

fail() { echo "FAILED: $*" >&2; tail -n 20 "$work"/run/logs/*.log >&2 || true; exit 1; }
for i in 0 1 2 3; do
    grep -q '"state": "finished"' "$work/run/shard-$i/report.json" || fail "shard $i has no finished report"
done
"$kcs" verify "$work/run/merged/report.dsse.json" --pubkey "$work/lab.pub" > "$work/verify.out" ||
    { cat "$work/verify.out" >&2; fail "the merged report does not verify"; }
/usr/bin/python3 - "$work/run/merged/report.json" "$split" << 'PY' || fail "the merged report is not the whole plan"
import json, sys
p = json.load(open(sys.argv[1]))["predicate"]
split = sys.argv[2]
assert p["state"] == "finished", p["state"]
assert "shard" not in p, "the merged report still says it is a shard"
assert [s["index"] for s in p["merged_from"]] == [0, 1, 2, 3], p["merged_from"]
assert len(p["instances"]) == p["plan"]["instances"], (len(p["instances"]), p["plan"]["instances"])
assert all(i["verdict"] is not None for i in p["instances"])
# Each shard listed one part of the split sweep beside its own instances.
assert sum(s["instances"] for s in p["merged_from"]) == len(p["instances"]) + 3
folded = next(i for i in p["instances"] if i["id"] == split)
timing = folded["cases"][0]["evidence"]["details"]["sweep_timing"]
assert folded["verdict"] == "PASS" and timing["folded_parts"] == 4, (folded["verdict"], timing)
assert folded["cases"][0]["evidence"]["judged"]["count"] == 63488, folded["cases"][0]["evidence"]["judged"]
print(f"merged report: {len(p['instances'])} instances from 4 shards, {split} folded from 4 parts, "
      f"profile {p['summary']['profile']['verdict']}")
PY
for i in 0 1 2 3; do
    grep -q '"sweep_part"' "$work/run/shard-$i/report.json" || fail "shard $i ran no part of $split"
done
echo "4 shards of reference-cpu at depth smoke, one sweep cut across them, submitted, run and merged by Slurm in $took s"
