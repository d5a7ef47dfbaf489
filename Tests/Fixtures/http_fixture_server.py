#!/usr/bin/env python3
"""A local HTTP server that answers from fixture files, for tests. Python 3 standard library only.

Usage: python3 http_fixture_server.py --root DIR [--port 0] [--host 127.0.0.1] [--verbose]

Loads every routes.json under DIR (recursively; file order by path, routes in file order). A route:
  {"name": "...", "method": "GET", "path": "/v1/markets/quotes",
   "query": {"symbols": "AAPL"},                  every item present with exactly this value (extras allowed)
   "requireHeaders": {"Authorization": "Bearer test-token"},   names case-insensitive, values exact
   "status": 200, "headers": {"Content-Type": "application/json"},
   "body": "text" | "bodyFile": "file relative to this routes.json",
   "delayMs": 1500,                                answer late
   "behavior": "drop" | "truncate",                close without answering | headers and half the body
   "responses": [{"status": 500, "body": "..."}, ...],   answers in turn (see below)
   "counter": "name", "cycle": true}
The first matching route answers; none matches => 404 {"error":"no fixture route"}.

A route with "responses" answers its n-th request (counting from 0) with responses[n]: each entry takes
status, headers, body or bodyFile, delayMs and behavior, and whatever it leaves out comes from the route.
After the last entry the route keeps answering with it, or starts over with "cycle": true, e.g. a 500 every
fourth request is [{}, {}, {}, {"status": 500, "body": "Internal Server Error"}] with "cycle": true. Requests
are counted per "counter" (default: the route's name), so routes sharing a counter share the count: a
per-symbol API whose every fourth request fails, whatever the symbol.

Prints "LISTENING <port>" as the first line on stdout, then only "STOPPING" (see below). Every request is
logged: GET /__log returns [{method, path, query: {name: [values]}, headers, body}] (the body as UTF-8 text,
undecodable bytes replaced), POST /__log/clear empties it. Exits on SIGTERM, SIGINT, or when stdin reaches
end-of-file (the parent died), and prints `STOPPING` once it has begun to (from then on further stop signals
are ignored).
"""

import argparse
import json
import os
import select
import signal
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class RouteError(Exception):
    pass


def load_routes(root):
    routes = []
    found = []
    for directory, subdirectories, files in os.walk(root):
        subdirectories.sort()
        if "routes.json" in files:
            found.append(os.path.join(directory, "routes.json"))
    for path in sorted(found):
        base = os.path.dirname(path)
        try:
            with open(path, "rb") as handle:
                document = json.load(handle)
        except (OSError, ValueError) as error:
            raise RouteError(f"{path}: {error}")
        entries = document.get("routes") if isinstance(document, dict) else None
        if not isinstance(entries, list):
            raise RouteError(f'{path}: expected {{"routes": [...]}}')
        for index, entry in enumerate(entries):
            routes.append(compile_route(entry, base, f"{path} route {index} ({entry.get('name', '?')})"))
    return routes


def compile_answer(entry, base, where, default=None):
    """The status, headers, body, delay and behavior of one answer; what `entry` leaves out is `default`'s."""
    default = default or {"status": 200, "headers": {}, "body": b"", "delayMs": 0, "behavior": None}
    if "bodyFile" in entry:
        body_path = os.path.join(base, entry["bodyFile"])
        try:
            with open(body_path, "rb") as handle:
                body = handle.read()
        except OSError as error:
            raise RouteError(f"{where}: bodyFile {error}")
    elif "body" in entry:
        body = entry["body"]
        body = body.encode("utf-8") if isinstance(body, str) else json.dumps(body).encode("utf-8")
    else:
        body = default["body"]
    behavior = entry.get("behavior", default["behavior"])
    if behavior not in (None, "drop", "truncate"):
        raise RouteError(f"{where}: behavior must be drop or truncate")
    return {
        "status": int(entry.get("status", default["status"])),
        "headers": entry.get("headers", default["headers"]) or {},
        "body": body,
        "delayMs": int(entry.get("delayMs", default["delayMs"])),
        "behavior": behavior,
    }


def compile_route(entry, base, where):
    if not isinstance(entry, dict) or "path" not in entry:
        raise RouteError(f"{where}: a route needs at least a path")
    answer = compile_answer(entry, base, where)
    responses = entry.get("responses")
    if responses is not None:
        if not isinstance(responses, list) or not responses or not all(isinstance(r, dict) for r in responses):
            raise RouteError(f"{where}: responses must be a non-empty list of objects")
        responses = [compile_answer(r, base, f"{where} response {i}", answer) for i, r in enumerate(responses)]
    query = {}
    for name, value in (entry.get("query") or {}).items():
        query[name] = [str(v) for v in value] if isinstance(value, list) else [str(value)]
    return {
        "name": entry.get("name", where),
        "method": entry.get("method", "GET").upper(),
        "path": entry["path"],
        "query": query,
        "requireHeaders": {k.lower(): str(v) for k, v in (entry.get("requireHeaders") or {}).items()},
        **answer,
        "responses": responses,
        "counter": str(entry.get("counter", entry.get("name", where))),
        "cycle": bool(entry.get("cycle", False)),
    }


def take_answer(server, route):
    """The route's answer to this request: its own, or the next of its responses (counting per counter)."""
    responses = route["responses"]
    if responses is None:
        return route
    with server.log_lock:
        count = server.counters.get(route["counter"], 0)
        server.counters[route["counter"]] = count + 1
    return responses[count % len(responses)] if route["cycle"] else responses[min(count, len(responses) - 1)]


def matches(route, method, raw_path, query, headers):
    if route["method"] != method:
        return False
    if route["path"] != raw_path and route["path"] != urllib.parse.unquote(raw_path):
        return False
    for name, values in route["query"].items():
        present = query.get(name)
        if present is None:
            return False
        # One listed value: it must be among the values sent. Several: exactly those, in order.
        if len(values) == 1 and values[0] not in present:
            return False
        if len(values) > 1 and present != values:
            return False
    for name, value in route["requireHeaders"].items():
        if headers.get(name) != value:
            return False
    return True


class FixtureHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FixtureServer/1"

    def log_message(self, format, *args):
        if self.server.verbose:
            sys.stderr.write("%s %s\n" % (self.address_string(), format % args))

    def handle_any(self):
        split = urllib.parse.urlsplit(self.path)
        raw_path = split.path
        query = urllib.parse.parse_qs(split.query, keep_blank_values=True)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        method = self.command.upper()

        if raw_path == "/__log" and method == "GET":
            with self.server.log_lock:
                body = json.dumps(self.server.log).encode("utf-8")
            return self.answer(200, {"Content-Type": "application/json"}, body)
        if raw_path == "/__log/clear" and method == "POST":
            with self.server.log_lock:
                self.server.log.clear()
            return self.answer(204, {}, b"")

        with self.server.log_lock:
            self.server.log.append({
                "method": method,
                "path": raw_path,
                "query": query,
                "headers": {name: value for name, value in self.headers.items()},
                "body": body.decode("utf-8", errors="replace"),
            })
        lowered = {name.lower(): value for name, value in self.headers.items()}
        route = next((r for r in self.server.routes if matches(r, method, raw_path, query, lowered)), None)
        if route is None:
            return self.answer(404, {"Content-Type": "application/json"}, b'{"error":"no fixture route"}')
        route = take_answer(self.server, route)
        if route["delayMs"] > 0:
            time.sleep(route["delayMs"] / 1000.0)
        if route["behavior"] == "drop":
            return self.hang_up()
        if route["behavior"] == "truncate":
            body = route["body"]
            self.send_head(route["status"], route["headers"], len(body))
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            return self.hang_up()
        return self.answer(route["status"], route["headers"], route["body"])

    def send_head(self, status, headers, length):
        self.send_response(status)
        for name, value in headers.items():
            if name.lower() not in ("content-length", "connection"):
                self.send_header(name, str(value))
        self.send_header("Content-Length", str(length))
        self.send_header("Connection", "close")
        self.end_headers()

    def answer(self, status, headers, body):
        self.close_connection = True
        self.send_head(status, headers, len(body))
        if self.command != "HEAD":
            self.wfile.write(body)
        self.wfile.flush()

    def hang_up(self):
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = handle_any


class FixtureServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        # A client that hangs up early (a test that timed out on purpose) is not news.
        if self.verbose:
            super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser(description="Serve HTTP fixtures from routes.json files.")
    parser.add_argument("--root", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--verbose", action="store_true")
    arguments = parser.parse_args()

    try:
        routes = load_routes(arguments.root)
    except RouteError as error:
        sys.stderr.write(f"http_fixture_server: {error}\n")
        return 2

    server = FixtureServer((arguments.host, arguments.port), FixtureHandler)
    server.routes = routes
    server.verbose = arguments.verbose
    server.log = []
    server.counters = {}
    server.log_lock = threading.Lock()

    # The main thread sleeps in select() on stdin and a self-pipe the signal handlers write to, so
    # SIGTERM, SIGINT and the parent's death all stop the server at once.
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    signal.signal(signal.SIGINT, lambda *_: stopping.append(True))

    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    sys.stdout.write(f"LISTENING {server.server_address[1]}\n")
    sys.stdout.flush()

    stdin = sys.stdin.fileno()
    watched = [stdin, wake_read]
    while not stopping:
        try:
            readable, _, _ = select.select(watched, [], [])
        except InterruptedError:
            continue
        if stdin in readable:
            try:
                if not os.read(stdin, 4096):
                    break
            except OSError:
                break
        if wake_read in readable:
            os.read(wake_read, 64)
    # Stopping now, whichever came first. A SIGTERM that follows a closed stdin must not turn a clean
    # exit into death by signal: at finalization Python puts back the default action for signals it
    # handles, so ignore them from here on.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        sys.stdout.write("STOPPING\n")
        sys.stdout.flush()
    except OSError:
        pass  # nobody reads any more (the test process is gone)
    server.shutdown()
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
