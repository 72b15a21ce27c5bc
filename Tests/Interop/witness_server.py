#!/usr/bin/env python3
"""witness_server.py --seed HEX --name NAME --log VKEY [--initial SIZE ROOT_B64]: a C2SP tlog-witness
(POST /add-checkpoint) written from the spec text with http.server, independently of onym-ledger's Swift
code. It keeps each log's latest cosigned checkpoint in memory (optionally seeded with --initial, so a test
can put it ahead of the log's stored cosignatures), prints "listening on 127.0.0.1:PORT" and "witness key
VKEY", and serves one request at a time (so checking the old size and updating it are atomic)."""
import argparse
import base64
import signal
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

from tlog_witness_common import (EMPTY_ROOT, cosign, parse_checkpoint, parse_vkey, private_key, public_bytes,
                                 split_note, verify_consistency, vkey)
from cryptography.exceptions import InvalidSignature


class Refusal(Exception):
    def __init__(self, status, message, content_type="text/plain"):
        super().__init__(message)
        self.status, self.message, self.content_type = status, message, content_type


class Witness:
    def __init__(self, seed, name, logs, initial):
        self.private = private_key(seed)
        self.name = name
        self.logs = {}  # origin -> [(key ID, public key)]
        for text in logs:
            log_name, kid, kind, public = parse_vkey(text)
            assert kind == 0x01
            self.logs.setdefault(log_name, []).append((log_name, kid, public))
        self.latest = {}  # origin -> (size, root)
        if initial:
            size, root = initial
            for origin in self.logs:
                self.latest[origin] = (int(size), base64.b64decode(root))

    def add_checkpoint(self, body):
        try:
            text = body.decode("utf-8")
            old_line, rest = text.split("\n", 1)
            if not old_line.startswith("old "):
                raise ValueError("no old line")
            old_text = old_line[4:]
            if not old_text.isdigit() or (old_text != "0" and old_text.startswith("0")):
                raise ValueError("bad old size")
            old = int(old_text)
            proof = []
            while True:
                line, rest = rest.split("\n", 1)
                if line == "":
                    break
                hash_bytes = base64.b64decode(line, validate=True)
                if len(hash_bytes) != 32:
                    raise ValueError("bad proof hash")
                proof.append(hash_bytes)
                if len(proof) > 63:
                    raise ValueError("too many proof lines")
            note_text, signatures = split_note(rest)
            origin, size, root = parse_checkpoint(note_text)
        except (ValueError, UnicodeDecodeError) as error:
            raise Refusal(400, f"malformed: {error}")
        if origin not in self.logs:
            raise Refusal(404, "unknown origin")
        verified = False
        for log_name, kid, public in self.logs[origin]:
            for name, raw in signatures:
                if name == log_name and raw[:4] == kid:
                    try:
                        public.verify(raw[4:], note_text.encode())
                        verified = True
                    except InvalidSignature:
                        raise Refusal(403, "a trusted key's signature fails")
        if not verified:
            raise Refusal(403, "no trusted signature")
        if old > size:
            raise Refusal(400, "old size above the checkpoint size")
        if size == 0 and root != EMPTY_ROOT:
            raise Refusal(422, "size 0 with a root that is not the empty tree's")
        latest_size, latest_root = self.latest.get(origin, (0, EMPTY_ROOT))
        if old != latest_size:
            raise Refusal(409, f"{latest_size}\n", "text/x.tlog.size")
        if old == 0:
            if proof:
                raise Refusal(422, "a proof with old size 0")
        elif not verify_consistency(old, size, latest_root, root, proof):
            raise Refusal(422, "the consistency proof does not verify")
        self.latest[origin] = (size, root)
        return cosign(note_text, self.name, self.private, int(time.time()))


def handler_for(witness):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            if self.path != "/add-checkpoint":
                return self.answer(404, "no such endpoint\n")
            try:
                self.answer(200, witness.add_checkpoint(body))
            except Refusal as refusal:
                self.answer(refusal.status, refusal.message, refusal.content_type)

        def answer(self, status, text, content_type="text/plain"):
            data = text.encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            self.close_connection = True

        def log_message(self, format, *args):
            sys.stderr.write("python witness: " + format % args + "\n")

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--log", action="append", required=True)
    parser.add_argument("--initial", nargs=2, metavar=("SIZE", "ROOT"))
    args = parser.parse_args()
    # The test runner may start it with SIGTERM blocked: stop on it whatever the mask inherited.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    witness = Witness(args.seed, args.name, args.log, args.initial)
    server = HTTPServer(("127.0.0.1", 0), handler_for(witness))
    print(f"listening on 127.0.0.1:{server.server_address[1]}", flush=True)
    print(f"witness key {vkey(args.name, 0x04, public_bytes(witness.private))}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
