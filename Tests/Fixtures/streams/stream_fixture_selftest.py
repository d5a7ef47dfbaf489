#!/usr/bin/env python3
"""Checks stream_fixture_server.py against the wire formats of the reference, with a `websockets`
client: each broker's handshake, auth failure, connection and symbol limits, subscription errors,
timeouts, data messages and prices. Exit status 0 when every check passed; the failures otherwise.

Run by LiveStreamFixtureSelfTests (Swift) in `make test`, or by hand:
stream_fixture_selftest.py [--time-scale N] [broker...]

--time-scale N stretches every wall-clock limit here N times: the client's waits and the server's own
limits the checks must beat (a 0.3 s auth timeout is missed when eleven checks start servers at once
on a busy machine). The Swift test passes COMMONBROKER_TEST_TIME_SCALE (5 under `make test-tsan`).
"""

import asyncio
import json
import os
import re
import sys
import tempfile

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stream_fixture_server.py")
FIXTURES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIME_SCALE = 1
TIMEOUT = 3


def seconds(value):
    """A server limit in seconds, stretched by --time-scale, as its command-line argument."""
    return f"{value * TIME_SCALE:g}"


class Fixture:
    """One server process; its control lines are collected for `line`."""

    def __init__(self, broker, *arguments):
        self.arguments = ["--broker", broker, "--interval", "0.02", *arguments]
        self.lines = []
        self.changed = asyncio.Event()

    async def __aenter__(self):
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-u", SERVER, *self.arguments,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        first = (await asyncio.wait_for(self.process.stdout.readline(), 10 * TIME_SCALE)).decode().strip()
        assert first.startswith("LISTENING "), first
        self.port = int(first.split()[1])
        self.reader = asyncio.create_task(self.read())
        return self

    async def __aexit__(self, *_):
        self.process.stdin.close()
        await asyncio.wait_for(self.process.wait(), 5 * TIME_SCALE)
        self.reader.cancel()

    async def read(self):
        while line := await self.process.stdout.readline():
            self.lines.append(line.decode().strip())
            self.changed.set()

    async def line(self, wanted):
        async def find():
            while wanted not in self.lines:
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(find(), TIMEOUT)

    def url(self, path):
        return f"ws://127.0.0.1:{self.port}{path}"


async def receive(ws):
    return json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))


async def closed(ws):
    """True once the server closes the connection within the timeout, whatever it sends before."""
    async def drain():
        try:
            while True:
                await ws.recv()
        except ConnectionClosed:
            return True
    try:
        return await asyncio.wait_for(drain(), TIMEOUT)
    except TimeoutError:
        return False


def prices(symbol):
    base = (100 + sum(symbol.encode()) % 400) * 100
    return [(base + k) / 100 for k in range(500)]


# Polygon ------------------------------------------------------------------------------------------


async def polygon_handshake_and_data():
    async with Fixture("polygon") as fixture:
        async with connect(fixture.url("/stocks")) as ws:
            assert await ws.recv() == '[{"ev":"status","status":"connected","message":"Connected Successfully"}]'
            await ws.send('{"action":"auth","params":"test-key"}')
            assert await ws.recv() == '[{"ev":"status","status":"auth_success","message":"authenticated"}]'
            await ws.send('{"action":"subscribe","params":"T.AAPL, Q.AAPL,T.MSFT,AM.MSFT,T.ZZZZ"}')
            acks = await receive(ws)
            assert [a["message"] for a in acks] == [f"subscribed to: {p}" for p in ("T.AAPL", "Q.AAPL", "T.MSFT", "AM.MSFT", "T.ZZZZ")], acks
            assert all(a["status"] == "success" for a in acks)
            await fixture.line("SUBSCRIBED AAPL MSFT ZZZZ")
            frames = [await receive(ws) for _ in range(10)]
            assert [e["ev"] for e in frames[0]] == ["T", "Q", "T"], frames[0]
            assert frames[0][0]["sym"] == "AAPL" and frames[0][0]["p"] == 386.0 and frames[0][1]["bp"] == 385.99
            assert frames[0][1]["ap"] == 386.01 and frames[0][2] == {**frames[0][2], "sym": "MSFT", "p": 414.0}
            assert [e["p"] for f in frames for e in f if e["ev"] == "T" and e["sym"] == "AAPL"] == prices("AAPL")[:10]
            assert any(e["ev"] == "AM" and e["sym"] == "MSFT" for e in frames[9]), "every 10th tick has AM"
            assert not any(e.get("sym") == "ZZZZ" for f in frames for e in f), "ZZZZ never trades"
            assert set(frames[0][0]) == {"ev", "sym", "i", "x", "p", "s", "c", "t", "q", "z"}
            await ws.send('{"action":"unsubscribe","params":"T.MSFT,AM.MSFT,T.ZZZZ"}')
            while (acks := await receive(ws))[0]["ev"] != "status":
                pass
            assert acks[0]["message"] == "unsubscribed to: T.MSFT", acks
            await fixture.line("SUBSCRIBED AAPL")
            frame = await receive(ws)
            assert {e["sym"] for e in frame} == {"AAPL"}, frame


async def polygon_bad_key_second_connection_and_timeout():
    async with Fixture("polygon", "--auth-timeout", seconds(0.3)) as fixture:
        async with connect(fixture.url("/stocks")) as ws:
            await ws.recv()
            await ws.send('{"action":"auth","params":"wrong"}')
            assert await ws.recv() == '[{"ev":"status","status":"auth_failed","message":"authentication failed"}]'
            assert await closed(ws)
        await fixture.line("AUTH failed")
        async with connect(fixture.url("/stocks")) as first, connect(fixture.url("/stocks")) as second:
            for ws in (first, second):
                await ws.recv()
                await ws.send('{"action":"auth","params":"test-key"}')
            assert (await receive(first))[0]["status"] == "auth_success"
            refused = await receive(second)
            assert refused[0]["status"] == "max_connections" and "connection limit" in refused[0]["message"], refused
            assert await closed(second)
        await fixture.line("AUTH limit")
        async with connect(fixture.url("/stocks")) as ws:
            await ws.recv()
            assert await ws.recv() == '[{"ev":"status","status":"auth_timeout","message":"No authentication request received."}]'
            assert await closed(ws)
        try:
            async with connect(fixture.url("/crypto")):
                raise AssertionError("an unknown path must be refused")
        except InvalidStatus as error:
            assert error.response.status_code == 404


async def polygon_rest_routes_on_the_same_port():
    import urllib.request
    async with Fixture("polygon", "--routes", os.path.join(FIXTURES, "polygon")) as fixture:
        def fetch():
            request = urllib.request.Request(f"http://127.0.0.1:{fixture.port}/v2/snapshot/locale/us/markets/stocks/tickers/AAPL",
                                             headers={"Authorization": "Bearer test-key"})
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return response.status, json.loads(response.read())
        status, body = await asyncio.to_thread(fetch)
        assert status == 200 and body["ticker"]["ticker"] == "AAPL", body
        async with connect(fixture.url("/stocks")) as ws:
            assert "connected" in await ws.recv()


# Alpaca -------------------------------------------------------------------------------------------


async def alpaca_handshake_data_and_errors():
    async with Fixture("alpaca", "--symbol-limit", "3") as fixture:
        async with connect(fixture.url("/v2/iex")) as ws:
            assert await ws.recv() == '[{"T":"success","msg":"connected"}]'
            await ws.send('{"action":"subscribe","trades":["AAPL"]}')
            assert await ws.recv() == '[{"T":"error","code":401,"msg":"not authenticated"}]'
            await ws.send('{"action":"auth","key":"test-key-id","secret":"test-secret"}')
            assert await ws.recv() == '[{"T":"success","msg":"authenticated"}]'
            await ws.send('{"action":"auth","key":"test-key-id","secret":"test-secret"}')
            assert await ws.recv() == '[{"T":"error","code":403,"msg":"already authenticated"}]'
            await ws.send('not json')
            assert await ws.recv() == '[{"T":"error","code":400,"msg":"invalid syntax"}]'
            await ws.send('{"action":"subscribe","trades":["AAPL","MSFT"],"quotes":["AAPL","MSFT"]}')
            assert await ws.recv() == ('[{"T":"subscription","trades":["AAPL","MSFT"],"quotes":["AAPL","MSFT"],"bars":[],'
                                       '"updatedBars":[],"dailyBars":[],"statuses":[],"lulds":[],'
                                       '"corrections":["AAPL","MSFT"],"cancelErrors":["AAPL","MSFT"]}]')
            await fixture.line("SUBSCRIBED AAPL MSFT")
            await ws.send('{"action":"subscribe","quotes":["ZZZZ"]}')
            while (message := await receive(ws))[0]["T"] != "error":
                pass
            assert message == [{"T": "error", "code": 405, "msg": "symbol limit exceeded"}], message
            await ws.send('{"action":"subscribe","trades":["NVDA","TSLA"]}')
            while (message := await receive(ws))[0]["T"] != "error":
                pass
            assert message[0]["code"] == 405, "AAPL, MSFT, NVDA and TSLA are over the limit of 3"
            await fixture.line("REJECTED TSLA 405")
            batches = [await receive(ws) for _ in range(8)]
            stamps = set()
            aapl = []
            for batch in batches:
                assert [m["T"] for m in batch] == ["t", "q", "t", "q"], batch
                aapl.append(batch[0]["p"])
                stamps.add(len(batch[0]["t"]))
                assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", batch[0]["t"]), batch[0]["t"]
                assert batch[1]["bp"] < batch[0]["p"] < batch[1]["ap"]
            assert stamps == {20, 24, 27, 30}, stamps  # 0, 3, 6 and 9 fraction digits
            start = prices("AAPL").index(aapl[0])
            assert aapl == prices("AAPL")[start:start + 8], aapl
            await ws.send('{"action":"unsubscribe","trades":["MSFT"],"quotes":["MSFT"]}')
            while (message := await receive(ws))[0]["T"] != "subscription":
                pass
            assert message[0]["trades"] == ["AAPL"] and message[0]["quotes"] == ["AAPL"], message
            await fixture.line("SUBSCRIBED AAPL")
            assert {m["S"] for m in await receive(ws)} == {"AAPL"}


async def alpaca_auth_failures_limits_and_headers():
    async with Fixture("alpaca", "--auth-timeout", seconds(0.3)) as fixture:
        async with connect(fixture.url("/v2/iex")) as ws:
            await ws.recv()
            await ws.send('{"action":"auth","key":"test-key-id","secret":"wrong"}')
            assert await ws.recv() == '[{"T":"error","code":402,"msg":"auth failed"}]'
            assert await closed(ws)
        headers = {"APCA-API-KEY-ID": "test-key-id", "APCA-API-SECRET-KEY": "test-secret"}
        async with connect(fixture.url("/v2/iex"), additional_headers=headers) as first:
            assert await first.recv() == '[{"T":"success","msg":"connected"}]'
            assert await first.recv() == '[{"T":"success","msg":"authenticated"}]'
            async with connect(fixture.url("/v2/test")) as second:
                await second.recv()
                await second.send('{"action":"auth","key":"test-key-id","secret":"test-secret"}')
                assert await second.recv() == '[{"T":"error","code":406,"msg":"connection limit exceeded"}]'
                assert await closed(second)
        async with connect(fixture.url("/v2/sip")) as ws:
            await ws.recv()
            await ws.send('{"action":"auth","key":"test-key-id","secret":"test-secret"}')
            assert await ws.recv() == '[{"T":"error","code":409,"msg":"insufficient subscription"}]'
        async with connect(fixture.url("/v2/iex")) as ws:
            await ws.recv()
            assert await ws.recv() == '[{"T":"error","code":404,"msg":"auth timeout"}]'
            assert await closed(ws)
        for line in ("AUTH failed", "AUTH limit", "AUTH plan", "AUTH timeout"):
            await fixture.line(line)


# Finnhub ------------------------------------------------------------------------------------------


async def finnhub_token_trades_pings_and_errors():
    async with Fixture("finnhub", "--ping-interval", "0.1") as fixture:
        try:
            async with connect(fixture.url("/?token=wrong")):
                raise AssertionError("a bad token must be refused on the upgrade")
        except InvalidStatus as error:
            assert error.response.status_code == 401 and b"Invalid API key" in error.response.body
        await fixture.line("AUTH failed")
        async with connect(fixture.url("/?token=test-token")) as ws:
            assert await receive(ws) == {"type": "ping"}, "an idle connection is pinged"
            await ws.send('{"type":"subscribe","symbol":"AAPL"}')
            await ws.send('{"type":"subscribe","symbol":"ZZZZ"}')
            await ws.send('{"type":"subscribe","symbol":"BINANCE:BTCUSDT"}')
            await fixture.line("SUBSCRIBED AAPL BINANCE:BTCUSDT")
            trades, error = [], None
            while len(trades) < 6:
                message = await receive(ws)
                if message["type"] == "error":
                    error = message
                elif message["type"] == "trade":
                    trades.append(message)
            assert error == {"type": "error", "msg": "Invalid symbol ZZZZ"}, error
            last = trades[-1]["data"]
            assert [d["s"] for d in last] == ["AAPL", "BINANCE:BTCUSDT"], last
            aapl = [d for t in trades for d in t["data"] if d["s"] == "AAPL"]
            assert [d["p"] for d in aapl] == prices("AAPL")[:len(aapl)], aapl
            assert [d["v"] for d in aapl][:5] == [100, 100, 100, 100, 0], "the 5th tick is a price-only update"
            assert [d.get("c", "absent") for d in aapl][:3] == [["1", "12"], None, "absent"]
            assert isinstance(aapl[0]["t"], int) and aapl[0]["t"] > 1_600_000_000_000, "milliseconds"
            await ws.send('{"type":"unsubscribe","symbol":"BINANCE:BTCUSDT"}')
            await fixture.line("SUBSCRIBED AAPL")


# Malformed frames (--malformed-every) -------------------------------------------------------------


async def malformed_frames(broker, path, handshake, subscribe):
    """Every 2nd tick with data is followed by a frame that is not JSON; the connection stays open."""
    async with Fixture(broker, "--malformed-every", "2") as fixture:
        async with connect(fixture.url(path)) as ws:
            await handshake(ws)
            await ws.send(subscribe)
            await fixture.line("SUBSCRIBED AAPL")
            kinds = []
            while kinds.count("bad") < 3:
                text = await asyncio.wait_for(ws.recv(), TIMEOUT)
                try:
                    json.loads(text)
                    kinds.append("ok")
                except ValueError:
                    assert text.startswith(("[{", "{")), text
                    kinds.append("bad")
            # Acknowledgements may come first; from the first tick on, two good frames precede each bad one.
            assert kinds[-6:] == ["ok", "ok", "bad"] * 2, kinds
            await fixture.line("MALFORMED 3 1")
            assert json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT)), "the connection goes on"


async def polygon_malformed_frames_among_good_ones():
    async def handshake(ws):
        await ws.recv()
        await ws.send('{"action":"auth","params":"test-key"}')
        await ws.recv()
    await malformed_frames("polygon", "/stocks", handshake, '{"action":"subscribe","params":"T.AAPL"}')


async def finnhub_malformed_frames_among_good_ones():
    async def handshake(ws):
        pass
    await malformed_frames("finnhub", "/?token=test-token", handshake, '{"type":"subscribe","symbol":"AAPL"}')


# A flaky broker (--drop-after, --status-file), for make soak ----------------------------------------


async def status_until(path, condition):
    """The status file's object once `condition` holds for it (it is rewritten every 0.5 s)."""
    async def poll():
        while True:
            try:
                with open(path) as file:
                    status = json.load(file)
                if condition(status):
                    return status
            except (OSError, ValueError):
                pass
            await asyncio.sleep(0.05)
    return await asyncio.wait_for(poll(), TIMEOUT)


async def finnhub_drops_connections_and_reports_their_symbols():
    """Each connection is aborted (no close frame) --drop-after seconds after it opened; the status file
    lists the open connections with their symbols, and how many were accepted."""
    with tempfile.TemporaryDirectory(prefix="stream-fixture-status-") as directory:
        await drops_and_status(os.path.join(directory, "status.json"))


async def drops_and_status(path):
    async with Fixture("finnhub", "--drop-after", seconds(1), "--status-file", path) as fixture:
        ws = await connect(fixture.url("/?token=test-token"))
        await ws.send('{"type":"subscribe","symbol":"AAPL"}')
        await ws.send('{"type":"subscribe","symbol":"MSFT"}')
        status = await status_until(path, lambda s: s["connections"] and s["connections"][0]["symbols"] == ["AAPL", "MSFT"])
        assert status["accepted"] == 1 and status["connections"][0]["id"] == 1, status
        try:
            while True:
                await asyncio.wait_for(ws.recv(), TIMEOUT)
        except ConnectionClosed as closed_by:
            assert closed_by.rcvd is None, f"dropped without a close frame, not {closed_by.rcvd}"
        await fixture.line("DROPPED /?token=test-token")
        await status_until(path, lambda s: s == {"accepted": 1, "connections": []})
        async with connect(fixture.url("/?token=test-token")) as again:
            await again.send('{"type":"subscribe","symbol":"IBM"}')
            status = await status_until(path, lambda s: s["connections"] and s["connections"][0]["symbols"] == ["IBM"])
            assert status["accepted"] == 2 and status["connections"][0]["id"] == 2, status


# Tradier ------------------------------------------------------------------------------------------


async def tradier_session_created_over_rest_on_the_same_port():
    import urllib.error
    import urllib.request
    async with Fixture("tradier") as fixture:
        def post(token):
            request = urllib.request.Request(f"http://127.0.0.1:{fixture.port}/v1/markets/events/session", method="POST",
                                             headers={"Authorization": f"Bearer {token}", "Accept": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                    return response.status, response.read()
            except urllib.error.HTTPError as error:
                return error.code, error.read()
        assert await asyncio.to_thread(post, "test-token") == (
            200, b'{"stream":{"url":"https://stream.tradier.com/v1/markets/events","sessionid":"test-session"}}')
        assert await asyncio.to_thread(post, "wrong") == (401, b"Invalid Access Token")
        await fixture.line("SESSION refused")


async def tradier_session_payloads_and_errors():
    async with Fixture("tradier", "--session-ttl", seconds(0.6)) as fixture:
        async with connect(fixture.url("/v1/markets/events")) as ws:
            await ws.send('{"symbols":["AAPL"],"sessionid":"expired"}')
            assert await ws.recv() == '{"error":"session not found"}'
            await fixture.line("AUTH failed")
            await ws.send('{"symbols":["AAPL","ZZZZ","MSFT"],"sessionid":"test-session","filter":["trade","quote","summary"],'
                          '"linebreak":true,"validOnly":true,"advancedDetails":false}')
            assert await ws.recv() == '{"error":"ZZZZ is not a valid symbol"}\n'
            await fixture.line("SUBSCRIBED AAPL MSFT")
            frames = [await ws.recv() for _ in range(6)]
            assert all(f.endswith("}\n") and f.count("\n") == 1 for f in frames), frames
            events = [json.loads(f) for f in frames]
            assert [(e["type"], e["symbol"]) for e in events] == [
                ("trade", "AAPL"), ("quote", "AAPL"), ("summary", "AAPL"),
                ("trade", "MSFT"), ("quote", "MSFT"), ("summary", "MSFT")], events
            assert events[0] == {**events[0], "price": "386", "last": "386", "size": "200"}, events[0]
            assert isinstance(events[0]["date"], str) and isinstance(events[1]["bid"], float) and events[1]["bid"] == 385.99
            assert isinstance(events[1]["biddate"], str) and "prevClose" in events[2]
            await ws.send('{"symbols":["MSFT"],"sessionid":"test-session"}')
            await fixture.line("SUBSCRIBED MSFT")
            kinds = set()
            while len(kinds) < 4:
                event = json.loads(await ws.recv())
                if event["symbol"] == "MSFT" and event["type"] != "summary":
                    kinds.add(event["type"])
            assert kinds == {"trade", "quote", "timesale", "tradex"}, "no filter means every type"
            assert await closed(ws), "the session expires"
        await fixture.line("SESSION expired")


CHECKS = {
    "polygon": [polygon_handshake_and_data, polygon_bad_key_second_connection_and_timeout, polygon_rest_routes_on_the_same_port,
                polygon_malformed_frames_among_good_ones],
    "alpaca": [alpaca_handshake_data_and_errors, alpaca_auth_failures_limits_and_headers],
    "finnhub": [finnhub_token_trades_pings_and_errors, finnhub_malformed_frames_among_good_ones,
                finnhub_drops_connections_and_reports_their_symbols],
    "tradier": [tradier_session_created_over_rest_on_the_same_port, tradier_session_payloads_and_errors],
}


async def main(brokers):
    checks = [check for broker in brokers for check in CHECKS[broker]]
    results = await asyncio.gather(*(check() for check in checks), return_exceptions=True)
    failures = 0
    for check, result in zip(checks, results):
        if isinstance(result, BaseException):
            failures += 1
            print(f"FAIL {check.__name__}: {type(result).__name__}: {result}")
        else:
            print(f"ok   {check.__name__}")
    return 1 if failures else 0


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments[:1] == ["--time-scale"]:
        TIME_SCALE = int(arguments[1])
        TIMEOUT *= TIME_SCALE
        arguments = arguments[2:]
    sys.exit(asyncio.run(main(arguments or list(CHECKS))))
