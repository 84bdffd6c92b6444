#!/usr/bin/python3
"""An independent check of a KCS signed report: Debian's PyNaCl verifies the
Ed25519 signature over the DSSE PAE bytes, so that the envelope format is
not only self-consistent with kcs verify.

  verify_with_pynacl.py ENVELOPE PUBKEY [--tamper]

Exit 0 when the envelope verifies (with --tamper: when a copy with one
payload byte changed is refused), 1 otherwise."""
import base64
import hashlib
import json
import sys

import nacl.exceptions
import nacl.signing


def pae(payload_type: bytes, payload: bytes) -> bytes:
    return b"DSSEv1 %d %s %d %s" % (len(payload_type), payload_type, len(payload), payload)


def verifies(envelope: dict, key: nacl.signing.VerifyKey, keyid: str) -> bool:
    payload = base64.b64decode(envelope["payload"], validate=True)
    message = pae(envelope["payloadType"].encode(), payload)
    for signature in envelope["signatures"]:
        if signature.get("keyid", keyid) != keyid:
            continue
        try:
            key.verify(message, base64.b64decode(signature["sig"], validate=True))
            return True
        except nacl.exceptions.BadSignatureError:
            pass
    return False


def main() -> int:
    envelope_file, pubkey_file = sys.argv[1], sys.argv[2]
    tamper = "--tamper" in sys.argv[3:]
    with open(envelope_file, encoding="utf-8") as f:
        envelope = json.load(f)
    with open(pubkey_file, encoding="utf-8") as f:
        pub = json.load(f)
    key_bytes = base64.b64decode(pub["public_key"], validate=True)
    keyid = hashlib.sha256(key_bytes).hexdigest()
    if pub.get("keyid") != keyid:
        print(f"{pubkey_file}: keyid is not the SHA-256 of the public key")
        return 1
    if envelope["payloadType"] != "application/vnd.in-toto+json":
        print(f"payloadType is {envelope['payloadType']!r}")
        return 1
    statement = json.loads(base64.b64decode(envelope["payload"]))
    if statement["_type"] != "https://in-toto.io/Statement/v1" or \
            statement["predicateType"] != "urn:kcs:predicate:conformance-report:v1":
        print("the payload is not a KCS in-toto Statement")
        return 1
    key = nacl.signing.VerifyKey(key_bytes)
    if tamper:
        payload = bytearray(base64.b64decode(envelope["payload"]))
        payload[len(payload) // 2] ^= 0x01
        envelope["payload"] = base64.b64encode(bytes(payload)).decode()
        if verifies(envelope, key, keyid):
            print("PyNaCl accepted a tampered payload")
            return 1
        print("PyNaCl refuses the tampered payload")
        return 0
    if not verifies(envelope, key, keyid):
        print("PyNaCl: no signature verifies over the PAE bytes")
        return 1
    print(f"PyNaCl verifies {envelope_file} with key {keyid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
