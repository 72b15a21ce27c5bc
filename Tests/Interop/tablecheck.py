#!/usr/bin/env python3
"""Reads an onym-ledger local state table (docs/VERIFY.md, "The auditor's files") from its documented
bytes, independently of the Swift reader, and prints its header and entries as JSON (keys and values in
hex), or exits 1 naming what is wrong.

    tablecheck.py FILE
"""
import json
import struct
import sys
import zlib


def fail(reason):
    print(reason, file=sys.stderr)
    sys.exit(1)


def varint(data, offset, end):
    value, shift = 0, 0
    while True:
        if offset >= end:
            fail("a key length runs past its entry")
        byte = data[offset]
        offset += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, offset
        shift += 7


def main():
    data = open(sys.argv[1], "rb").read()
    newline = data.find(b"\n")
    if newline < 0:
        fail("no header line")
    fields = data[:newline].decode("utf-8").split(" ")
    if len(fields) != 10 or fields[:3] != ["onym-ledger", "table", "2"]:
        fail("not a table header: %r" % data[:newline])
    kind, tip, base, count, note = fields[3], fields[4], fields[5], int(fields[6]), int(fields[7])
    identity = None if fields[8] == "-" else fields[8]
    map_entries = int(fields[9])
    if base == "0" * 40 and map_entries != count:
        fail("a full table's map entries differ from its count")
    if struct.unpack("<I", data[-4:])[0] != zlib.crc32(data[:-4]):
        fail("the CRC-32 does not match")
    start = newline + 1
    offsets = [struct.unpack_from("<Q", data, start + 8 * i)[0] for i in range(count + 1)]
    area = start + 8 * (count + 1)
    if offsets[0] != 0 or area + offsets[-1] != len(data) - 4:
        fail("the offsets do not span the entry area")
    entries = []
    for i in range(count):
        begin, end = area + offsets[i], area + offsets[i + 1]
        length, cursor = varint(data, begin, end)
        key = data[cursor:cursor + length]
        if cursor + length > end:
            fail("a key runs past its entry")
        entries.append({"key": key.hex(), "value": data[cursor + length:end].hex()})
    keys = [bytes.fromhex(e["key"]) for e in entries]
    if keys != sorted(keys) or len(set(keys)) != len(keys):
        fail("the keys are not in strictly increasing byte order")
    print(json.dumps({"kind": kind, "tip": tip, "base": None if base == "0" * 40 else base, "count": count,
                      "note": note, "baseIdentity": identity, "mapEntries": map_entries, "entries": entries}))


main()
