#!/usr/bin/env python3
"""Writes Tests/LedgerTests/Vectors/grants/grants.json: recovery and unban grants (onym-wire §3.12) with
their grant_signing_bytes (canonical JSON without `signature`, §1.1), grantRef (SHA-256 of those bytes,
lowercase hex, §1.3) and the Ed25519 signature by the authority's operator seed (§2, base64 with padding).

Independent of the Swift code: canonical JSON is Python's json with sorted keys, no whitespace, raw
UTF-8 and unescaped `/` (the reference's serde_json rules for these all-string, small-integer objects);
Ed25519 is RFC 8032 §5.1 written out below (pure Python, deterministic).

Run: python3 scripts/make-grant-vectors.py
"""
import base64, hashlib, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Tests", "LedgerTests", "Vectors", "grants", "grants.json")

# RFC 8032 §5.1 Ed25519, as in its reference implementation (§6).
p = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
d = -121665 * pow(121666, p - 2, p) % p
I = pow(2, (p - 1) // 4, p)

def recover_x(y, sign):
    x2 = (y * y - 1) * pow(d * y * y + 1, p - 2, p)
    x = pow(x2, (p + 3) // 8, p)
    if (x * x - x2) % p != 0:
        x = x * I % p
    if x % 2 != sign:
        x = p - x
    return x

By = 4 * pow(5, p - 2, p) % p
B = (recover_x(By, 0), By, 1, recover_x(By, 0) * By % p)

def add(P, Q):
    A = (P[1] - P[0]) * (Q[1] - Q[0]) % p
    Bv = (P[1] + P[0]) * (Q[1] + Q[0]) % p
    C = 2 * P[3] * Q[3] * d % p
    D = 2 * P[2] * Q[2] % p
    E, F, G, H = Bv - A, D - C, D + C, Bv + A
    return (E * F % p, G * H % p, F * G % p, E * H % p)

def mul(s, P):
    Q = (0, 1, 1, 0)
    while s > 0:
        if s & 1:
            Q = add(Q, P)
        P = add(P, P)
        s >>= 1
    return Q

def encode(P):
    zinv = pow(P[2], p - 2, p)
    x, y = P[0] * zinv % p, P[1] * zinv % p
    return (y | ((x & 1) << 255)).to_bytes(32, "little")

def sha512_int(data):
    return int.from_bytes(hashlib.sha512(data).digest(), "little")

def sign(seed, message):
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    public = encode(mul(a, B))
    r = sha512_int(h[32:] + message) % L
    R = encode(mul(r, B))
    k = sha512_int(R + public + message) % L
    S = (r + k * a) % L
    return public, R + S.to_bytes(32, "little")

def canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")

OPERATOR_SEED = bytes([0x03] * 32)
GRANTEE = "onym:key:" + "ab" * 32
CASES = [
    ("recovery", {"grantType": "onym-recovery-grant-v1", "grantVersion": 1, "caseId": "case-ban",
                  "grantee": GRANTEE, "authority": "onym:component:authority-a", "issuedAt": "2026-08-12T01:00:00Z"}),
    ("unban", {"grantType": "onym-unban-grant-v1", "grantVersion": 1, "caseId": "case-ban",
               "grantee": GRANTEE, "authority": "onym:component:authority-a", "issuedAt": "2026-08-13T00:00:00Z"}),
    ("slash-and-non-ascii-case-id", {"grantType": "onym-unban-grant-v1", "grantVersion": 1,
                                     "caseId": "cases/ü-7", "grantee": GRANTEE,
                                     "authority": "onym:component:authority-a",
                                     "issuedAt": "2026-08-13T00:00:00.5+02:00"}),
]

vectors = []
for name, grant in CASES:
    signing = canonical(grant)
    public, signature = sign(OPERATOR_SEED, signing)
    signed = dict(grant, signature=base64.b64encode(signature).decode())
    vectors.append({
        "name": name,
        "operatorSeed": OPERATOR_SEED.hex(),
        "operatorKey": "onym:key:" + public.hex(),
        "grant": canonical(signed).decode("utf-8"),
        "signingBytes": signing.decode("utf-8"),
        "grantRef": hashlib.sha256(signing).hexdigest(),
        "signature": base64.b64encode(signature).decode(),
    })

os.makedirs(os.path.dirname(OUT), exist_ok=True)
with open(OUT, "w", encoding="utf-8") as f:
    json.dump({"source": "scripts/make-grant-vectors.py", "vectors": vectors}, f, indent=2, ensure_ascii=False)
    f.write("\n")
