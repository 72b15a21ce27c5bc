#!/usr/bin/env python3
"""Validates record files against schemas/ with an outside JSON Schema 2020-12 validator.

Usage: validate-records.py KIND=FILE [KIND=FILE ...]
Prints one JSON line per file: {"file", "kind", "valid", "error"}. Exit 0 unless the arguments
are wrong or a schema itself is invalid. Used by the test suite to check that the Swift decoders
and the published schemas agree on what is accepted (Tests/LedgerTests/SchemaAgreementTests.swift).
"""
import json, os, sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schemas")

def load_registry():
    resources, by_kind = [], {}
    for name in sorted(os.listdir(SCHEMAS)):
        if not name.endswith(".schema.json"):
            continue
        with open(os.path.join(SCHEMAS, name)) as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
        resources.append((schema["$id"], Resource.from_contents(schema)))
        by_kind[name[: -len(".schema.json")]] = schema
    return Registry().with_resources(resources), by_kind

def main(args):
    registry, by_kind = load_registry()
    for arg in args:
        kind, _, path = arg.partition("=")
        if kind not in by_kind or not path:
            print(f"usage: {sys.argv[0]} KIND=FILE ... (kinds: {', '.join(sorted(by_kind))})", file=sys.stderr)
            return 64
        with open(path, "rb") as f:
            data = json.loads(f.read().decode("utf-8"))
        validator = Draft202012Validator(by_kind[kind], registry=registry)
        error = next(iter(sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))), None)
        print(json.dumps({"file": path, "kind": kind, "valid": error is None,
                          "error": None if error is None else f"{'/'.join(map(str, error.absolute_path))}: {error.message}"}))
    return 0

sys.exit(main(sys.argv[1:]))
