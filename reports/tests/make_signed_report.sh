#!/bin/sh
# A signed report of a small real run, for the tests that check envelopes
# with other tools: a development key pair and reduce_max at smoke depth
# on reference-cpu, signed.  make_signed_report.sh KCS DIR
set -eu
kcs=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
"$kcs" keygen --out "$dir/test" --development --label "test key" >/dev/null
"$kcs" certify --adapter reference-cpu --depth smoke --op reduce_max --key "$dir/test.key" --out "$dir/run" >/dev/null
test -s "$dir/run/report.dsse.json"
