#!/usr/bin/env python3
"""Writes Tests/LedgerTests/Vectors/canonical-json/: one case per rule of the ledger's canonical JSON.

Each case is NAME.input (raw bytes) plus NAME.expected (the canonical bytes) or NAME.error (the
LedgerFormatError code). Expected bytes are written out by hand below from the reference rules
(onym-wire.md §1.1); nothing here computes them, so the files are an independent statement of the
rules that a second implementation (e.g. the Rust reference) can read too.

jcs-compatible.txt lists the valid cases whose expected output is also the RFC 8785 (JCS) output:
ASCII or BMP-below-surrogate keys, integers, no characters JCS escapes differently.

Run: python3 scripts/make-canonical-vectors.py
"""
import os, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Tests", "LedgerTests", "Vectors", "canonical-json")

# (name, input bytes, expected bytes or None, error code or None, jcs-compatible)
CASES = []

def ok(name, given, expected, jcs=True):
    CASES.append((name, given if isinstance(given, bytes) else given.encode(), expected.encode() if isinstance(expected, str) else expected, None, jcs))

def err(name, given, code):
    CASES.append((name, given if isinstance(given, bytes) else given.encode(), None, code, False))

# --- The reference's own test cases (onym-wire.md §1.1) ---
ok("ref-keys-sort-by-utf8-byte-order", '{"reporter":1,"reportId":2,"reportVersion":3}', '{"reportId":2,"reportVersion":3,"reporter":1}')
ok("ref-uppercase-before-lowercase", '{"apple":1,"Zebra":2}', '{"Zebra":2,"apple":1}')
ok("ref-does-not-escape-slashes", '{"a":"https://x/y"}', '{"a":"https://x/y"}', jcs=True)
ok("ref-stable-across-input-order-a", '{"a":1,"b":2}', '{"a":1,"b":2}')
ok("ref-stable-across-input-order-b", '{"b":2,"a":1}', '{"a":1,"b":2}')
ok("ref-drops-nothing-when-parsing", '{"b":2,"signatures":["x"],"a":1}', '{"a":1,"b":2,"signatures":["x"]}')

# --- Structure and whitespace ---
ok("empty-object", '{}', '{}')
ok("whitespace-removed", ' { "a" : 1 , "b" : [ 1 , 2 ] } ', '{"a":1,"b":[1,2]}')
ok("whitespace-tab-cr-lf", '{\t"a":\r\n1\n}', '{"a":1}')
ok("nested-objects-sorted", '{"z":{"b":1,"a":2},"a":{"d":{"y":1,"x":2}}}', '{"a":{"d":{"x":2,"y":1}},"z":{"a":2,"b":1}}')
ok("arrays-keep-order", '{"a":[3,1,2]}', '{"a":[3,1,2]}')
ok("objects-in-arrays-sorted", '{"a":[{"b":1,"a":2},{"d":1,"c":2}]}', '{"a":[{"a":2,"b":1},{"c":2,"d":1}]}')
ok("empty-array", '{"a":[]}', '{"a":[]}')
ok("literals", '{"t":true,"f":false,"n":null}', '{"f":false,"n":null,"t":true}')
ok("key-prefix-sorts-first", '{"ab":1,"a":2}', '{"a":2,"ab":1}')
ok("digits-before-letters", '{"a":1,"1":2,"_":3,"A":4}', '{"1":2,"A":4,"_":3,"a":1}')

# --- Integers ---
ok("integer-zero", '{"n":0}', '{"n":0}')
ok("integer-negative", '{"n":-42}', '{"n":-42}')
ok("integer-max-safe", '{"n":9007199254740991}', '{"n":9007199254740991}')
ok("integer-min-safe", '{"n":-9007199254740991}', '{"n":-9007199254740991}')
ok("integer-negative-zero-normalizes", '{"n":-0}', '{"n":0}', jcs=False)
err("integer-above-max-safe", '{"n":9007199254740992}', "integerOutOfRange")
err("integer-below-min-safe", '{"n":-9007199254740992}', "integerOutOfRange")
err("integer-huge", '{"n":123456789012345678901234567890}', "integerOutOfRange")
err("float-fraction", '{"n":1.0}', "floatNotAllowed")
err("float-exponent", '{"n":1e2}', "floatNotAllowed")
err("float-exponent-upper", '{"n":1E2}', "floatNotAllowed")
err("float-negative-fraction", '{"n":-0.5}', "floatNotAllowed")
err("leading-zero", '{"n":01}', "invalidJSON")
err("leading-plus", '{"n":+1}', "invalidJSON")
err("bare-minus", '{"n":-}', "invalidJSON")
err("hex-number", '{"n":0x10}', "invalidJSON")

# --- Strings and escapes ---
ok("escaped-slash-input-unescaped-output", '{"a":"x\\/y"}', '{"a":"x/y"}')
ok("short-escapes-kept", '{"a":"\\b\\t\\n\\f\\r"}', '{"a":"\\b\\t\\n\\f\\r"}')
ok("control-u0001-lowercase-hex", '{"a":"\\u0001"}', '{"a":"\\u0001"}')
ok("control-u001f-lowercase-hex", '{"a":"\\u001F"}', '{"a":"\\u001f"}')
ok("control-u000b", '{"a":"\\u000b"}', '{"a":"\\u000b"}')
ok("control-nul", '{"a":"\\u0000"}', '{"a":"\\u0000"}')
ok("short-escape-from-u-form", '{"a":"\\u0008\\u0009\\u000a\\u000c\\u000d"}', '{"a":"\\b\\t\\n\\f\\r"}')
ok("quote-and-backslash", '{"a":"\\"\\\\"}', '{"a":"\\"\\\\"}')
ok("del-raw", '{"a":"\\u007f"}', '{"a":"\x7f"}')
ok("non-ascii-escape-becomes-raw", '{"a":"\\u00e9"}', '{"a":"\u00e9"}')
ok("non-ascii-raw-stays-raw", '{"a":"\u00e9\u4e2d"}', '{"a":"\u00e9\u4e2d"}')
ok("line-separator-raw", '{"a":"\\u2028\\u2029"}', '{"a":"\u2028\u2029"}')
ok("surrogate-pair-becomes-raw", '{"a":"\\ud83d\\ude00"}', '{"a":"\U0001F600"}')
ok("uppercase-hex-escape-accepted", '{"a":"\\u00E9"}', '{"a":"\u00e9"}')
ok("escaped-key", '{"\\u0061":1}', '{"a":1}')
ok("empty-string", '{"a":""}', '{"a":""}')
err("lone-high-surrogate", '{"a":"\\ud83d"}', "loneSurrogate")
err("lone-low-surrogate", '{"a":"\\ude00"}', "loneSurrogate")
err("high-surrogate-then-non-surrogate", '{"a":"\\ud83d\\u0041"}', "loneSurrogate")
err("reversed-surrogates", '{"a":"\\ude00\\ud83d"}', "loneSurrogate")
err("raw-control-in-string", b'{"a":"\x01"}', "invalidJSON")
err("raw-newline-in-string", b'{"a":"x\ny"}', "invalidJSON")
err("invalid-escape", '{"a":"\\x41"}', "invalidJSON")
err("short-unicode-escape", '{"a":"\\u12"}', "invalidJSON")
err("unterminated-string", '{"a":"abc', "invalidJSON")
err("single-quotes", "{'a':1}", "invalidJSON")

# --- UTF-8 ---
err("utf8-overlong-slash", b'{"a":"\xc0\xaf"}', "invalidUTF8")
err("utf8-overlong-3byte", b'{"a":"\xe0\x80\xaf"}', "invalidUTF8")
err("utf8-encoded-surrogate", b'{"a":"\xed\xa0\x80"}', "invalidUTF8")
err("utf8-above-max", b'{"a":"\xf4\x90\x80\x80"}', "invalidUTF8")
err("utf8-lone-continuation", b'{"a":"\x80"}', "invalidUTF8")
err("utf8-truncated", b'{"a":"\xe4\xb8"}', "invalidUTF8")
err("utf8-invalid-byte-ff", b'{"a":"\xff"}', "invalidUTF8")
err("latin1-byte", b'{"a":"caf\xe9"}', "invalidUTF8")

# --- Non-ASCII keys: UTF-8 byte order (= code point order), not UTF-16 (JCS) ---
ok("non-ascii-keys-utf8-order", '{"\U0001F600":1,"\uFB01":2,"z":3}', '{"z":3,"\uFB01":2,"\U0001F600":1}', jcs=False)
ok("non-ascii-key-after-ascii", '{"\u00e9":1,"e":2}', '{"e":2,"\u00e9":1}')
ok("precomposed-and-decomposed-keys-differ", '{"\u00e9":1,"e\u0301":2}', '{"e\u0301":2,"\u00e9":1}')

# --- Duplicates ---
err("duplicate-key", '{"a":1,"a":2}', "duplicateKey")
err("duplicate-key-nested", '{"x":{"a":1,"b":2,"a":3}}', "duplicateKey")
err("duplicate-key-via-escape", '{"a":1,"\\u0061":2}', "duplicateKey")
err("duplicate-key-unsorted", '{"b":1,"a":2,"b":3}', "duplicateKey")

# --- Top level and trailing bytes ---
err("top-level-array", '[1,2]', "notAnObject")
err("top-level-string", '"a"', "notAnObject")
err("top-level-number", '1', "notAnObject")
err("top-level-null", 'null', "notAnObject")
err("empty-input", '', "invalidJSON")
err("whitespace-only", '   ', "invalidJSON")
err("trailing-object", '{}{}', "trailingBytes")
err("trailing-garbage", '{"a":1}x', "trailingBytes")
err("trailing-nul", b'{"a":1}\x00', "trailingBytes")
ok("trailing-whitespace-allowed", '{"a":1}\n', '{"a":1}')
err("byte-order-mark", b'\xef\xbb\xbf{"a":1}', "byteOrderMark")
err("trailing-comma-object", '{"a":1,}', "invalidJSON")
err("trailing-comma-array", '{"a":[1,]}', "invalidJSON")
err("missing-colon", '{"a" 1}', "invalidJSON")
err("unquoted-key", '{a:1}', "invalidJSON")
err("bare-word", '{"a":nul}', "invalidJSON")
err("capitalized-literal", '{"a":True}', "invalidJSON")
err("comment", '{"a":1/*c*/}', "invalidJSON")
err("unterminated-object", '{"a":1', "invalidJSON")
err("unterminated-array", '{"a":[1', "invalidJSON")
err("nan", '{"a":NaN}', "invalidJSON")

# --- Limits (Limits.swift: depth 32, members 4096, string 64 KiB, record 256 KiB) ---
ok("depth-at-limit", '{"a":' * 31 + '{}' + '}' * 31, '{"a":' * 31 + '{}' + '}' * 31)
err("depth-over-limit", '{"a":' * 32 + '{}' + '}' * 32, "tooDeep")
err("depth-hostile-arrays", '{"a":' + '[' * 100000, "tooDeep")
err("too-many-array-elements", '{"a":[' + ','.join(['0'] * 4097) + ']}', "tooManyMembers")
err("too-many-object-members", '{' + ','.join('"k%05d":0' % i for i in range(4097)) + '}', "tooManyMembers")
err("string-too-long", '{"a":"' + 'x' * (64 * 1024 + 1) + '"}', "stringTooLong")
err("record-too-large", '{"a":"' + ('y' * 60000 + '","b":"') * 5 + '"}', "tooLarge")

def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    names = set()
    jcs = []
    for name, given, expected, code, jcs_ok in CASES:
        assert name not in names, name
        names.add(name)
        with open(os.path.join(OUT, name + ".input"), "wb") as f:
            f.write(given)
        if expected is not None:
            with open(os.path.join(OUT, name + ".expected"), "wb") as f:
                f.write(expected)
            if jcs_ok:
                jcs.append(name)
        else:
            with open(os.path.join(OUT, name + ".error"), "w") as f:
                f.write(code + "\n")
    with open(os.path.join(OUT, "jcs-compatible.txt"), "w") as f:
        f.write("\n".join(sorted(jcs)) + "\n")
    print(f"{len(CASES)} cases ({len(jcs)} JCS-compatible) written to {os.path.relpath(OUT)}")

main()
