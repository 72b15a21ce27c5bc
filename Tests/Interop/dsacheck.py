#!/usr/bin/env python3
"""dsacheck LEDGER.git STATEMENTS.jsonl STATEMENTS.csv SCHEMA: checks `onym-ledger export dsa` independently.

Validates every statement against the JSON Schema written from the DSA Transparency Database's submission
rules (Python `jsonschema`, Draft 2020-12, with format checking), then checks each statement against the
ledger itself — read with stock git, not onym-ledger. A statement reports a restriction that took effect:
its puid names a received ban verdict (never a dismissal: a reversal is the end date of the restriction it
ended, not a restriction), it applies no earlier than the ban's executeAfter and its receipt, it ends no
earlier than it applies and no later than the ban's expiry, and it is a termination exactly when it has no
end. Completeness, for the cases nothing else can have changed: a received ban that is its case's only
verdict, of an authority no revocation names, executed before the export, must have its statement. The CSV
must hold the same statements as the JSON Lines. Prints a summary; exits 1 on the first disagreement.
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
    revoked = {r["authority"] for r in records(ledger, "revocations").values()}
    received = {ref: verdict for ref, verdict in verdicts.items() if ref in receipts}
    puids = [statement["puid"] for statement in statements]
    if len(set(puids)) != len(puids):
        fail("a puid is repeated")
    for statement in statements:
        verdict = received.get(statement["puid"][5:])
        if verdict is None or verdict["disposition"] != "ban":
            fail(f"{statement['puid']}: not a received ban verdict (a statement reports a restriction)")
        applies = statement["application_date"]
        receipt = receipts[statement["puid"][5:]]
        if applies < verdict["executeAfter"][:10] or applies < receipt["receivedAt"][:10]:
            fail(f"{statement['puid']}: applies on {applies}, before the ban could take effect")
        end = statement.get("end_date_account_restriction")
        if end is not None and (end < applies or ("banExpires" in verdict and end > verdict["banExpires"][:10])):
            fail(f"{statement['puid']}: ends on {end}, outside {applies} … the ban's expiry")
        if statement["decision_account"] != ("DECISION_ACCOUNT_SUSPENDED" if end else "DECISION_ACCOUNT_TERMINATED"):
            fail(f"{statement['puid']}: decision_account does not follow the end date")
        if verdict["caseId"] not in statement["decision_facts"] or statement["puid"][5:] not in statement["decision_facts"]:
            fail(f"{statement['puid']}: decision_facts does not name the case and the verdict")
    cases = {}
    for ref, verdict in verdicts.items():
        cases.setdefault((verdict["authority"], verdict["caseId"]), []).append(ref)
    export_day = max([s["application_date"] for s in statements] or ["0000"])
    for ref, verdict in received.items():
        alone = cases[(verdict["authority"], verdict["caseId"])] == [ref]
        if (verdict["disposition"] == "ban" and alone and verdict["authority"] not in revoked
                and verdict["executeAfter"][:10] < export_day and "onym-" + ref not in puids):
            fail(f"onym-{ref}: a ban alone in its case, executed, has no statement")

    rows = list(csv.DictReader(io.open(csv_path, encoding="utf-8", newline="")))
    if [row["puid"] for row in rows] != puids:
        fail("the CSV rows are not the JSON Lines statements in the same order")
    for row, statement in zip(rows, statements):
        for key, value in statement.items():
            cell = json.loads(row[key]) if isinstance(value, list) else row[key]
            if cell != value:
                fail(f"{statement['puid']}: CSV column {key} is {row[key]!r}, not {value!r}")
    bans = sum(1 for v in received.values() if v["disposition"] == "ban")
    print(f"ok {len(statements)} statements (restrictions of {bans} received bans) valid")


if __name__ == "__main__":
    main()
