#!/usr/bin/env bash
# PEM keys, as other tools read and write them (OpenSSL): kcs keygen
# --format pem writes keys openssl reads; a run signed with one verifies
# with kcs and with openssl itself (Ed25519 over the envelope's DSSE PAE);
# a key openssl made signs and verifies in kcs as it is; the wrong public
# key is refused.
#   pem_keys_test.sh KCS SCRATCH
set -euo pipefail
kcs=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch" && cd "$scratch"
fail() { echo "pem_keys_test: $*" >&2; exit 1; }

"$kcs" keygen --out acme --label "ACME lab" --format pem >/dev/null
openssl pkey -in acme.key -noout || fail "openssl cannot read the PEM secret key kcs wrote"
openssl pkey -pubin -in acme.pub -noout || fail "openssl cannot read the PEM public key kcs wrote"
[ "$(stat -c %a acme.key)" = 600 ] || fail "the PEM secret key is not mode 0600"

"$kcs" certify --adapter reference-cpu --depth smoke --op reduce_max --key acme.key --out run >/dev/null || true
[ -f run/report.dsse.json ] || fail "certify --key acme.key (PEM) wrote no envelope"
"$kcs" verify run/report.dsse.json --pubkey acme.pub >/dev/null || fail "kcs verify refused the PEM public key"

# openssl verifies the envelope's signature: Ed25519 over DSSE's PAE.
/usr/bin/python3 - <<'PY'
import base64, json
envelope = json.load(open("run/report.dsse.json"))
kind, body = envelope["payloadType"].encode(), base64.b64decode(envelope["payload"])
open("pae.bin", "wb").write(b"DSSEv1 %d %s %d %s" % (len(kind), kind, len(body), body))
open("signature.bin", "wb").write(base64.b64decode(envelope["signatures"][0]["sig"]))
PY
openssl pkeyutl -verify -pubin -inkey acme.pub -rawin -in pae.bin -sigfile signature.bin >/dev/null ||
  fail "openssl does not verify the envelope kcs signed with the PEM key"

# A key openssl made serves as it is.
openssl genpkey -algorithm ed25519 -out other.key 2>/dev/null && chmod 600 other.key
openssl pkey -in other.key -pubout -out other.pub
"$kcs" certify --adapter reference-cpu --depth smoke --op reduce_max --signer other.pub --out run2 >/dev/null || true
"$kcs" sign run2/report.json --key other.key --out other.dsse.json >/dev/null || fail "kcs sign refused openssl's key"
"$kcs" verify other.dsse.json --pubkey other.pub >/dev/null || fail "kcs verify refused openssl's public key"
if "$kcs" verify other.dsse.json --pubkey acme.pub >/dev/null 2>&1; then fail "a report verified with the wrong PEM key"; fi
echo "pem_keys_test: PEM keys written, read and verified both ways with OpenSSL"
