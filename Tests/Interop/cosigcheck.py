#!/usr/bin/env python3
"""cosigcheck NOTE VKEY...: checks a C2SP signed note's signatures by the given verifier keys.

Written from the specs (C2SP signed-note: Ed25519 type 0x01; C2SP tlog-cosignature: cosignature/v1,
type 0x04), independently of onym-ledger's Swift code, with the `cryptography` package's Ed25519 — the
second implementation the witness tests check cosignatures against (golang.org/x/mod 0.7 predates
cosignature/v1). Prints "ok <name> <type> [time]" per verified key; exits 1 if any key has no valid signature.
"""
import base64
import hashlib
import struct
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def parse_vkey(text):
    name, key_id, encoded = text.strip().split("+", 2)
    raw = base64.b64decode(encoded, validate=True)
    kind, key = raw[0], raw[1:]
    derived = hashlib.sha256(name.encode() + b"\n" + bytes([kind]) + key).digest()[:4]
    if derived.hex() != key_id or len(key) != 32:
        raise SystemExit(f"FAIL {text}: key ID {key_id} is not {derived.hex()}")
    return name, derived, kind, Ed25519PublicKey.from_public_bytes(key)


def main():
    note = open(sys.argv[1], encoding="utf-8").read()
    text, _, signatures = note.rpartition("\n\n")
    text += "\n"
    lines = [line for line in signatures.split("\n") if line]
    failed = False
    for vkey in sys.argv[2:]:
        name, key_id, kind, public_key = parse_vkey(vkey)
        verified = None
        for line in lines:
            dash, signer, encoded = line.split(" ")
            raw = base64.b64decode(encoded, validate=True)
            if dash != "\u2014" or signer != name or raw[:4] != key_id:
                continue
            try:
                if kind == 0x01:
                    public_key.verify(raw[4:], text.encode())
                    verified = "ed25519"
                elif kind == 0x04:
                    (time,) = struct.unpack(">Q", raw[4:12])
                    message = f"cosignature/v1\ntime {time}\n".encode() + text.encode()
                    public_key.verify(raw[12:], message)
                    verified = f"cosignature/v1 {time}"
            except InvalidSignature:
                continue
        if verified:
            print(f"ok {name} {verified}")
        else:
            print(f"FAIL {name}: no valid signature")
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
