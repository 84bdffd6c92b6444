#!/usr/bin/env bash
# The main job's target (main-job, build preset main-job, what tools/certify
# builds) holds kcs, kcs-worker and the adapters, and no test or benchmark.
# Read from the build's own rules without building: `make -n -B` prints
# every command the target would run in a build from scratch.
#   main_job_test.sh BUILD_DIR
set -uo pipefail
build=$1
plan=$(make -C "$build" -n -B main-job 2>&1) || { echo "FAIL: no target main-job: $plan" | head -5; exit 1; }
failures=0
links=$(grep -oE '"Linking [^"]*"' <<<"$plan" | sort -u)
for wanted in 'executable ../bin/kcs"' 'executable ../../bin/kcs-worker"' 'libkcs-adapter-reference-cpu.so"'; do
  grep -qF "$wanted" <<<"$links" || { echo "FAIL: main-job does not link $wanted"; failures=$((failures + 1)); }
done
executables=$(grep -F 'Linking CXX executable' <<<"$links" | grep -vE 'bin/kcs"|bin/kcs-worker"')
[ -z "$executables" ] || { echo "FAIL: main-job links other executables:"; echo "$executables"; failures=$((failures + 1)); }
sources=$(grep -oE 'Building (C|CXX|CUDA) object [^"]+' <<<"$plan" | grep -E '/tests?/|/bench/|_tests?\.dir/|bench[^/]*\.dir/')
[ -z "$sources" ] || { echo "FAIL: main-job compiles tests or benchmarks:"; echo "$sources" | head; failures=$((failures + 1)); }
if ((failures)); then exit 1; fi
echo "main-job: $(grep -c 'Linking' <<<"$links") link steps, $(grep -c 'Building' <<<"$plan") compile steps, no test or benchmark"
