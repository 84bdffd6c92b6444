#!/bin/sh
# Runs one fuzzer for SECONDS from a copy of its seed corpus (the seeds in
# the repository stay as they are); prints libFuzzer's final figures. The
# mutations follow KCS_FUZZ_SEED (default 1), so that a run can be repeated.
# Exit 0 when it found nothing, libFuzzer's status otherwise (the crashing
# input is left in WORK/..).   run_fuzzer.sh FUZZER SEEDS WORK SECONDS MAX_LEN
set -eu
fuzzer=$1 seeds=$2 work=$3 seconds=$4 max_len=$5
rm -rf "$work"
mkdir -p "$work"
cp "$seeds"/* "$work"/
cd "$(dirname "$work")"
exec "$fuzzer" -seed="${KCS_FUZZ_SEED:-1}" -max_total_time="$seconds" -max_len="$max_len" -timeout=20 -rss_limit_mb=4096 \
  -print_final_stats=1 "$work"
