#!/usr/bin/env python3
"""An HTTP/1.1 server that keeps connections alive and misbehaves on request, for the client's tests
(Tests/NetworkingTests/HTTP). Python 3 standard library only; raw sockets, so every byte is ours.

Usage: python3 keepalive_server.py [--tls CERT KEY] [--port 0]

Connections are numbered from 1 in the order accepted; the n-th request on a connection is its request n.
Routes (the query is ignored, so tests may add one of their own):
  /hello          200 with Content-Length; the body is JSON: connection, request, method, target,
                  headers (names as sent), body (as text). Headers X-Connection and X-Request say the same.
  /chunked        200 chunked, written in several pieces, with a chunk extension and a trailer.
  /until-close    200 with neither length nor chunks: the body ends when the server closes.
  /close-after    /hello's answer, then the server closes the connection (a kept connection the server
                  drops while it is idle).
  /hang-up-next   /hello's answer; the next request on this connection is read and then the connection is
                  closed without an answer (the server closing a kept connection as a request arrives).
  /silent, /silent/...
                  reads the request and never answers; prints `SILENT <connection> <target>` once it has read
                  it. (The prefix serves as a broker's base URL for the app's end-to-end test.)
  anything else   404.
Prints `LISTENING <port>` first, then `OPEN <connection>` and `CLOSED <connection>` as connections come
and go. Exits when stdin reaches end-of-file (the test process is gone).
"""

import argparse
import json
import os
import socket
import ssl
import sys
import threading

lock = threading.Lock()
next_connection = [0]


def say(line):
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def read_request(stream, buffered):
    """Returns (method, target, headers, body, rest) or None when the client closed first."""
    data = buffered
    while b"\r\n\r\n" not in data:
        chunk = stream.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, target, _ = lines[0].split(" ", 2)
    headers = []
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.append((name, value.strip()))
    length = int(next((v for n, v in headers if n.lower() == "content-length"), "0"))
    while len(rest) < length:
        chunk = stream.recv(65536)
        if not chunk:
            return None
        rest += chunk
    return method, target, headers, rest[:length], rest[length:]


def hello(connection, count, method, target, headers, body):
    payload = json.dumps({
        "connection": connection, "request": count, "method": method, "target": target,
        "headers": {name: value for name, value in headers}, "body": body.decode("utf-8", "replace"),
    }).encode("utf-8")
    return (
        f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Connection: {connection}\r\n"
        f"X-Request: {count}\r\nContent-Length: {len(payload)}\r\n\r\n"
    ).encode("ascii") + payload


def serve(stream, connection):
    buffered = b""
    count = 0
    hang_up_next = False
    try:
        while True:
            request = read_request(stream, buffered)
            if request is None:
                return
            method, target, headers, body, buffered = request
            count += 1
            path = target.split("?", 1)[0]
            if hang_up_next:
                return
            if path in ("/hello", "/close-after", "/hang-up-next"):
                stream.sendall(hello(connection, count, method, target, headers, body))
                if path == "/close-after":
                    return
                hang_up_next = path == "/hang-up-next"
            elif path == "/chunked":
                stream.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n"
                               b"X-Connection: " + str(connection).encode() + b"\r\n\r\n")
                for piece in (b"7;note=first\r\nchunked\r\n", b"1\r\n \r\n", b"A\r\nis read wh\r\n", b"4\r\nole.\r\n",
                              b"0\r\nX-Checksum: 42\r\n\r\n"):
                    stream.sendall(piece)
            elif path == "/until-close":
                stream.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n"
                               b"read until the server closes")
                return
            elif path == "/silent" or path.startswith("/silent/"):
                say(f"SILENT {connection} {target}")
                while stream.recv(65536):
                    pass
                return
            else:
                stream.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nno route\n")
    except (OSError, ValueError):
        return
    finally:
        try:
            stream.close()
        except OSError:
            pass
        say(f"CLOSED {connection}")


def accept_forever(listener, context):
    while True:
        client, _ = listener.accept()
        with lock:
            next_connection[0] += 1
            connection = next_connection[0]
        say(f"OPEN {connection}")

        def run(client=client, connection=connection):
            stream = client
            if context is not None:
                try:
                    stream = context.wrap_socket(client, server_side=True)
                except (OSError, ssl.SSLError):
                    client.close()
                    say(f"CLOSED {connection}")
                    return
            serve(stream, connection)

        threading.Thread(target=run, daemon=True).start()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--port", type=int, default=0)
    arguments = parser.parse_args()
    context = None
    if arguments.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*arguments.tls)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", arguments.port))
    listener.listen(64)
    threading.Thread(target=accept_forever, args=(listener, context), daemon=True).start()
    say(f"LISTENING {listener.getsockname()[1]}")
    while os.read(sys.stdin.fileno(), 4096):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
