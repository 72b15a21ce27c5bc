"""Shared pieces of the Python tlog-witness server and client, written from the C2SP specs (signed-note,
tlog-checkpoint, tlog-cosignature, tlog-witness) and RFC 6962 / RFC 9162, independently of onym-ledger's Swift
code, with the `cryptography` package's Ed25519."""
import base64
import hashlib
import struct

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives import serialization

DASH = "\u2014"
EMPTY_ROOT = hashlib.sha256(b"").digest()


def key_id(name, kind, public):
    return hashlib.sha256(name.encode() + b"\n" + bytes([kind]) + public).digest()[:4]


def vkey(name, kind, public):
    return f"{name}+{key_id(name, kind, public).hex()}+" + base64.b64encode(bytes([kind]) + public).decode()


def parse_vkey(text):
    """(name, key ID, type, Ed25519PublicKey); raises ValueError on a bad key or key ID."""
    name, hex_id, encoded = text.strip().split("+", 2)
    raw = base64.b64decode(encoded, validate=True)
    kind, public = raw[0], raw[1:]
    if len(public) != 32 or key_id(name, kind, public).hex() != hex_id:
        raise ValueError(f"bad verifier key {text}")
    return name, bytes.fromhex(hex_id), kind, Ed25519PublicKey.from_public_bytes(public)


def private_key(seed_hex):
    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(seed_hex))


def public_bytes(private):
    return private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def split_note(note):
    """(text including its final newline, [(name, raw signature bytes)]); raises ValueError."""
    if not note.endswith("\n") or "\n\n" not in note:
        raise ValueError("not a signed note")
    text, _, rest = note.rpartition("\n\n")
    signatures = []
    for line in rest.split("\n")[:-1]:
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != DASH:
            raise ValueError(f"bad signature line {line!r}")
        signatures.append((parts[1], base64.b64decode(parts[2], validate=True)))
    if not signatures:
        raise ValueError("a note has at least one signature")
    return text + "\n", signatures


def sign_note(text, name, private):
    public = public_bytes(private)
    line = base64.b64encode(key_id(name, 0x01, public) + private.sign(text.encode())).decode()
    return f"{DASH} {name} {line}\n"


def cosign(text, name, private, time):
    public = public_bytes(private)
    message = f"cosignature/v1\ntime {time}\n".encode() + text.encode()
    payload = key_id(name, 0x04, public) + struct.pack(">Q", time) + private.sign(message)
    return f"{DASH} {name} {base64.b64encode(payload).decode()}\n"


def verify_cosignature(text, line, witness_vkey):
    """The timestamp of `line` when it is a valid cosignature/v1 by `witness_vkey` on `text`, else None."""
    name, kid, kind, public = parse_vkey(witness_vkey)
    parts = line.rstrip("\n").split(" ")
    if kind != 0x04 or len(parts) != 3 or parts[0] != DASH or parts[1] != name:
        return None
    raw = base64.b64decode(parts[2], validate=True)
    if len(raw) != 76 or raw[:4] != kid:
        return None
    (time,) = struct.unpack(">Q", raw[4:12])
    try:
        public.verify(raw[12:], f"cosignature/v1\ntime {time}\n".encode() + text.encode())
    except InvalidSignature:
        return None
    return time


def parse_checkpoint(text):
    """(origin, size, root) of a checkpoint body, extension lines allowed; raises ValueError."""
    lines = text.split("\n")
    if len(lines) < 4 or lines[-1] != "" or not lines[0] or any(not line for line in lines[3:-1]):
        raise ValueError("not a checkpoint")
    size_text = lines[1]
    if not size_text.isdigit() or (size_text != "0" and size_text.startswith("0")):
        raise ValueError("bad tree size")
    root = base64.b64decode(lines[2], validate=True)
    if len(root) != 32:
        raise ValueError("bad root hash")
    return lines[0], int(size_text), root


# RFC 6962 §2.1 hashing.
def leaf_hash(entry):
    return hashlib.sha256(b"\x00" + entry).digest()


def node_hash(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def split_point(n):
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(leaves):
    if not leaves:
        return EMPTY_ROOT
    if len(leaves) == 1:
        return leaves[0]
    k = split_point(len(leaves))
    return node_hash(mth(leaves[:k]), mth(leaves[k:]))


def consistency_proof(m, leaves):
    """RFC 6962 §2.1.2 PROOF(m, D[n]) over leaf hashes."""
    def subproof(m, leaves, complete):
        n = len(leaves)
        if m == n:
            return [] if complete else [mth(leaves)]
        k = split_point(n)
        if m <= k:
            return subproof(m, leaves[:k], complete) + [mth(leaves[k:])]
        return subproof(m - k, leaves[k:], False) + [mth(leaves[:k])]
    if m == 0 or m == len(leaves):
        return []
    return subproof(m, leaves, True)


def verify_consistency(old_size, new_size, old_root, new_root, proof):
    """RFC 9162 §2.1.4.2 verification."""
    if old_size > new_size:
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    if old_size == 0:
        return not proof
    if old_size & (old_size - 1) == 0:
        proof = [old_root] + list(proof)
    if not proof:
        return False
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == old_root and sr == new_root and sn == 0
