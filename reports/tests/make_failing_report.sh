#!/bin/sh
# The report of a small real run that FAILs: the calibration adapter's
# fast-exp violator on unary at smoke (147 instances, 6 FAIL), for the
# forgery tests.  make_failing_report.sh KCS DIR
set -u
kcs=$1 dir=$2
rm -rf "$dir"
"$kcs" certify --adapter calibration --option violation=fast-exp --depth smoke --op unary --out "$dir" >/dev/null
status=$?
# 1: NON-CONFORMANT, as it must be; anything else is a broken fixture.
test "$status" -eq 1 && test -s "$dir/report.json"
