#!/bin/sh
# A signed report of a small real run, for the tests that check envelopes
# with other tools: a development key pair and reduce_max at smoke depth
# on reference-cpu, signed.  make_signed_report.sh KCS DIR
# The run is INCOMPLETE (exit 1): C-ORD-03 on reduce_max is INCONCLUSIVE at
# smoke, where 64 pool rows fall short of the class's power.
set -eu
kcs=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
"$kcs" keygen --out "$dir/test" --development --label "test key" >/dev/null
status=0
"$kcs" certify --adapter reference-cpu --depth smoke --op reduce_max --key "$dir/test.key" --out "$dir/run" >/dev/null ||
  status=$?
test "$status" -eq 1 && test -s "$dir/run/report.dsse.json"
