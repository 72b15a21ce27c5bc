#!/usr/bin/env python3
"""Writes Tests/LedgerTests/Vectors/ed25519.json (Wycheproof shape) for strict Ed25519 verification.

RFC 8032 §7.1 tests 1–3 are quoted; the adversarial cases are derived from test 1 by the byte
manipulations named in each comment. The expected result of every case is the rule of the
reference's `verify_strict` (ed25519-dalek), not what any library here answers.

Run: python3 scripts/make-ed25519-vectors.py
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Tests", "LedgerTests", "Vectors", "ed25519.json")
L = 2**252 + 27742317777372353535851937790883648493

RFC = [
    ("RFC 8032 7.1 TEST 1", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("RFC 8032 7.1 TEST 2", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ("RFC 8032 7.1 TEST 3", "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
]
IDENTITY = "01" + "00" * 31
ORDER8 = "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"  # a point of order 8

tests = []
def case(comment, key, msg, sig, result, flags=()):
    tests.append({"tcId": len(tests) + 1, "comment": comment, "publicKey": key, "message": msg,
                  "signature": sig, "result": result, "flags": list(flags)})

for comment, key, msg, sig in RFC:
    case(comment, key, msg, sig, "valid")

key1, msg1, sig1 = RFC[0][1], RFC[0][2], RFC[0][3]
r, s = sig1[:64], int.from_bytes(bytes.fromhex(sig1[64:]), "little")
case("TEST 1 with S + L: same point equation, non-canonical scalar (malleability)", key1, msg1,
     r + (s + L).to_bytes(32, "little").hex(), "invalid", ["NonCanonicalS"])
case("TEST 1 with S + 2L: non-canonical scalar", key1, msg1, r + (s + 2 * L).to_bytes(32, "little").hex(),
     "invalid", ["NonCanonicalS"])
case("TEST 1 with S's top bit set", key1, msg1, r + (s | (1 << 255)).to_bytes(32, "little").hex(), "invalid",
     ["NonCanonicalS"])
case("identity public key with R = identity, S = 0: passes the cofactorless equation for any message",
     IDENTITY, "", IDENTITY + "00" * 32, "invalid", ["SmallOrderKey"])
case("identity public key, different message", IDENTITY, "72", IDENTITY + "00" * 32, "invalid", ["SmallOrderKey"])
case("order-8 public key with R = identity, S = 0", ORDER8, "", IDENTITY + "00" * 32, "invalid", ["SmallOrderKey"])
case("TEST 1 key, R = identity (small-order R), S = 0", key1, msg1, IDENTITY + "00" * 32, "invalid", ["SmallOrderR"])
case("TEST 1 with the message changed", key1, "00", sig1, "invalid", ["WrongMessage"])
case("TEST 2 with the last message bit flipped", RFC[1][1], "73", RFC[1][3], "invalid", ["WrongMessage"])
case("TEST 1 with R's first byte changed", key1, msg1, ("%02x" % (int(sig1[:2], 16) ^ 1)) + sig1[2:], "invalid",
     ["ModifiedR"])
case("TEST 1 signature under TEST 2's key", RFC[1][1], msg1, sig1, "invalid", ["WrongKey"])
case("TEST 1 with a 63-byte signature", key1, msg1, sig1[:-2], "invalid", ["WrongLength"])
case("TEST 1 with a 65-byte signature", key1, msg1, sig1 + "00", "invalid", ["WrongLength"])
case("TEST 1 with a 31-byte public key", key1[:-2], msg1, sig1, "invalid", ["WrongLength"])
case("TEST 1 with a 33-byte public key", key1 + "00", msg1, sig1, "invalid", ["WrongLength"])
case("empty signature", key1, msg1, "", "invalid", ["WrongLength"])
case("all-zero signature", key1, msg1, "00" * 64, "invalid", ["SmallOrderR"])
case("non-canonical public key encoding (y = p + 1, a small-order point)", "ee" + "ff" * 30 + "7f", "",
     IDENTITY + "00" * 32, "invalid", ["SmallOrderKey", "NonCanonicalKey"])

doc = {"algorithm": "EDDSA", "generatorVersion": "onym-ledger scripts/make-ed25519-vectors.py",
       "notes": {"NonCanonicalS": "S >= L must be rejected (RFC 8032 5.1.7, verify_strict)",
                 "SmallOrderKey": "small-order public keys are rejected (verify_strict)",
                 "SmallOrderR": "small-order R is rejected (verify_strict)",
                 "NonCanonicalKey": "a public key encoding y >= p is rejected"},
       "numberOfTests": len(tests), "tests": tests}
with open(OUT, "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
print(f"{len(tests)} cases written to {os.path.relpath(OUT)}")
