#!/usr/bin/env python3
"""dsacheck LEDGER.git STATEMENTS.jsonl STATEMENTS.csv SCHEMA: checks `onym-ledger export dsa` independently.

Validates every statement against the JSON Schema written from the DSA Transparency Database's submission
rules (Python `jsonschema`, Draft 2020-12, with format checking), then derives from the ledger itself — read
with stock git, not onym-ledger — which statements there must be: one per ban verdict that has a receipt,
one per received dismissal that undoes a ban in the same case (authority and case id) that no earlier
dismissal undid. The exported puids
must be exactly those, the CSV must hold the same statements as the JSON Lines, and dates must be the
verdicts' UTC dates. Prints a summary; exits 1 on the first disagreement.
"""
import csv
import io
import json
import subprocess
import sys

import jsonschema


def git(ledger, *args):
    return subprocess.run(["git", "--git-dir", ledger, *args], check=True, capture_output=True).stdout


def records(ledger, folder):
    """Every JSON file of one record kind in the tip's batch folders, by its file name's address."""
    found = {}
    for line in git(ledger, "ls-tree", "-r", "main", "batches/").decode().splitlines():
        meta, path = line.split("\t", 1)
        parts = path.split("/")
        if len(parts) == 6 and parts[3] == folder and path.endswith(".json"):
            found[parts[5][:-5]] = json.loads(git(ledger, "cat-file", "blob", meta.split()[2]))
    return found


def fail(message):
    print("FAIL " + message)
    sys.exit(1)


def main():
    ledger, jsonl_path, csv_path, schema_path = sys.argv[1:5]
    schema = json.load(open(schema_path, encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    statements = [json.loads(line) for line in open(jsonl_path, encoding="utf-8") if line.strip()]
    for statement in statements:
        errors = sorted(validator.iter_errors(statement), key=lambda e: list(e.path))
        if errors:
            fail(f"{statement.get('puid')}: {errors[0].message} at {list(errors[0].path)}")

    verdicts = records(ledger, "verdicts")
    receipts = records(ledger, "receipts")
    received = {ref: verdict for ref, verdict in verdicts.items() if ref in receipts}
    expected = {}
    rank = {"open-case": 0, "ban": 1, "dismiss": 2}
    standing = set()  # cases with a ban no dismissal has undone yet
    ordered = sorted(received.items(), key=lambda item: (item[1]["decidedAt"], rank[item[1]["disposition"]], item[0]))
    for ref, verdict in ordered:
        case = (verdict["authority"], verdict["caseId"])
        if verdict["disposition"] == "ban":
            expected["onym-" + ref] = verdict
            standing.add(case)
        elif verdict["disposition"] == "dismiss" and case in standing:
            standing.discard(case)
            expected["onym-" + ref] = verdict
    puids = [statement["puid"] for statement in statements]
    if len(set(puids)) != len(puids):
        fail("a puid is repeated")
    if set(puids) != set(expected):
        fail(f"statements {sorted(set(puids) ^ set(expected))[:3]}… differ from the ledger's bans and reversals")
    for statement in statements:
        verdict = expected[statement["puid"]]
        reversal = verdict["disposition"] == "dismiss"
        decided = verdict["decidedAt"][:10]
        if reversal and (statement["application_date"] != decided
                         or statement.get("end_date_account_restriction") != decided):
            fail(f"{statement['puid']}: a reversal applies and ends on its decision date {decided}")
        if not reversal:
            if statement["decision_account"] != ("DECISION_ACCOUNT_SUSPENDED" if "banExpires" in verdict
                                                 else "DECISION_ACCOUNT_TERMINATED"):
                fail(f"{statement['puid']}: decision_account does not follow the ban's term")
            if "banExpires" in verdict and statement["end_date_account_restriction"] != verdict["banExpires"][:10]:
                fail(f"{statement['puid']}: the end date is not the ban's expiry")
        if verdict["caseId"] not in statement["decision_facts"] or statement["puid"][5:] not in statement["decision_facts"]:
            fail(f"{statement['puid']}: decision_facts does not name the case and the verdict")

    rows = list(csv.DictReader(io.open(csv_path, encoding="utf-8", newline="")))
    if [row["puid"] for row in rows] != puids:
        fail("the CSV rows are not the JSON Lines statements in the same order")
    for row, statement in zip(rows, statements):
        for key, value in statement.items():
            cell = json.loads(row[key]) if isinstance(value, list) else row[key]
            if cell != value:
                fail(f"{statement['puid']}: CSV column {key} is {row[key]!r}, not {value!r}")
    bans = sum(1 for v in expected.values() if v["disposition"] == "ban")
    print(f"ok {len(statements)} statements ({bans} bans, {len(statements) - bans} reversals) valid and complete")


if __name__ == "__main__":
    main()
