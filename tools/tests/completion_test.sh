#!/usr/bin/env bash
# kcs completion bash, sourced into bash and asked as the shell asks it
# (COMP_WORDS, COMP_CWORD): subcommands, nested subcommands, options of
# the command typed, the catalog's depths and the adapters found.
#   completion_test.sh KCS
set -uo pipefail
kcs=$1
script=$("$kcs" completion bash) || { echo "completion_test: kcs completion bash failed" >&2; exit 1; }
eval "$script"
failures=0
expect() {  # expect "WORDS TYPED" "a completion that must be offered" ["one that must not"]
  read -r -a COMP_WORDS <<<"$1"
  [[ "$1" == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _kcs
  local offered=" ${COMPREPLY[*]} "
  if [[ "$offered" != *" $2 "* ]]; then
    echo "completion_test: '$1' offers [${COMPREPLY[*]}], not $2" >&2; failures=$((failures + 1))
  fi
  if [ -n "${3:-}" ] && [[ "$offered" == *" $3 "* ]]; then
    echo "completion_test: '$1' offers $3" >&2; failures=$((failures + 1))
  fi
}
expect "kcs cert" certify plan
expect "kcs adapter " check certify
expect "kcs adapter li" list
expect "kcs certify --de" --depth
expect "kcs certify --depth " quick
expect "kcs certify --baseline x --fl" --flakes
expect "kcs certify --adapter ref" reference-cpu
expect "kcs plan --" --json --baseline
expect "kcs incident show --" --json
expect "kcs spec " mustpass
((failures == 0)) && echo "completion_test: every completion offered" || exit 1
