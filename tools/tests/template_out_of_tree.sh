#!/usr/bin/env bash
# vendors/README.md's "Writing an adapter", as a vendor follows it with
# nothing but an installed KCS: install into a scratch prefix; copy the
# template and rename it in its one place (CMakeLists.txt); build it
# against the prefix; then, with the prefix's kcs, outside the source tree
# and with a bare environment, self-test it (by path and by name through
# KCS_ADAPTER_PATH) and certify it with the template's claims.yaml.
#   template_out_of_tree.sh BUILD_DIR TEMPLATE_SOURCE_DIR
set -euo pipefail
build_dir=$(realpath "$1") template=$(realpath "$2")
scratch="$build_dir/tests/template-out-of-tree"
rm -rf "$scratch"
mkdir -p "$scratch"
fail() { echo "template_out_of_tree: $*" >&2; exit 1; }

prefix="$scratch/prefix"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
for f in bin/kcs bin/kcs-worker include/kcs/adapter.h lib/cmake/kcs/kcsConfig.cmake share/kcs/spec/v1/catalog.yaml; do
  [ -e "$prefix/$f" ] || fail "cmake --install left no $f in the prefix"
done

adapter="$scratch/my-adapter"
cp -r "$template" "$adapter"
sed -i 's/^set(ADAPTER_NAME template)$/set(ADAPTER_NAME acme)/; s/^set(ADAPTER_VENDOR KCS)$/set(ADAPTER_VENDOR ACME)/' \
  "$adapter/CMakeLists.txt"
grep -q '^set(ADAPTER_NAME acme)$' "$adapter/CMakeLists.txt" || fail "the template's CMakeLists.txt has no set(ADAPTER_NAME template)"
cmake -S "$adapter" -B "$adapter/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$adapter/build" >/dev/null
library="$adapter/build/libkcs-adapter-acme.so"
[ -f "$library" ] || fail "the renamed template built no libkcs-adapter-acme.so"

cd "$scratch"  # not the source tree
bare() { env -i PATH=/usr/bin:/bin HOME="$scratch" "$@"; }
kcs="$prefix/bin/kcs"
version=$(bare "$kcs" --version)
grep -qF "carried catalogs ($prefix/share/kcs/spec):" <<<"$version" || fail "the installed kcs does not use its own catalogs: $version"
bare "$kcs" adapter check "$library"
listed=$(bare env KCS_ADAPTER_PATH="$adapter/build" "$kcs" adapter list acme)
grep -q "acme" <<<"$listed" && grep -q "ACME" <<<"$listed" || fail "the adapter does not name itself acme, vendor ACME: $listed"
bare env KCS_ADAPTER_PATH="$adapter/build" "$kcs" certify --adapter acme --claims "$adapter/claims.yaml" \
  --depth smoke --out "$scratch/report" >"$scratch/certify.out" || fail "certify exited $?: $(tail -20 "$scratch/certify.out")"
grep -q "profile core: CONFORMANT" "$scratch/certify.out" || fail "certify is not CONFORMANT: $(tail -20 "$scratch/certify.out")"
grep -q '"adapter_name": *"acme"' "$scratch/report/report.json" || fail "the report does not name the adapter acme"
echo "template_out_of_tree: installed, renamed to acme, built, checked and certified CONFORMANT from $prefix"
