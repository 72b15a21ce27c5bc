#!/usr/bin/env python3
"""http_answers.py: servers that answer an HTTP POST in the ways the witness client must handle, for
WitnessClientTests, written with raw sockets and the standard ssl module, independently of onym-ledger.

  http_answers.py certs DIR
      writes a test CA (ca.pem) and two server certificates it signs: localhost.pem/.key (DNS:localhost)
      and other.pem/.key (DNS:other.example), with the `cryptography` package.
  http_answers.py serve MODE [--tls CERT KEY] [--forward HOST:PORT]
      listens on 127.0.0.1 (a port the kernel chooses), prints "listening on 127.0.0.1:PORT", and answers
      each connection after reading the request's head and Content-Length body:
        echo        200 whose body is the request as received
        chunked     200 with a chunked body (a chunk extension and a trailer field included)
        long        200 with a Content-Length of 70000
        long-close  200 with 70000 bytes and no length, then closes
        garbage     a line that is not a status line
        silent      never answers (holds the connection open)
        forward     relays the connection to --forward HOST:PORT (a TLS front for a plain witness)
"""
import datetime
import ipaddress
import os
import signal
import socket
import ssl
import sys
import threading


def make_certificates(folder):
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "onym-ledger test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    with open(os.path.join(folder, "ca.pem"), "wb") as out:
        out.write(ca.public_bytes(serialization.Encoding.PEM))
    for stem, dns in (("localhost", "localhost"), ("other", "other.example")):
        key = ec.generate_private_key(ec.SECP256R1())
        certificate = (
            x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, dns)]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(dns)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
        with open(os.path.join(folder, stem + ".pem"), "wb") as out:
            out.write(certificate.public_bytes(serialization.Encoding.PEM))
        with open(os.path.join(folder, stem + ".key"), "wb") as out:
            out.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption()))


def read_request(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(4096)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = connection.recv(4096)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def relay(source, target):
    try:
        while True:
            chunk = source.recv(16384)
            if not chunk:
                break
            target.sendall(chunk)
    except OSError:
        pass
    finally:
        try:
            target.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def answer(connection, mode, forward):
    if mode == "forward":
        host, _, port = forward.rpartition(":")
        upstream = socket.create_connection((host, int(port)))
        threading.Thread(target=relay, args=(connection, upstream), daemon=True).start()
        relay(upstream, connection)
        upstream.close()
        return
    request = read_request(connection)
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n"
    if mode == "echo":
        connection.sendall(head + b"Content-Length: %d\r\n\r\n" % len(request) + request)
    elif mode == "chunked":
        connection.sendall(head + b"Transfer-Encoding: chunked\r\n\r\n" + b"7\r\nhello, \r\n"
                           + b"8;note=ignored\r\nchunked \r\n" + b"6\r\nworld\n\r\n" + b"0\r\nX-Trailer: yes\r\n\r\n")
    elif mode == "long":
        connection.sendall(head + b"Content-Length: 70000\r\n\r\n" + b"x" * 70000)
    elif mode == "long-close":
        connection.sendall(head + b"\r\n" + b"x" * 70000)
    elif mode == "garbage":
        connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\n\r\n")
    elif mode == "silent":
        threading.Event().wait()


def serve(mode, tls, forward):
    context = None
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(tls[0], tls[1])
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print("listening on 127.0.0.1:%d" % listener.getsockname()[1], flush=True)

    def handle(connection):
        try:
            if context:
                connection = context.wrap_socket(connection, server_side=True)
            answer(connection, mode, forward)
        except (OSError, ssl.SSLError):
            pass
        finally:
            connection.close()

    while True:
        connection, _ = listener.accept()
        threading.Thread(target=handle, args=(connection,), daemon=True).start()


def main(arguments):
    # A parent may start us with SIGTERM blocked; the tests stop us with it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    if arguments[0] == "certs":
        make_certificates(arguments[1])
        return
    mode, rest = arguments[1], arguments[2:]
    tls = forward = None
    while rest:
        if rest[0] == "--tls":
            tls, rest = rest[1:3], rest[3:]
        elif rest[0] == "--forward":
            forward, rest = rest[1], rest[2:]
        else:
            sys.exit("unknown option " + rest[0])
    serve(mode, tls, forward)


if __name__ == "__main__":
    main(sys.argv[1:])
