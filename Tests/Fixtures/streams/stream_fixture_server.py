#!/usr/bin/env python3
"""A local server that speaks one broker's streaming protocol, for tests, built on `websockets` (asyncio).

Byte for byte as /work/shared/reference/broker-apis.md describes it (section numbers below): compact
JSON, the same field names, types and message order. One process serves one broker.

Usage: stream_fixture_server.py --broker polygon|alpaca|finnhub|tradier [--port N] [--tls CERT KEY]
           [--interval SECONDS] [--auth-timeout SECONDS] [--ping-interval SECONDS]
           [--symbol-limit N] [--session-ttl SECONDS] [--start-ms MS] [--routes DIR] [--forever]
           [--malformed-every N] [--rate EVENTS_PER_SECOND] [--rate-phase F] [--sequence-prices [--sequence-modulus M]] [--write-log FILE]
           [--drop-after SECONDS] [--status-file FILE]

Prints `LISTENING <port>` once it accepts connections and exits when its stdin closes (the test
process holds the other end), like Tests/Fixtures/ws/echo_server.py. `--port 0` (the default) picks a
free port; a fixed port lets a test stop the server and start a new one on the same port (the listener
sets SO_REUSEADDR). `--forever` ignores stdin (for a shell or an end-to-end harness that starts it
with stdin on /dev/null) and runs until SIGTERM or SIGINT.

Valid credentials (anything else is refused the broker's way):
  polygon   API key `test-key`
  alpaca    key id `test-key-id` with secret `test-secret` (the auth message or the APCA-API-KEY-ID and
            APCA-API-SECRET-KEY headers on the upgrade)
  finnhub   token `test-key`, or `test-token` (the token of Tests/Fixtures/finnhub's REST routes)
  tradier   session id `test-session`; the session POST takes the token `test-token` (the token of
            Tests/Fixtures/tradier's REST routes) or `test-key`

Quotes are deterministic. A symbol's k-th tick on a connection (k from 0, counted from its
subscription) trades at price = (base_cents + k % 500) / 100 with base_cents = (100 + sum of the
symbol's ASCII bytes % 400) * 100, so AAPL starts at 386.00 and MSFT at 414.00; the bid is one cent
below and the ask one cent above. Every `--interval` seconds (default 0.1) each connection sends one
tick for all its subscribed symbols (sorted). Timestamps are the wall clock, or with `--start-ms` a
fixed start advanced by the interval per tick. The symbol ZZZZ triggers each broker's subscription error:
  polygon   none exists: ZZZZ is acknowledged with `success` and never gets data (an unknown ticker)
  alpaca    error 405 "symbol limit exceeded" for that subscribe (previous subscriptions kept); the
            same for a subscribe that would exceed `--symbol-limit` (default 30, reference §3.2)
  finnhub   {"type":"error","msg":"Invalid symbol ZZZZ"} (reference §4.2, shape [L])
  tradier   {"error":"ZZZZ is not a valid symbol"}; the payload's other symbols stream

Per broker:
  polygon   path /stocks (§2.2, §2.3). On open `connected`; `auth` → `auth_success`, or `auth_failed`
            and a close for a bad key, or `max_connections` and a close when another connection is
            authenticated with the same key; no auth within `--auth-timeout` (default 10 s) →
            `auth_timeout` and a close. Subscribe/unsubscribe `PREFIX.SYMBOL` params (spaces
            tolerated) each get a `success` status in one frame ("subscribed to: T.AAPL",
            "unsubscribed to: T.AAPL"; the latter's wording is unverified). A tick is one array frame
            with a `T` and/or `Q` event per symbol subscribed to them, and every 10th tick an `AM`
            event per `AM.` subscription. Messages before auth are ignored.
  alpaca    path /v2/{iex,sip,delayed_sip,test} (§3.2). On open `connected`; `auth` → `authenticated`,
            402 auth failed (then close), 406 connection limit exceeded (then close), 403 already
            authenticated; on /v2/sip → 409 insufficient subscription (then close): a free plan. No auth
            within `--auth-timeout` → 404 auth timeout (then close). Subscribe before auth → 401;
            bad JSON or an unknown action → 400 invalid syntax. Subscribe/unsubscribe add to/subtract
            from the lists, answered with the complete `subscription` message. A tick is one array frame
            with a `t` per symbol in trades and a `q` per symbol in quotes; timestamps cycle through 9,
            0, 3 and 6 fraction digits. Bars, statuses and lulds are listed but get no data.
  finnhub   path / with ?token= (§4.2). A bad or missing token gets HTTP 401 on the upgrade, body
            {"error":"Invalid API key"} (the body is unverified). Subscribes are not acknowledged. A tick
            is one {"type":"trade","data":[...]} message for all subscribed symbols; every 5th tick of a
            symbol has `v` 0 (a price-only update), and `c` cycles through a list, null and absent.
            {"type":"ping"} after `--ping-interval` seconds (default 1) without anything sent.
  tradier   path /v1/markets/events (§1.5). The client sends payloads {"symbols":[...],"sessionid":...,
            "filter":[...],"linebreak":bool}; each replaces the symbol set ("$empty$" is ignored). An
            unknown session id → {"error":"session not found"} (the connection stays open); bad JSON →
            {"error":"invalid payload"} (text invented here). Each tick sends, per symbol and type in
            the filter (default all), one object per frame: quote (numbers), trade, timesale, tradex
            (numbers as strings), and a summary (with camelCase prevClose) on a symbol's first tick;
            `linebreak` appends "\\n". With `--session-ttl`, the server closes (1000) a connection that
            long after its first valid payload, as Tradier does when a session expires. The REST step
            is served too: POST /v1/markets/events/session with `Authorization: Bearer test-token` and an
            empty body answers the reference's body with session id `test-session` (its `url` is
            Tradier's HTTP-streaming host, as the real API sends it; the socket is not there); another
            token gets 401 "Invalid Access Token" in plain text (reference §1.4).

A misbehaving broker: with `--malformed-every N`, every N-th tick that carried data is followed by one
text frame that is not JSON (MALFORMED_FRAMES: the broker's own message cut short, as a proxy that
truncates frames or a buggy feed sends it), on the same connection, which stays open. Clients must skip
it and go on (issue 13).

Paced load, for `make bench`'s wire-to-screen scenario (Sources/Benchmarks/WireToScreenBenchmark.swift):
  --rate N          instead of one tick for every symbol per `--interval`, each connection gets N events
                    per second in total (the app holds one connection per broker), one symbol at a time
                    round-robin over the connection's subscribed symbols in sorted order, paced on time.monotonic deadlines
                    (start + n/N). Events that fall due together go out as one batch (one frame per
                    broker message as in a tick: Polygon, Alpaca and Finnhub put a batch's events in one
                    array frame, Tradier sends one object per frame). A server that falls behind catches
                    up in batches of at most one event per subscribed symbol and never skips an event;
                    the write log shows the rate achieved. `--rate-phase F` (0 to 1) shifts every deadline
                    by F/N: servers started together with phases 0, 1/4, 2/4, 3/4 interleave their events
                    evenly instead of sending them in step.
  --sequence-prices an event's price carries the server's global event sequence number s (from 1):
                    price = (10000 + s) / 100, i.e. 100.01, 100.02, ...; the bid one cent below and the
                    ask one cent above, as in ticks. Fields that quote other ticks (Polygon AM bars'
                    open and low, Tradier's summary) keep the deterministic formula.
  --sequence-modulus M  with --sequence-prices: the price carries s mod M instead, (10000 + s mod M) / 100, so a
                    row's prices stay within M cents however long the server runs, as a real price stays
                    within a range (an ever-rising price would make the app keep its history in the wide,
                    8-bytes-a-point form no real row needs); the reader resolves a price to the latest
                    event written with that remainder (wire_to_screen.py).
  --write-log FILE  one line per event written: `<sequence> <symbol> <monotonic_ns>`, the time
                    (time.monotonic_ns, CLOCK_MONOTONIC) taken right after the `await ws.send` of the
                    batch's last frame returned, i.e. once the frames were handed to the socket. The
                    sequence is the `--sequence-prices` one (counted with or without that option).
                    Buffered; flushed every 100 ms and when the server exits (stdin closed, SIGTERM).
Without these options the server's output is unchanged.

A flaky broker, for `make soak` (../soak/soak.py):
  --drop-after S    every WebSocket connection is dropped S seconds after it opened: the TCP connection is
                    aborted (no close frame, as when a network path or a broker's load balancer goes away)
                    and the server prints `DROPPED <path>` before its `DISCONNECTED`.
  --status-file F   what a soak checks against: every 0.5 s, when it changed, F is replaced (written to
                    F.tmp, then renamed) by one JSON object {"accepted": <connections accepted so far>,
                    "connections": [{"id": <1, 2, ...>, "path": ..., "opened": <time.monotonic() when it
                    opened>, "symbols": [<its subscribed symbols, sorted>]}, ...]}, the open connections.

With `--routes DIR`, plain HTTP requests (not upgrades; websockets reads no request body, so only
bodiless ones) are answered from the routes.json files under
DIR by the rules of Tests/Fixtures/http_fixture_server.py, so one process serves a broker's REST
snapshots and its stream on one port, as a broker's base URL implies (PolygonStreamService and
AlpacaStreamService derive the socket from the REST base URL on fixture hosts).

Control lines on stdout, for tests to await:
  CONNECTED <path>            a WebSocket opened
  AUTH ok | failed | limit | timeout | plan
  SUBSCRIBED <symbols>        the connection's complete symbol set (sorted, space-separated) after every
                              subscribe, unsubscribe or payload; `SUBSCRIBED` alone when empty
  REJECTED <symbol> <reason>  a symbol refused (ZZZZ, the symbol limit)
  MALFORMED <k> <connections> the k-th malformed frame of this connection was sent; <connections> is how
                              many WebSocket connections the process has accepted so far
  DISCONNECTED <path>         a WebSocket ended
"""

import argparse
import asyncio
import datetime
import http
import json
import math
import os
import signal
import ssl
import sys
import time
import urllib.parse

from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import http_fixture_server  # noqa: E402  (the REST routes' rules, shared with the HTTP fixture server)

POLYGON_KEY = "test-key"
ALPACA_KEY_ID = "test-key-id"
ALPACA_SECRET = "test-secret"
FINNHUB_TOKENS = ("test-key", "test-token")
TRADIER_TOKENS = ("test-key", "test-token")
TRADIER_SESSION_PATH = "/v1/markets/events/session"
TRADIER_SESSION = "test-session"
INVALID_SYMBOL = "ZZZZ"
ALPACA_FEEDS = ("iex", "sip", "delayed_sip", "test")
ALPACA_LISTS = ("trades", "quotes", "bars", "updatedBars", "dailyBars", "statuses", "lulds")
TRADIER_TYPES = ("trade", "quote", "summary", "timesale", "tradex")
POLYGON_MAX_CONNECTIONS = (
    "Maximum number of websocket connections exceeded. You have reached the connection limit for your "
    "account. Please contact support at https://polygon.io/contact to increase your limit."
)


def report(line):
    print(line, flush=True)


def compact(value):
    return json.dumps(value, separators=(",", ":"))


def price_cents(symbol, tick):
    return (100 + sum(symbol.encode("ascii", "replace")) % 400) * 100 + tick % 500


def price(symbol, tick):
    return price_cents(symbol, tick) / 100


def bid_ask(symbol, tick):
    cents = price_cents(symbol, tick)
    return (cents - 1) / 100, (cents + 1) / 100


def price_text(value):
    """Tradier's string-typed numbers: "227.52", "386.0" becomes "386"."""
    text = repr(value)
    return text[:-2] if text.endswith(".0") else text


def rfc3339(milliseconds, digits):
    """Alpaca's timestamps: UTC, 0 to 9 fraction digits (reference §0 and §6)."""
    moment = datetime.datetime.fromtimestamp(milliseconds // 1000, tz=datetime.timezone.utc)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if digits:
        nanos = f"{(milliseconds % 1000) * 1_000_000 + 123_456:09d}"
        text += "." + nanos[:digits]
    return text + "Z"


# One broker message each, cut off mid-value: valid UTF-8 (a protocol-level fault is another matter) that
# no JSON parser accepts.
MALFORMED_FRAMES = {
    "polygon": '[{"ev":"T","sym":"AAPL","p":386.0',
    "alpaca": '[{"T":"t","S":"AAPL","p":386.0',
    "finnhub": '{"type":"trade","data":[{"s":"AAPL","p":386.0',
    "tradier": '{"type":"trade","symbol":"AAPL","price":"386.0',
}


def symbols_line(symbols):
    return ("SUBSCRIBED " + " ".join(sorted(symbols))).rstrip()


class Server:
    """Process-wide state: which keys have an authenticated connection (for the connection limits)."""

    def __init__(self, options):
        self.options = options
        self.authenticated = {}
        self.connections = 0
        self.sequence = 0
        self.write_log = open(options.write_log, "w", buffering=1 << 20) if options.write_log else None
        self.log_flushed = time.monotonic()
        self.streams = set()  # the open connections (Stream), for --status-file
        self.status_written = None

    def status(self):
        connections = [{"id": stream.number, "path": stream.path, "opened": stream.opened,
                        "symbols": sorted(stream.protocol.subscribed()) if stream.protocol else []}
                       for stream in sorted(self.streams, key=lambda stream: stream.number)]
        return {"accepted": self.connections, "connections": connections}

    async def write_status_forever(self, path):
        while True:
            text = compact(self.status())
            if text != self.status_written:
                with open(path + ".tmp", "w") as file:
                    file.write(text + "\n")
                os.replace(path + ".tmp", path)
                self.status_written = text
            await asyncio.sleep(0.5)

    def next_sequence(self):
        self.sequence += 1
        return self.sequence

    def record_writes(self, events):
        """`events`: (sequence, symbol) pairs whose frames were just handed to the socket."""
        if self.write_log is None or not events:
            return
        stamp = time.monotonic_ns()
        self.write_log.write("".join(f"{sequence} {symbol} {stamp}\n" for sequence, symbol in events))
        if time.monotonic() - self.log_flushed >= 0.1:
            self.flush_log()

    def flush_log(self):
        if self.write_log is not None:
            self.write_log.flush()
            self.log_flushed = time.monotonic()

    def claim(self, key):
        if self.authenticated.get(key, 0) > 0:
            return False
        self.authenticated[key] = 1
        return True

    def release(self, key):
        if key is not None:
            self.authenticated[key] = max(0, self.authenticated.get(key, 0) - 1)


class Stream:
    """One WebSocket connection: its subscriptions, tick counters and the ticker task."""

    def __init__(self, server, ws):
        self.server = server
        self.options = server.options
        self.ws = ws
        self.path = ws.request.path
        self.ticks = {}
        self.tick_number = 0
        self.claimed_key = None
        self.last_sent = time.monotonic()
        self.ticks_with_data = 0
        self.malformed_sent = 0
        # --rate / --sequence-prices: each symbol's current event sequence, and the events not yet logged.
        self.sequences = {}
        self.unlogged = []
        self.number = 0
        self.opened = time.monotonic()
        self.protocol = None

    def now_ms(self):
        if self.options.start_ms is not None:
            return self.options.start_ms + int(self.tick_number * self.options.interval * 1000)
        return int(time.time() * 1000)

    def next_tick(self, symbol):
        tick = self.ticks.get(symbol, 0)
        self.ticks[symbol] = tick + 1
        if self.options.rate or self.options.sequence_prices or self.options.write_log:
            sequence = self.server.next_sequence()
            self.sequences[symbol] = (tick, sequence)
            self.unlogged.append((sequence, symbol))
        return tick

    def sequenced(self, symbol, tick):
        """The sequence number that prices `symbol`'s `tick` under --sequence-prices, else None."""
        if not self.options.sequence_prices:
            return None
        current = self.sequences.get(symbol)
        return current[1] if current is not None and current[0] == tick else None

    def price(self, symbol, tick):
        sequence = self.sequenced(symbol, tick)
        return price(symbol, tick) if sequence is None else (10_000 + self.carried(sequence)) / 100

    def bid_ask(self, symbol, tick):
        sequence = self.sequenced(symbol, tick)
        if sequence is None:
            return bid_ask(symbol, tick)
        carried = self.carried(sequence)
        return (9_999 + carried) / 100, (10_001 + carried) / 100

    def carried(self, sequence):
        """What a price carries of `sequence`: all of it, or its remainder under --sequence-modulus."""
        modulus = self.options.sequence_modulus
        return sequence % modulus if modulus else sequence

    def chosen(self, symbols, only):
        """`symbols` (a set or a dict's keys) in sorted order, limited to `only` when a paced batch names
        some. Only the batch is sorted then: at --rate 2500 over 500 symbols, sorting all 500 for every
        batch of one or two was most of this server's CPU, on the machine the benchmark's app shares."""
        if only is None:
            return sorted(symbols)
        return sorted(symbol for symbol in only if symbol in symbols)

    def forget(self, symbols):
        for symbol in symbols:
            self.ticks.pop(symbol, None)

    async def send(self, message):
        self.last_sent = time.monotonic()
        await self.ws.send(message)

    async def close(self, code, reason):
        await self.ws.close(code, reason)

    async def run(self, protocol):
        self.server.connections += 1
        self.number = self.server.connections
        self.protocol = protocol
        self.server.streams.add(self)
        report(f"CONNECTED {self.path}")
        ticker = asyncio.create_task(self.pace_forever(protocol) if self.options.rate else self.tick_forever(protocol))
        deadline = asyncio.create_task(self.auth_deadline(protocol))
        dropper = asyncio.create_task(self.drop_later()) if self.options.drop_after else None
        try:
            await protocol.opened()
            async for message in self.ws:
                await protocol.received(message)
        except ConnectionClosed:
            pass
        finally:
            ticker.cancel()
            deadline.cancel()
            if dropper is not None:
                dropper.cancel()
            self.server.streams.discard(self)
            self.server.release(self.claimed_key)
            report(f"DISCONNECTED {self.path}")

    async def drop_later(self):
        """--drop-after: abort the TCP connection, as a network path that goes away does (no close frame)."""
        await asyncio.sleep(self.options.drop_after)
        report(f"DROPPED {self.path}")
        self.ws.transport.abort()

    async def tick_forever(self, protocol):
        try:
            while True:
                await asyncio.sleep(self.options.interval)
                messages = protocol.tick()
                for message in messages:
                    await self.send(message)
                self.logged()
                if messages:
                    await self.maybe_send_malformed()
                self.tick_number += 1
                ping = protocol.ping_interval()
                if ping is not None and time.monotonic() - self.last_sent >= ping:
                    await self.send(compact({"type": "ping"}))
        except ConnectionClosed:
            pass

    def logged(self):
        self.server.record_writes(self.unlogged)
        self.unlogged = []

    async def pace_forever(self, protocol):
        """--rate: events one symbol at a time, round-robin, on deadlines start + n / rate (n events sent
        since the first symbol was subscribed), shifted by --rate-phase. The rate is the connection's (the
        app holds one per broker)."""
        rate, phase = self.options.rate, self.options.rate_phase
        start, sent, cursor = None, 0, 0
        # The subscription sorted, again only when it changed (see `chosen`).
        subscribed, symbols = None, []
        try:
            while True:
                current = protocol.subscribed()
                if current != subscribed:
                    subscribed, symbols = set(current), sorted(current)
                now = time.monotonic()
                if not symbols:
                    start = None
                    await asyncio.sleep(0.01)
                    continue
                if start is None:
                    start, sent = now, 0
                due = min(max(0, math.floor((now - start) * rate - phase)) - sent, len(symbols))
                if due <= 0:
                    await asyncio.sleep(max(0.0, start + (sent + 1 + phase) / rate - now))
                    continue
                batch = {symbols[(cursor + index) % len(symbols)] for index in range(due)}
                cursor = (cursor + due) % len(symbols)
                sent += due
                messages = protocol.tick(batch)
                for message in messages:
                    await self.send(message)
                self.logged()
                if messages:
                    await self.maybe_send_malformed()
                self.tick_number += 1
                ping = protocol.ping_interval()
                if ping is not None and time.monotonic() - self.last_sent >= ping:
                    await self.send(compact({"type": "ping"}))
        except ConnectionClosed:
            pass

    async def maybe_send_malformed(self):
        every = self.options.malformed_every
        self.ticks_with_data += 1
        if not every or self.ticks_with_data % every:
            return
        await self.send(MALFORMED_FRAMES[self.options.broker])
        self.malformed_sent += 1
        report(f"MALFORMED {self.malformed_sent} {self.server.connections}")

    async def auth_deadline(self, protocol):
        if not protocol.needs_auth():
            return
        await asyncio.sleep(self.options.auth_timeout)
        if not protocol.authenticated:
            report("AUTH timeout")
            try:
                await protocol.auth_timed_out()
            except ConnectionClosed:
                pass


class PolygonProtocol:
    """Reference §2.2 and §2.3."""

    def __init__(self, stream):
        self.stream = stream
        self.authenticated = False
        self.channels = {}

    def needs_auth(self):
        return True

    def ping_interval(self):
        return None

    @staticmethod
    def status(status, message):
        return compact([{"ev": "status", "status": status, "message": message}])

    async def opened(self):
        await self.stream.send(self.status("connected", "Connected Successfully"))

    async def auth_timed_out(self):
        await self.stream.send(self.status("auth_timeout", "No authentication request received."))
        await self.stream.close(1008, "auth timeout")

    async def received(self, message):
        try:
            request = json.loads(message)
            action, params = request.get("action"), request.get("params", "")
        except (ValueError, AttributeError):
            return
        if action == "auth" and not self.authenticated:
            if params != POLYGON_KEY:
                report("AUTH failed")
                await self.stream.send(self.status("auth_failed", "authentication failed"))
                await self.stream.close(1008, "authentication failed")
            elif not self.stream.server.claim(params):
                report("AUTH limit")
                await self.stream.send(self.status("max_connections", POLYGON_MAX_CONNECTIONS))
                await self.stream.close(1008, "max connections")
            else:
                self.stream.claimed_key = params
                self.authenticated = True
                report("AUTH ok")
                await self.stream.send(self.status("auth_success", "authenticated"))
        elif action in ("subscribe", "unsubscribe") and self.authenticated:
            await self.change(action, [p.strip() for p in str(params).split(",") if p.strip()])

    async def change(self, action, params):
        acknowledgements = []
        for param in params:
            prefix, _, symbol = param.partition(".")
            channels = self.channels.setdefault(symbol, set())
            if action == "subscribe":
                channels.add(prefix)
                acknowledgements.append({"ev": "status", "status": "success", "message": f"subscribed to: {param}"})
            else:
                channels.discard(prefix)
                acknowledgements.append({"ev": "status", "status": "success", "message": f"unsubscribed to: {param}"})
            if not channels:
                del self.channels[symbol]
                self.stream.forget([symbol])
        if acknowledgements:
            await self.stream.send(compact(acknowledgements))
        report(symbols_line(self.channels))

    def subscribed(self):
        return set(self.channels)

    def tick(self, only=None):
        events = []
        milliseconds = self.stream.now_ms()
        for symbol in self.stream.chosen(self.channels, only):
            channels = self.channels[symbol]
            if symbol == INVALID_SYMBOL or not channels & {"T", "Q", "AM"}:
                continue
            tick = self.stream.next_tick(symbol)
            sequence = 1_190_000 + self.stream.tick_number
            if "T" in channels:
                events.append({"ev": "T", "sym": symbol, "i": str(52_983 + tick), "x": 4, "p": self.stream.price(symbol, tick), "s": 100,
                               "c": [12, 37], "t": milliseconds, "q": sequence, "z": 3})
            if "Q" in channels:
                bid, ask = self.stream.bid_ask(symbol, tick)
                events.append({"ev": "Q", "sym": symbol, "bx": 19, "bp": bid, "bs": 2, "ax": 11, "ap": ask, "as": 1, "c": 1,
                               "i": [604], "t": milliseconds, "q": sequence + 1, "z": 3})
            if "AM" in channels and tick % 10 == 9:
                last = self.stream.price(symbol, tick)
                events.append({"ev": "AM", "sym": symbol, "v": 6123, "av": 38_211_905, "op": price(symbol, 0), "vw": last,
                               "o": price(symbol, tick - 9), "c": last, "h": last, "l": price(symbol, tick - 9),
                               "a": last, "z": 88, "s": milliseconds - 60_000, "e": milliseconds})
        return [compact(events)] if events else []


class AlpacaProtocol:
    """Reference §3.2."""

    def __init__(self, stream):
        self.stream = stream
        self.authenticated = False
        self.lists = {name: [] for name in ALPACA_LISTS}
        self.feed = stream.path.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]

    def needs_auth(self):
        return True

    def ping_interval(self):
        return None

    @staticmethod
    def error(code, message):
        return compact([{"T": "error", "code": code, "msg": message}])

    async def opened(self):
        await self.stream.send(compact([{"T": "success", "msg": "connected"}]))
        headers = self.stream.ws.request.headers
        if "APCA-API-KEY-ID" in headers:
            await self.authenticate(headers.get("APCA-API-KEY-ID"), headers.get("APCA-API-SECRET-KEY"))

    async def auth_timed_out(self):
        await self.stream.send(self.error(404, "auth timeout"))
        await self.stream.close(1008, "auth timeout")

    async def authenticate(self, key, secret):
        if self.authenticated:
            await self.stream.send(self.error(403, "already authenticated"))
        elif key != ALPACA_KEY_ID or secret != ALPACA_SECRET:
            report("AUTH failed")
            await self.stream.send(self.error(402, "auth failed"))
            await self.stream.close(1008, "auth failed")
        elif self.feed == "sip":
            report("AUTH plan")
            await self.stream.send(self.error(409, "insufficient subscription"))
            await self.stream.close(1008, "insufficient subscription")
        elif not self.stream.server.claim(key):
            report("AUTH limit")
            await self.stream.send(self.error(406, "connection limit exceeded"))
            await self.stream.close(1008, "connection limit exceeded")
        else:
            self.stream.claimed_key = key
            self.authenticated = True
            report("AUTH ok")
            await self.stream.send(compact([{"T": "success", "msg": "authenticated"}]))

    async def received(self, message):
        try:
            request = json.loads(message)
            action = request.get("action")
        except (ValueError, AttributeError):
            await self.stream.send(self.error(400, "invalid syntax"))
            return
        if action == "auth":
            await self.authenticate(request.get("key"), request.get("secret"))
        elif action in ("subscribe", "unsubscribe"):
            if not self.authenticated:
                await self.stream.send(self.error(401, "not authenticated"))
            else:
                await self.change(action, request)
        else:
            await self.stream.send(self.error(400, "invalid syntax"))

    def symbols(self):
        return set(self.lists["trades"]) | set(self.lists["quotes"])

    async def change(self, action, request):
        asked = {name: [str(s) for s in request.get(name) or []] for name in ALPACA_LISTS}
        if action == "subscribe":
            added = {s for name in ("trades", "quotes") for s in asked[name]}
            if INVALID_SYMBOL in added or len(self.symbols() | added) > self.stream.options.symbol_limit:
                for symbol in sorted(added - self.symbols()):
                    report(f"REJECTED {symbol} 405")
                await self.stream.send(self.error(405, "symbol limit exceeded"))
                return
            for name in ALPACA_LISTS:
                self.lists[name] += [s for s in asked[name] if s not in self.lists[name]]
        else:
            for name in ALPACA_LISTS:
                self.lists[name] = [s for s in self.lists[name] if s not in asked[name]]
            self.stream.forget(set(self.stream.ticks) - self.symbols())
        echo = {"T": "subscription"}
        echo.update(self.lists)
        echo["corrections"] = list(self.lists["trades"])
        echo["cancelErrors"] = list(self.lists["trades"])
        await self.stream.send(compact([echo]))
        report(symbols_line(self.symbols()))

    def subscribed(self):
        return self.symbols()

    def tick(self, only=None):
        messages = []
        milliseconds = self.stream.now_ms()
        digits = (9, 0, 3, 6)[self.stream.tick_number % 4]
        stamp = rfc3339(milliseconds, digits)
        for symbol in self.stream.chosen(self.symbols(), only):
            tick = self.stream.next_tick(symbol)
            if symbol in self.lists["trades"]:
                messages.append({"T": "t", "S": symbol, "i": 96_921 + tick, "x": "V", "p": self.stream.price(symbol, tick), "s": 100,
                                 "c": ["@"], "t": stamp, "z": "C"})
            if symbol in self.lists["quotes"]:
                bid, ask = self.stream.bid_ask(symbol, tick)
                messages.append({"T": "q", "S": symbol, "bx": "V", "bp": bid, "bs": 3, "ax": "V", "ap": ask, "as": 2,
                                 "c": ["R"], "t": stamp, "z": "C"})
        return [compact(messages)] if messages else []


class FinnhubProtocol:
    """Reference §4.2. The token was checked on the upgrade (see `process_request`)."""

    def __init__(self, stream):
        self.stream = stream
        self.authenticated = True
        self.symbols = set()

    def needs_auth(self):
        return False

    def ping_interval(self):
        return self.stream.options.ping_interval

    async def opened(self):
        report("AUTH ok")

    async def received(self, message):
        try:
            request = json.loads(message)
            kind, symbol = request.get("type"), request.get("symbol")
        except (ValueError, AttributeError):
            kind, symbol = None, None
        if kind not in ("subscribe", "unsubscribe") or not isinstance(symbol, str) or not symbol:
            await self.stream.send(compact({"type": "error", "msg": "Invalid message"}))
            return
        if kind == "subscribe" and symbol == INVALID_SYMBOL:
            report(f"REJECTED {symbol} invalid")
            await self.stream.send(compact({"type": "error", "msg": f"Invalid symbol {symbol}"}))
            return
        if kind == "subscribe":
            self.symbols.add(symbol)
        else:
            self.symbols.discard(symbol)
            self.stream.forget([symbol])
        report(symbols_line(self.symbols))

    def subscribed(self):
        return set(self.symbols)

    def tick(self, only=None):
        data = []
        milliseconds = self.stream.now_ms()
        for symbol in self.stream.chosen(self.symbols, only):
            tick = self.stream.next_tick(symbol)
            trade = {"p": self.stream.price(symbol, tick), "s": symbol, "t": milliseconds, "v": 0 if tick % 5 == 4 else 100}
            conditions = tick % 3
            if conditions == 0:
                trade["c"] = ["1", "12"]
            elif conditions == 1:
                trade["c"] = None
            data.append(trade)
        return [compact({"type": "trade", "data": data})] if data else []


class TradierProtocol:
    """Reference §1.5 (the WebSocket half)."""

    def __init__(self, stream):
        self.stream = stream
        self.authenticated = False
        self.symbols = []
        self.filter = TRADIER_TYPES
        self.linebreak = False
        self.expiry = None

    def needs_auth(self):
        return False

    def ping_interval(self):
        return None

    async def opened(self):
        pass

    def framed(self, value):
        return compact(value) + ("\n" if self.linebreak else "")

    async def received(self, message):
        try:
            payload = json.loads(message)
            symbols = payload["symbols"]
            session = payload.get("sessionid")
            if not isinstance(symbols, list):
                raise ValueError
        except (ValueError, KeyError, TypeError, AttributeError):
            await self.stream.send(self.framed({"error": "invalid payload"}))
            return
        self.linebreak = bool(payload.get("linebreak", False))
        if session != TRADIER_SESSION:
            report("AUTH failed")
            await self.stream.send(self.framed({"error": "session not found"}))
            return
        if not self.authenticated:
            self.authenticated = True
            report("AUTH ok")
            if self.stream.options.session_ttl is not None:
                self.expiry = asyncio.create_task(self.expire())
        wanted = payload.get("filter")
        self.filter = tuple(t for t in TRADIER_TYPES if t in wanted) if isinstance(wanted, list) else TRADIER_TYPES
        accepted = []
        for symbol in (str(s) for s in symbols):
            if symbol == "$empty$" or symbol in accepted:
                continue
            if symbol == INVALID_SYMBOL:
                report(f"REJECTED {symbol} invalid")
                await self.stream.send(self.framed({"error": f"{symbol} is not a valid symbol"}))
                continue
            accepted.append(symbol)
        self.stream.forget(set(self.symbols) - set(accepted))
        self.symbols = accepted
        report(symbols_line(self.symbols))

    async def expire(self):
        await asyncio.sleep(self.stream.options.session_ttl)
        report("SESSION expired")
        await self.stream.close(1000, "")

    def subscribed(self):
        return set(self.symbols)

    def tick(self, only=None):
        messages = []
        milliseconds = str(self.stream.now_ms())
        for symbol in self.stream.chosen(self.symbols, only):
            tick = self.stream.next_tick(symbol)
            last = price_text(self.stream.price(symbol, tick))
            bid, ask = self.stream.bid_ask(symbol, tick)
            volume = str(38_211_905 + 200 * tick)
            for kind in self.filter:
                if kind == "quote":
                    event = {"type": "quote", "symbol": symbol, "bid": bid, "bidsz": 3, "bidexch": "Q", "biddate": milliseconds,
                             "ask": ask, "asksz": 2, "askexch": "P", "askdate": milliseconds}
                elif kind in ("trade", "tradex"):
                    event = {"type": kind, "symbol": symbol, "exch": "Q", "price": last, "size": "200", "cvol": volume,
                             "date": milliseconds, "last": last}
                elif kind == "timesale":
                    event = {"type": "timesale", "symbol": symbol, "exch": "Q", "bid": price_text(bid), "ask": price_text(ask),
                             "last": last, "size": "200", "date": milliseconds, "seq": 48_211 + tick, "flag": "",
                             "cancel": False, "correction": False, "session": "normal"}
                elif tick == 0:
                    event = {"type": "summary", "symbol": symbol, "open": price_text(price(symbol, 0)), "high": last,
                             "low": price_text(price(symbol, 0)), "prevClose": price_text(bid)}
                else:
                    continue
                messages.append(self.framed(event))
        return messages


PROTOCOLS = {"polygon": PolygonProtocol, "alpaca": AlpacaProtocol, "finnhub": FinnhubProtocol, "tradier": TradierProtocol}


def stream_path_ok(broker, path):
    if broker == "polygon":
        return path == "/stocks"
    if broker == "alpaca":
        parts = path.strip("/").split("/")
        return len(parts) == 2 and parts[0] == "v2" and parts[1] in ALPACA_FEEDS
    if broker == "finnhub":
        return path == "/"
    return path == "/v1/markets/events"


def json_response(status, body, content_type="application/json"):
    status = http.HTTPStatus(status)
    headers = Headers([("Content-Type", content_type), ("Content-Length", str(len(body))), ("Connection", "close")])
    return Response(status.value, status.phrase, headers, body)


def tradier_session(request):
    """Reference §1.5 step 1, and the plain-text 401 of §1.4 for any other token."""
    if request.headers.get("Authorization") not in [f"Bearer {token}" for token in TRADIER_TOKENS]:
        report("SESSION refused")
        return json_response(401, b"Invalid Access Token", "text/plain")
    report("SESSION created")
    body = compact({"stream": {"url": "https://stream.tradier.com/v1/markets/events", "sessionid": TRADIER_SESSION}})
    return json_response(200, body.encode())


def make_process_request(options, routes):
    def process_request(connection, request):
        split = urllib.parse.urlsplit(request.path)
        if "websocket" not in request.headers.get("Upgrade", "").lower():
            if options.broker == "tradier" and request.method == "POST" and split.path == TRADIER_SESSION_PATH:
                return tradier_session(request)
            if routes is None:
                return None
            query = urllib.parse.parse_qs(split.query, keep_blank_values=True)
            lowered = {name.lower(): value for name, value in request.headers.raw_items()}
            method = request.method.upper()
            route = next((r for r in routes if http_fixture_server.matches(r, method, split.path, query, lowered)), None)
            if route is None:
                return json_response(404, b'{"error":"no fixture route"}')
            status = http.HTTPStatus(route["status"])
            headers = Headers([(k, str(v)) for k, v in route["headers"].items()
                               if k.lower() not in ("content-length", "connection")])
            headers["Content-Length"] = str(len(route["body"]))
            headers["Connection"] = "close"
            return Response(status.value, status.phrase, headers, route["body"])
        if not stream_path_ok(options.broker, split.path):
            return json_response(404, b'{"error":"not found"}')
        if options.broker == "finnhub":
            token = urllib.parse.parse_qs(split.query).get("token", [None])[0]
            if token not in FINNHUB_TOKENS:
                report("AUTH failed")
                return json_response(401, b'{"error":"Invalid API key"}')
        return None

    return process_request


def exit_when_stdin_closes(loop, server):
    def on_readable():
        if not os.read(sys.stdin.fileno(), 1024):
            server.flush_log()
            os._exit(0)

    loop.add_reader(sys.stdin.fileno(), on_readable)


def parse_options(argv=None):
    parser = argparse.ArgumentParser(description="Serve one broker's streaming protocol.")
    parser.add_argument("--broker", required=True, choices=sorted(PROTOCOLS))
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--interval", type=float, default=0.1, help="seconds between ticks")
    parser.add_argument("--auth-timeout", type=float, default=10.0, help="seconds to authenticate (polygon, alpaca)")
    parser.add_argument("--ping-interval", type=float, default=1.0, help="idle seconds before a finnhub ping")
    parser.add_argument("--symbol-limit", type=int, default=30, help="alpaca's trades+quotes symbol limit")
    parser.add_argument("--session-ttl", type=float, help="tradier: close a session's socket after this long")
    parser.add_argument("--start-ms", type=int, help="fixed first timestamp (epoch ms) instead of the wall clock")
    parser.add_argument("--routes", help="answer plain HTTP requests from the routes.json files under this directory")
    parser.add_argument("--forever", action="store_true", help="ignore stdin; run until SIGTERM or SIGINT")
    parser.add_argument("--malformed-every", type=int, default=0, help="send a frame that is not JSON after every N-th tick with data")
    parser.add_argument("--rate", type=float, default=0, help="events per second per connection, round-robin over its symbols (instead of ticks)")
    parser.add_argument("--rate-phase", type=float, default=0, help="--rate: shift the deadlines by this fraction of an interval")
    parser.add_argument("--sequence-prices", action="store_true", help="prices carry the server's event sequence number: (10000 + s) / 100")
    parser.add_argument("--sequence-modulus", type=int, default=0, help="--sequence-prices: carry s mod M, (10000 + s mod M) / 100")
    parser.add_argument("--write-log", metavar="FILE", help="one line per event written: <sequence> <symbol> <monotonic_ns>")
    parser.add_argument("--drop-after", type=float, default=0, help="abort every connection this many seconds after it opened")
    parser.add_argument("--status-file", metavar="FILE", help="rewrite FILE with the open connections and their symbols (JSON)")
    return parser.parse_args(argv)


async def main():
    options = parse_options()
    routes = None
    if options.routes:
        try:
            routes = http_fixture_server.load_routes(options.routes)
        except http_fixture_server.RouteError as error:
            sys.stderr.write(f"stream_fixture_server: {error}\n")
            sys.exit(2)
    context = None
    if options.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(options.tls[0], options.tls[1])
    server = Server(options)
    if not options.forever:
        exit_when_stdin_closes(asyncio.get_running_loop(), server)
    if server.write_log is not None:
        def flush_and_exit():
            server.flush_log()
            os._exit(0)
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, flush_and_exit)
    # Held so that the task is not collected while it runs.
    status_writer = asyncio.create_task(server.write_status_forever(options.status_file)) if options.status_file else None

    async def handle(ws):
        stream = Stream(server, ws)
        await stream.run(PROTOCOLS[options.broker](stream))

    async with serve(
        handle,
        options.host,
        options.port,
        ssl=context,
        process_request=make_process_request(options, routes),
        ping_interval=None,
        compression=None,
        reuse_address=True,
    ) as listener:
        report(f"LISTENING {listener.sockets[0].getsockname()[1]}")
        await asyncio.Future()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
