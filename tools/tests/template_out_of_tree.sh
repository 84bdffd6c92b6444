#!/usr/bin/env bash
# Installs KCS from a build tree into a scratch prefix, builds the template
# adapter against that installation as a vendor would (out of tree), and
# runs the ABI self-test on the result.
#   template_out_of_tree.sh BUILD_DIR TEMPLATE_SOURCE_DIR KCS_BINARY
set -euo pipefail
build_dir=$(realpath "$1") template=$(realpath "$2") kcs=$(realpath "$3")
scratch="$build_dir/tests/template-out-of-tree"
rm -rf "$scratch"
mkdir -p "$scratch"

cmake --install "$build_dir" --prefix "$scratch/prefix" >/dev/null
test -f "$scratch/prefix/include/kcs/adapter.h"
cmake -S "$template" -B "$scratch/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$scratch/build" >/dev/null
"$kcs" adapter check "$scratch/build/libkcs-adapter-template.so"
