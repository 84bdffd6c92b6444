#!/usr/bin/env bash
# tools/certify answers a usage error (exit 2, with a did-you-mean hint) and
# --help (exit 0) before it installs or builds anything: cmake, dpkg-query
# and apt-get are replaced by stubs that leave a mark if called.
#   certify_usage_test.sh SOURCE_DIR
set -uo pipefail
root=$1
stubs=$(mktemp -d)
trap 'rm -rf "$stubs"' EXIT
for tool in cmake dpkg-query apt-get; do
  printf '#!/bin/sh\ntouch "%s/called-%s"\nexit 1\n' "$stubs" "$tool" > "$stubs/$tool"
  chmod +x "$stubs/$tool"
done
failures=0
expect() {  # expect RC TEXT ARGS...: exit code RC, TEXT in the output, nothing built
  local rc=$1 text=$2; shift 2
  local output status
  output=$(PATH="$stubs:$PATH" "$root/tools/certify" "$@" 2>&1 </dev/null)
  status=$?
  if [ "$status" -ne "$rc" ]; then echo "FAIL: tools/certify $*: exit $status, expected $rc"; failures=$((failures + 1)); fi
  if [[ "$output" != *"$text"* ]]; then echo "FAIL: tools/certify $*: no '$text' in: $output"; failures=$((failures + 1)); fi
  if compgen -G "$stubs/called-*" >/dev/null; then
    echo "FAIL: tools/certify $*: ran $(ls "$stubs" | grep called- | tr '\n' ' ')before answering"
    failures=$((failures + 1)); rm -f "$stubs"/called-*
  fi
}
expect 2 "unknown adapter 'vulcan' (did you mean 'vulkan'?)" vulcan
expect 2 "unknown adapter 'refrence-cpu' (did you mean 'reference-cpu'?)" reference-cpu refrence-cpu
expect 2 "unknown adapter 'nonsense'; adapters: reference-cpu opencl" nonsense
expect 2 "unknown option '--dept'" --dept
expect 0 "tools/certify [ADAPTER ...]" --help
# A known name passes the check and reaches the build (the stubs): the check
# does not refuse good names.
output=$(PATH="$stubs:$PATH" "$root/tools/certify" opencl 2>&1 </dev/null)
if ! compgen -G "$stubs/called-*" >/dev/null; then echo "FAIL: tools/certify opencl did not reach the build: $output"; failures=$((failures + 1)); fi
if ((failures)); then exit 1; fi
echo "tools/certify checks its arguments before building: 6 checks passed"
