#!/usr/bin/env bash
# A standalone repro agrees with KCS's verdict on this machine: the case
# FAILs under `kcs run` exactly when the repro (which calls the library
# alone) sees the behaviour (exit 0; 1 when it does not). A library or CPU
# on which the behaviour is gone passes both ways; a disagreement fails,
# saying which side changed. Shared by every library adapter (BLAS, oneDNN).
#   repro_agrees.sh KCS ADAPTER CASE_ID [--profile P] [--option K=V]... -- REPRO [REPRO ARGS...]
#   --profile P   the profile the case is planned under (default core;
#                 C-ORD-03 needs strict, where batch_invariant is judged)
#   --option K=V  an adapter option for `kcs run` (repeatable), e.g.
#                 threads=1 where the adapter takes it
#   --claims FILE the claims `kcs run` judges by (default the adapter's
#                 claims.yaml), e.g. for an option that changes a claim
set -u
kcs=$1 adapter=$2 case_id=$3
shift 3
profile=core
options=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  case $1 in
    --profile) profile=$2; shift 2 ;;
    --option) options+=(--option "$2"); shift 2 ;;
    --claims) options+=(--claims "$2"); shift 2 ;;
    *) echo "repro_agrees: unknown argument $1" >&2; exit 1 ;;
  esac
done
if [ "${1:-}" != -- ]; then echo "repro_agrees: no -- before the repro" >&2; exit 1; fi
shift
json=$("$kcs" run --adapter "$adapter" --profile "$profile" --depth quick --case "$case_id" --seed 1 "${options[@]}" --json)
kcs_rc=$?
if [ "$kcs_rc" -ge 2 ]; then echo "repro_agrees: kcs run failed (exit $kcs_rc)" >&2; exit 1; fi
verdict=$(printf '%s' "$json" | grep -o '"verdict": *"[A-Z_]*"' | head -1 | sed 's/.*"\([A-Z_]*\)"$/\1/')
"$@"
repro_rc=$?
if [ "$repro_rc" -ge 2 ]; then echo "repro_agrees: the repro failed (exit $repro_rc)" >&2; exit 1; fi
echo "repro_agrees: $adapter $case_id ($profile): KCS says $verdict; the repro $([ "$repro_rc" -eq 0 ] && echo sees || echo does not see) the behaviour"
if [ "$verdict" = FAIL ] && [ "$repro_rc" -eq 0 ]; then exit 0; fi
if [ "$verdict" = PASS ] && [ "$repro_rc" -eq 1 ]; then
  echo "repro_agrees: the finding is gone on this library and CPU: revisit FINDINGS.md and claims.yaml"
  exit 0
fi
echo "repro_agrees: KCS and the standalone repro disagree" >&2
exit 1
