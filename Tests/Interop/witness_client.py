#!/usr/bin/env python3
"""witness_client.py MODE ...: a C2SP tlog-witness client written from the spec text (http.client, raw
sockets and the `cryptography` package), independently of onym-ledger's Swift code, that drives a witness
at URL and checks every answer. Prints "ok <check>" per check; exits 1 at the first failure.

  example URL WITNESS_VKEY LEDGER_GIT SITE LOG_VKEY   the example ledger's checkpoints, in order, with
                                                      proofs from its published entry bundles; 200, 400,
                                                      404, 405, 409, 413, 422 and a slow client
  own-log URL WITNESS_VKEY SEED                       a log of its own (extension line): 403, 404, 422,
                                                      then concurrent submissions
  own-log-key SEED                                    prints that log's verifier key
  latest URL ORIGIN_NOTE_FILE EXPECTED                old 0 for a checkpoint: 409 naming EXPECTED
  rate-limit URL LEDGER_GIT                           three forged requests (403, not counted), then three
                                                      quick ones: the third is 429
"""
import base64
import http.client
import socket
import subprocess
import sys
import threading
import urllib.parse

from tlog_witness_common import (EMPTY_ROOT, consistency_proof, leaf_hash, mth, parse_checkpoint, parse_vkey,
                                 private_key, public_bytes, sign_note, split_note, verify_cosignature, vkey)

OWN_ORIGIN = "python.example/log"


def fail(message):
    print(f"FAIL {message}", flush=True)
    sys.exit(1)


def ok(message):
    print(f"ok {message}", flush=True)


def post(url, body, method="POST", path="/add-checkpoint"):
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    data = body.encode() if isinstance(body, str) else body
    connection.request(method, parts.path.rstrip("/") + path, body=data,
                       headers={"Content-Type": "text/plain"})
    response = connection.getresponse()
    answer = (response.status, response.getheader("Content-Type", ""), response.read().decode(),
              response.getheader("Retry-After"))
    connection.close()
    return answer


def request_body(old, proof, note):
    return f"old {old}\n" + "".join(base64.b64encode(h).decode() + "\n" for h in proof) + "\n" + note


def expect(answer, status, check):
    if answer[0] != status:
        fail(f"{check}: expected {status}, got {answer[0]} {answer[2]!r}")
    ok(check)


def expect_cosigned(answer, note, witness_vkey, check):
    expect(answer, 200, check)
    text, _ = split_note(note)
    lines = [line for line in answer[2].split("\n") if line]
    if not lines or verify_cosignature(text, lines[0], witness_vkey) is None:
        fail(f"{check}: the answer {answer[2]!r} holds no valid cosignature by {witness_vkey}")
    ok(f"{check}: cosignature/v1 verifies")


def expect_conflict(answer, latest, check):
    expect(answer, 409, check)
    if not answer[1].startswith("text/x.tlog.size") or answer[2] != f"{latest}\n":
        fail(f"{check}: 409 answer {answer[1]!r} {answer[2]!r}, expected text/x.tlog.size {latest}")
    ok(f"{check}: text/x.tlog.size {latest}")


def git(ledger, *args):
    return subprocess.run(["git", "-C", ledger, *args], check=True, capture_output=True, text=True).stdout


def example_checkpoints(ledger):
    """(size, note) of each distinct checkpoint the history carries, oldest first."""
    seen = {}
    for commit in git(ledger, "rev-list", "--reverse", "HEAD").split():
        try:
            note = git(ledger, "show", f"{commit}:checkpoint")
        except subprocess.CalledProcessError:
            continue
        _, size, _ = parse_checkpoint(split_note(note)[0])
        seen.setdefault(size, note)
    return sorted(seen.items())


def bundle_path(n, width=None):
    digits = f"{n:d}"
    digits = "0" * (-len(digits) % 3) + digits
    groups = [digits[i:i + 3] for i in range(0, len(digits), 3)]
    path = "/".join(["x" + g for g in groups[:-1]] + [groups[-1]])
    return f"tile/entries/{path}" + (f".p/{width}" if width else "")


def leaves_from_bundles(site, size):
    """Leaf hashes of the published entry bundles (tlog-tiles: uint16 length then the entry)."""
    leaves = []
    for n in range((size + 255) // 256):
        width = min(256, size - n * 256)
        data = open(f"{site}/{bundle_path(n, width if width < 256 else None)}", "rb").read()
        offset = 0
        while offset < len(data):
            length = int.from_bytes(data[offset:offset + 2], "big")
            leaves.append(leaf_hash(data[offset + 2:offset + 2 + length]))
            offset += 2 + length
    if len(leaves) != size:
        fail(f"entry bundles hold {len(leaves)} entries, not {size}")
    return leaves


def example(url, witness_vkey, ledger, site, log_vkey):
    checkpoints = example_checkpoints(ledger)
    tip_size = checkpoints[-1][0]
    leaves = leaves_from_bundles(site, tip_size)
    log_name, log_id, _, log_public = parse_vkey(log_vkey)
    for size, note in checkpoints:
        text, signatures = split_note(note)
        _, _, root = parse_checkpoint(text)
        if root != mth(leaves[:size]):
            fail(f"checkpoint {size}: its root is not the entry bundles' root")
        log_public.verify(next(raw for name, raw in signatures if name == log_name)[4:], text.encode())
    ok(f"{len(checkpoints)} example checkpoints match the published entry bundles and the log key")
    step = max(1, len(checkpoints) // 6)
    chosen = checkpoints[::step][:6] + [checkpoints[-1]]
    (first_size, first_note), rest = chosen[0], chosen[1:]
    # Malformed requests: 400 before any state changes.
    expect(post(url, f"old 01\n\n{first_note}"), 400, "old size with a leading zero is 400")
    expect(post(url, f"old {first_size + 1}\n\n{first_note}"), 400, "old size above the checkpoint's is 400")
    expect(post(url, f"old 0\n{first_note}"), 400, "no blank line after the proof is 400")
    expect(post(url, request_body(0, [EMPTY_ROOT] * 64, first_note)), 400, "64 proof lines are 400")
    expect(post(url, f"old 0\n\n{first_note.rstrip()}"), 400, "a note without its final newline is 400")
    expect(post(url, "", method="GET"), 405, "GET add-checkpoint is 405")
    expect(post(url, request_body(0, [], first_note), path="/elsewhere"), 404, "another path is 404")
    expect_cosigned(post(url, request_body(0, [], first_note)), first_note, witness_vkey,
                    f"first checkpoint (size {first_size}, old 0)")
    expect_conflict(post(url, request_body(0, [], first_note)), first_size, "old 0 after a cosignature is 409")
    previous = first_size
    for size, note in rest:
        proof = consistency_proof(previous, leaves[:size])
        if proof:
            bad = list(proof)
            bad[-1] = bytes(32)
            expect(post(url, request_body(previous, bad, note)), 422, f"a bad proof {previous}->{size} is 422")
        expect_cosigned(post(url, request_body(previous, proof, note)), note, witness_vkey,
                        f"checkpoint {size} with a proof from {previous}")
        previous = size
    expect_conflict(post(url, request_body(first_size, [], first_note)), previous,
                    "an older checkpoint (a rollback) is 409")
    oversize(url)
    expect_continue(url, request_body(0, [], checkpoints[-1][1]), previous)
    slow_client(url, checkpoints[-1][1], previous)


def oversize(url):
    parts = urllib.parse.urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=60) as connection:
        connection.sendall(b"POST /add-checkpoint HTTP/1.1\r\nHost: w\r\nContent-Length: 10000000\r\n\r\n")
        answer = connection.recv(200)
    if not answer.startswith(b"HTTP/1.1 413"):
        fail(f"a 10 MB body: expected 413, got {answer[:40]!r}")
    ok("a body over the limit is 413, unread")


def expect_continue(url, body, latest):
    """RFC 9110 §10.1.1: a client that sends `Expect: 100-continue` waits for 100 before the body (curl does)."""
    parts = urllib.parse.urlsplit(url)
    data = body.encode()
    with socket.create_connection((parts.hostname, parts.port), timeout=60) as connection:
        connection.sendall(b"POST /add-checkpoint HTTP/1.1\r\nHost: w\r\nExpect: 100-continue\r\n"
                           + f"Content-Length: {len(data)}\r\n\r\n".encode())
        interim = connection.recv(100)
        if not interim.startswith(b"HTTP/1.1 100 "):
            fail(f"Expect: 100-continue: expected 100 before the body, got {interim[:40]!r}")
        connection.sendall(data)
        answer = b""
        while chunk := connection.recv(4096):
            answer += chunk
    if not answer.startswith(b"HTTP/1.1 409") or not answer.endswith(f"\r\n\r\n{latest}\n".encode()):
        fail(f"Expect: 100-continue: the final answer is {answer[:80]!r}")
    ok("Expect: 100-continue is answered 100, then the request")


def slow_client(url, note, latest):
    """A client that sends half a request head and stops: the server answers others meanwhile and closes it."""
    parts = urllib.parse.urlsplit(url)
    slow = socket.create_connection((parts.hostname, parts.port), timeout=120)
    slow.sendall(b"POST /add-checkpoint HTTP/1.1\r\nHost: w\r\n")
    expect_conflict(post(url, request_body(0, [], note)), latest, "a request beside a stalled client is answered")
    answer = b""
    while True:
        chunk = slow.recv(4096)
        if not chunk:
            break
        answer += chunk
    slow.close()
    if answer and not answer.startswith(b"HTTP/1.1 408"):
        fail(f"a stalled client: expected 408 or a closed connection, got {answer[:40]!r}")
    ok("a stalled client is cut off by the server's timeout")


def own_log(seed):
    private = private_key(seed)
    return private, vkey(OWN_ORIGIN, 0x01, public_bytes(private))


def own_checkpoint(private, leaves, size, root=None, origin=OWN_ORIGIN, signer=None):
    root = mth(leaves[:size]) if root is None else root
    text = f"{origin}\n{size}\n{base64.b64encode(root).decode()}\nextension line from python\n"
    return text + "\n" + sign_note(text, signer or origin, private)


def own_log_checks(url, witness_vkey, seed):
    private, _ = own_log(seed)
    leaves = [leaf_hash(f"python entry {i}".encode()) for i in range(64)]
    stranger = private_key("77" * 32)
    expect(post(url, request_body(0, [], own_checkpoint(private, leaves, 3, origin="unknown.example/log",
                                                         signer="unknown.example/log"))),
           404, "an unknown origin is 404")
    expect(post(url, request_body(0, [], own_checkpoint(stranger, leaves, 3))), 403,
           "a checkpoint signed by an unknown key is 403")
    forged = own_checkpoint(private, leaves, 3).replace("\n3\n", "\n4\n", 1)
    expect(post(url, request_body(0, [], forged)), 403, "a trusted key's signature that fails is 403")
    expect(post(url, request_body(0, [], own_checkpoint(private, leaves, 0, root=bytes(32)))), 422,
           "size 0 with a root that is not the empty tree's is 422")
    expect(post(url, request_body(0, [leaves[0]], own_checkpoint(private, leaves, 3))), 422,
           "a proof with old size 0 is 422")
    first = own_checkpoint(private, leaves, 3)
    expect_cosigned(post(url, request_body(0, [], first)), first, witness_vkey,
                    "a checkpoint with an extension line, old 0")
    expect(post(url, request_body(3, [], own_checkpoint(private, leaves, 3, root=leaves[9]))), 422,
           "the witness's size with another root is 422")
    concurrent(url, witness_vkey, private, leaves, start=3)


def concurrent(url, witness_vkey, private, leaves, start, threads=12):
    """Twelve clients at once, each submitting a larger checkpoint and retrying from the size a 409 names."""
    results = {}
    lock = threading.Lock()

    def client(target):
        old = start
        note = own_checkpoint(private, leaves, target)
        for _ in range(100):
            status, content_type, body, _ = post(url, request_body(old, consistency_proof(old, leaves[:target]),
                                                                   note))
            if status == 409:
                old = int(body)
                if old > target:
                    break
                continue
            with lock:
                results[target] = (status, body, note)
            return
        with lock:
            results[target] = (409, "superseded", note)

    workers = [threading.Thread(target=client, args=(start + i,)) for i in range(1, threads + 1)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    cosigned = []
    for target, (status, body, note) in sorted(results.items()):
        if status == 200:
            if verify_cosignature(split_note(note)[0], body.split("\n")[0], witness_vkey) is None:
                fail(f"concurrent: the cosignature of size {target} does not verify")
            cosigned.append(target)
        elif status != 409:
            fail(f"concurrent: size {target} answered {status} {body!r}")
    last = start + threads
    if last not in cosigned:
        fail(f"concurrent: the largest checkpoint {last} was not cosigned ({cosigned})")
    expect_conflict(post(url, request_body(0, [], own_checkpoint(private, leaves, last))), last,
                    f"after {threads} concurrent clients ({len(cosigned)} cosigned) the witness is at the largest")


def rate_limit(url, ledger):
    size, note = example_checkpoints(ledger)[-1]
    forged = note.replace(f"\n{size}\n", f"\n{size + 1}\n", 1)
    for _ in range(3):
        expect(post(url, request_body(0, [], forged)), 403, "a forged checkpoint is 403 and spends no budget")
    answers = [post(url, request_body(0, [], note)) for _ in range(3)]
    if answers[2][0] != 429 or not answers[2][3]:
        fail(f"rate limit: the third quick request answered {answers[2][0]} (Retry-After {answers[2][3]})")
    ok(f"the third quick request is 429 (Retry-After {answers[2][3]}); before it {answers[0][0]}, {answers[1][0]}")


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "example":
        example(*args)
    elif mode == "own-log":
        own_log_checks(*args)
    elif mode == "own-log-key":
        print(own_log(args[0])[1])
    elif mode == "latest":
        url, note_file, expected = args
        expect_conflict(post(url, request_body(0, [], open(note_file).read())), int(expected),
                        f"old 0 finds the witness at {expected}")
    elif mode == "rate-limit":
        rate_limit(*args)
    else:
        fail(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
