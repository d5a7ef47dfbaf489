#!/usr/bin/env python3
"""An independent WebSocket peer for the client's interop tests, built on the `websockets` package.

Prints `LISTENING <port>` once it accepts connections, then serves until its stdin closes (the test
process holds the other end, so a crashed test run leaves no server behind).

The path picks the behaviour:
  /echo                  echo every message, text as text and binary as binary
  /headers               send the upgrade request's path, headers and (over TLS) the SNI server name it
                         saw as one JSON text message: {"path", "headers", "sni"}; sni is null without SNI
  /fragmented            send "Hello, wörld" as three text fragments, then b"\\x00\\x01\\x02" as two binary ones
  /ping                  ping the client with b"are you there", wait for its pong, then send "pong received"
  /close/<code>/<reason> close with that code and reason (percent-decoded)
  /drop-mid-frame        send the header of a 256-byte binary frame and 7 bytes of it, then drop the TCP connection
  /invalid-utf8          send a text frame whose payload is not UTF-8
  /big/<n>               send one binary message of n bytes
  /silent/<seconds>      stay silent (answering pings, as websockets does), then send "still here"
  /mute                  complete the upgrade, then stop reading: pings go unanswered
  /hang                  never answer the upgrade request
  /status/<code>         refuse the upgrade with that HTTP status and a short text body that quotes the
                         request target (as careless servers do), so tests can check that secrets in the
                         URL are redacted from the client's error

A query string never changes the behaviour: tests sharing one server add their own (`?test=<id>`) to
find their `CLOSED` line.

Every connection that ends prints `CLOSED <path> <code> <reason>` with the close frame the client sent
(`CLOSED <path> none` when it sent none), so tests can check what the client said on the way out.

Usage: echo_server.py [--tls CERT KEY]
"""

import argparse
import asyncio
import http
import json
import os
import ssl
import sys
import urllib.parse

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed


def report(line):
    print(line, flush=True)


async def handle(ws):
    path = ws.request.path
    parts = path.split("?", 1)[0].strip("/").split("/")
    mode = parts[0]
    try:
        if mode == "echo":
            async for message in ws:
                await ws.send(message)
        elif mode == "headers":
            ssl_object = ws.transport.get_extra_info("ssl_object")
            sni = getattr(ssl_object, "sni_name", None) if ssl_object else None
            await ws.send(json.dumps({"path": path, "headers": dict(ws.request.headers.raw_items()), "sni": sni}))
            await ws.wait_closed()
        elif mode == "fragmented":
            await ws.send(["Hel", "lo, w", "örld"])
            await ws.send([b"\x00", b"\x01\x02"])
            await ws.wait_closed()
        elif mode == "ping":
            pong = await ws.ping(b"are you there")
            await asyncio.wait_for(pong, 5)
            await ws.send("pong received")
            await ws.wait_closed()
        elif mode == "close":
            code = int(parts[1])
            reason = urllib.parse.unquote(parts[2]) if len(parts) > 2 else ""
            await ws.close(code, reason)
        elif mode == "drop-mid-frame":
            ws.transport.write(b"\x82\x7e\x01\x00" + b"partial")
            await asyncio.sleep(0.05)
            ws.transport.abort()
        elif mode == "invalid-utf8":
            ws.transport.write(b"\x81\x04\xce\xba\xff\xfe")
            await ws.wait_closed()
        elif mode == "big":
            await ws.send(b"\x2a" * int(parts[1]))
            await ws.wait_closed()
        elif mode == "silent":
            await asyncio.sleep(float(parts[1]))
            await ws.send("still here")
            await ws.wait_closed()
        elif mode == "mute":
            ws.transport.pause_reading()
            await asyncio.sleep(30)
        else:
            await ws.close(4404, "unknown mode " + mode)
    except ConnectionClosed:
        pass
    finally:
        received = ws.protocol.close_rcvd
        if received is None:
            report(f"CLOSED {path} none")
        else:
            report(f"CLOSED {path} {received.code} {received.reason}")


async def process_request(connection, request):
    parts = request.path.split("?", 1)[0].strip("/").split("/")
    if parts[0] == "hang":
        await asyncio.sleep(3600)
    if parts[0] == "status":
        status = http.HTTPStatus(int(parts[1]))
        return connection.respond(status, f"{status.phrase.lower()}: token rejected for {request.path}\n")
    return None


def remember_server_name(ssl_object, server_name, context):
    """SNI callback: keeps the name the client sent (None without SNI) for /headers to report."""
    ssl_object.sni_name = server_name


def exit_when_stdin_closes(loop):
    def on_readable():
        if not os.read(sys.stdin.fileno(), 1024):
            os._exit(0)

    loop.add_reader(sys.stdin.fileno(), on_readable)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    args = parser.parse_args()
    context = None
    if args.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls[0], args.tls[1])
        context.sni_callback = remember_server_name
    exit_when_stdin_closes(asyncio.get_running_loop())
    async with serve(
        handle,
        "127.0.0.1",
        0,
        ssl=context,
        process_request=process_request,
        open_timeout=None,
        ping_interval=None,
        compression=None,
        max_size=None,
    ) as server:
        port = server.sockets[0].getsockname()[1]
        report(f"LISTENING {port}")
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main())
