#!/usr/bin/env python3
"""One wire-to-screen scenario of `make bench` (Sources/Benchmarks/WireToScreenBenchmark.swift runs it).

The app runs in a pseudo-terminal (default 120x50, TERM=xterm-256color) and every byte it writes is fed
to `pyte`, an independent terminal emulator: what the screen shows is read there, never from the app.

Streams (the default): four stream fixture servers (../streams/stream_fixture_server.py: polygon,
alpaca, finnhub, tradier) over loopback, each with `--rate <rate/4> --rate-phase <0, 1/4, 2/4, 3/4>
--sequence-prices --sequence-modulus 40000 --write-log` (the phases interleave the servers' events
evenly), and a config whose watchlist holds `--symbols` generated symbols (WAAA, WAAB, ...) on every
broker. An event's price is (10000 + s mod 40000) / 100 with s its server's sequence number, so a row's
last price names the event it shows: the latest one of that row written with that remainder before the
screen showed it (a row's remainders repeat after 40,000 / (symbols) of its events, 16 s at the fastest
scenario, far longer than any latency). The modulus keeps each row's prices within $400, as a real
price stays within a range: an ever-rising one would make the app keep its history in the wide form.

Full histories (issue 18: RSS at 4 x 500 rows *with 30-minute histories full*): the app runs with
`COMMONBROKER_TEST_HISTORY_MINUTES=--history-minutes` (30; 0 for none), so each row starts with a
history as full as that many minutes of one price a second leave (Sources/Stores/HistoryBackfill.swift:
the app records prices at its own clock, so no back-dated event from a fixture could fill one).
Latency of an event = the first time its price is on the emulated screen (the
time.monotonic_ns of the pty read whose bytes drew it) minus the time the fixture logged its write
(time.monotonic_ns right after `await ws.send`); both are CLOCK_MONOTONIC.

Measured over a window of `--seconds` after the four brokers are live and `--warmup` seconds more:
  - latency p50 / p99 / max of the events written in the window for the rows visible on the screen
    (the sorted watchlist's first rows; the others are off screen and cannot be seen), the reader
    going on for `--tail` seconds after the window so late events count;
    The app also subscribes a few symbols besides the watchlist rows (AAPL, SPY, TSLA were seen): their
    events count in `written` and `achievedRate` only;
  - reached: the share of those events whose price was ever on the screen. The app draws at most
    ~30 frames a second: a row updated faster shows only the newest price of each frame (conflation);
  - idle: the latency of events written when the pty had been quiet for a frame interval (33.3 ms),
    i.e. a change that arrives when nothing was drawn for a frame;
  - the app's CPU (utime + stime from /proc/<pid>/stat over the window) as % of one core, its peak
    RSS (VmHWM) and RSS at the end (VmRSS, with its anonymous and file-backed parts); the fixture servers' CPU and this reader's, since they
    share the machine (during the window this reader only reads and stamps; pyte replays afterwards).
`--demo` runs `app --demo` instead (no fixtures) and measures CPU and RSS only: the demo's prices do
not say when they were made.

Writes one JSON object to `--out` (or stdout); on failure {"error": "<why>"} and exit status 1.
Needs the `pyte` and `websockets` packages (the Makefile's .venv).
"""

import argparse
import bisect
import fcntl
import json
import os
import queue
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

try:
    import pyte
except ImportError:
    pyte = None

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "..", "streams", "stream_fixture_server.py")
FIXTURES = os.path.dirname(HERE)
BROKERS = ("polygon", "alpaca", "finnhub", "tradier")
NAMES = {"Polygon": "polygon", "Alpaca": "alpaca", "Finnhub": "finnhub", "Tradier": "tradier"}
CREDENTIALS = {
    "polygon": {"apiKey": "test-key"},
    "alpaca": {"keyId": "test-key-id", "secretKey": "test-secret"},
    "finnhub": {"token": "test-token"},
    "tradier": {"token": "test-token"},
}
FRAME_INTERVAL_NS = 1_000_000_000 // 30
# Prices carry the event's sequence number modulo this (see the docstring): 100.00 to 499.99.
SEQUENCE_MODULUS = 40_000
# A watchlist row: an optional stale mark, symbol, broker letter and name, last price (see the footer
# and header of WatchlistScreen). Thousands separators are tolerated.
ROW = re.compile(r"^\W*([A-Z0-9.\-/^]+)\s+[A-Z]\s+(Polygon|Alpaca|Finnhub|Tradier)\s+(\S+)")
PRICE = re.compile(r"^[0-9][0-9,]*\.[0-9]{2}$")


class Failure(Exception):
    pass


def symbol_names(count):
    """WAAA, WAAB, ...: valid watchlist symbols (letters only), sorted as the app sorts them."""
    names = []
    for index in range(count):
        letters = ""
        for _ in range(3):
            letters = chr(65 + index % 26) + letters
            index //= 26
        names.append("W" + letters)
    return names


def cpu_ticks(pid):
    """utime + stime (proc(5) fields 14 and 15), in clock ticks."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def status_bytes(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return None


def percentile(sorted_values, share):
    """Nearest rank."""
    if not sorted_values:
        return None
    rank = max(1, -(-len(sorted_values) * share // 1))
    return sorted_values[int(min(rank, len(sorted_values))) - 1]


def summary_ms(latencies_ns):
    values = sorted(latencies_ns)
    if not values:
        return None
    return {"count": len(values), "p50": percentile(values, 0.50) / 1e6, "p99": percentile(values, 0.99) / 1e6,
            "max": values[-1] / 1e6}


class Fixture:
    def __init__(self, python, broker, rate, phase, log_path):
        self.broker = broker
        self.log_path = log_path
        self.process = subprocess.Popen(
            [python, "-u", SERVER, "--broker", broker, "--routes", os.path.join(FIXTURES, broker),
             "--rate", str(rate), "--rate-phase", str(phase), "--sequence-prices", "--sequence-modulus", str(SEQUENCE_MODULUS),
             "--write-log", log_path, "--symbol-limit", "1000000"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("LISTENING "):
            raise Failure(f"the {broker} fixture server did not start: {line or self.process.stderr.read()[-300:]!r}")
        self.port = int(line.split()[1])
        # Its control lines are not needed, but a full pipe would block it (a SUBSCRIBED line per
        # Finnhub subscribe lists every symbol so far: ~600 kB for 500 symbols).
        threading.Thread(target=lambda: all(self.process.stdout), daemon=True).start()

    def stop(self):
        """Closing stdin makes the server flush its write log and exit."""
        try:
            self.process.stdin.close()
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def writes(self):
        """(sequence, symbol, monotonic_ns) per event written."""
        with open(self.log_path) as log:
            for line in log:
                sequence, symbol, stamp = line.split()
                yield int(sequence), symbol, int(stamp)


class Terminal:
    """The app in a pty, its output fed to pyte. A thread reads the pty and stamps each read as it returns,
    so a slow `feed` (pyte is pure Python, and this machine may be busy) delays the emulation but not the
    times; the main thread feeds the reads in order."""

    def __init__(self, argv, environment, columns, rows):
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=environment,
                                        start_new_session=True, close_fds=True,
                                        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        os.close(slave)
        self.master = master
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.reads = []  # monotonic_ns of every read that returned bytes, in order
        self.closed = False
        self.chunks = queue.Queue()
        self.pending = None
        threading.Thread(target=self.read_forever, daemon=True).start()

    def read_forever(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                data = b""
            self.chunks.put((time.monotonic_ns(), data))
            if not data:
                return

    def pump(self, until_ns, on_rows=None):
        """Feeds the reads stamped up to `until_ns`, waiting for them until then; returns at `until_ns`
        (or at once when past it) even if earlier reads are still queued: `drain` feeds those.
        `on_rows(stamp, rows)` gets the dirty rows' text after each read."""
        while not self.closed:
            if self.pending is None:
                left = until_ns - time.monotonic_ns()
                if left <= 0:
                    return
                try:
                    self.pending = self.chunks.get(timeout=left / 1e9)
                except queue.Empty:
                    return
            stamp, data = self.pending
            if stamp > until_ns:
                return
            self.pending = None
            if not data:
                self.closed = True
                return
            self.reads.append(stamp)
            self.stream.feed(data)
            if on_rows is not None and self.screen.dirty:
                on_rows(stamp, [self.screen.display[row] for row in sorted(self.screen.dirty)])
            self.screen.dirty.clear()
            if time.monotonic_ns() >= until_ns:
                return

    def drain(self, until_ns, on_rows=None):
        """Feeds every read already made that is stamped up to `until_ns`."""
        while not self.closed:
            if self.pending is None:
                try:
                    self.pending = self.chunks.get_nowait()
                except queue.Empty:
                    return
            if self.pending[0] > until_ns:
                return
            self.pump(until_ns, on_rows)

    def text(self):
        return "\n".join(self.screen.display)

    def wait_for(self, condition, timeout_s, what):
        deadline = time.monotonic_ns() + int(timeout_s * 1e9)
        while not condition(self.text()):
            if self.closed or time.monotonic_ns() >= deadline:
                raise Failure(f"{what} within {timeout_s:g} s (app {'exited' if self.closed else 'running'}); "
                              f"screen: {self.text()[-600:]!r}")
            self.pump(min(deadline, time.monotonic_ns() + 50_000_000))

    def quit(self):
        """`q`, then SIGTERM after 3 s. The reading thread keeps the pty drained; nothing is fed here,
        so `drain` can still feed what was read before."""
        if self.process.poll() is None:
            try:
                os.write(self.master, b"q")
            except OSError:
                pass
            try:
                self.process.wait(3)
            except subprocess.TimeoutExpired:
                self.process.terminate()
                try:
                    self.process.wait(2)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()


def app_environment(scratch, history_minutes=0):
    environment = dict(os.environ)
    environment.pop("COMMONBROKER_TEST_HISTORY_MINUTES", None)
    if history_minutes:
        environment["COMMONBROKER_TEST_HISTORY_MINUTES"] = str(history_minutes)
    environment.update(TERM="xterm-256color", XDG_STATE_HOME=os.path.join(scratch, "state"),
                       XDG_CONFIG_HOME=os.path.join(scratch, "config"), LANG=environment.get("LANG", "C.UTF-8"))
    for name in ("COLUMNS", "LINES", "TMUX"):
        environment.pop(name, None)
    os.makedirs(environment["XDG_STATE_HOME"], exist_ok=True)
    os.makedirs(environment["XDG_CONFIG_HOME"], exist_ok=True)
    return environment


def all_live(text):
    footer = text.rstrip("\n ").rsplit("\n", 1)[-1]
    return all(f"{name} ● live" in footer for name in NAMES)


def measure_window(options, terminal, pid, fixtures=()):
    """The app's CPU over the window and its memory; then the screen. pyte is pure Python and cannot keep
    up with the app at 10,000 events/s on a busy machine, so during the window and the tail the reading
    thread only reads and stamps (the app never waits on a full pty, and this process leaves the CPU to
    the app); once the app has quit, `Terminal.drain` feeds every read to pyte in order with its own stamp."""
    ticks = os.sysconf("SC_CLK_TCK")
    t0 = time.monotonic_ns()
    cpu0 = cpu_ticks(pid)
    fixtures0 = sum(cpu_ticks(fixture) for fixture in fixtures)
    reader0 = os.times()
    t1 = t0 + int(options.seconds * 1e9)
    sleep_until(t1)
    cpu1 = cpu_ticks(pid)
    fixtures1 = sum(cpu_ticks(fixture) for fixture in fixtures)
    reader1 = os.times()
    elapsed = (time.monotonic_ns() - t0) / 1e9
    sleep_until(t1 + int(options.tail * 1e9))
    peak, rss = status_bytes(pid, "VmHWM"), status_bytes(pid, "VmRSS")
    anonymous, file_backed = status_bytes(pid, "RssAnon"), status_bytes(pid, "RssFile")
    if terminal.process.poll() is not None:
        raise Failure(f"the app exited during the window: {terminal.text()[-300:]!r}")
    result = {
        "windowSeconds": elapsed,
        "cpuPercentOfCore": 100 * (cpu1 - cpu0) / ticks / elapsed,
        "peakRSSBytes": peak,
        "rssBytes": rss,
        "rssAnonymousBytes": anonymous,
        "rssFileBytes": file_backed,
        "fixturesCPUPercentOfCore": 100 * (fixtures1 - fixtures0) / ticks / elapsed if fixtures else None,
        "readerCPUPercentOfCore": 100 * ((reader1.user - reader0.user) + (reader1.system - reader0.system)) / elapsed,
    }
    return t0, t1, result


def sleep_until(deadline_ns):
    while (left := deadline_ns - time.monotonic_ns()) > 0:
        time.sleep(left / 1e9)


def run_demo(options, scratch):
    terminal = Terminal([options.app, "--demo"], app_environment(scratch), options.columns, options.rows)
    try:
        terminal.wait_for(lambda text: "quit" in text, 20, "no first frame")
        terminal.pump(time.monotonic_ns() + int(options.warmup * 1e9))
        _, _, result = measure_window(options, terminal, terminal.process.pid)
    finally:
        terminal.quit()
    result.update(mode="demo")
    return result


def run_streams(options, scratch):
    per_server = options.rate / len(BROKERS)
    fixtures = {}
    terminal = None
    try:
        # Phases 0, 1/4, 2/4, 3/4: the four servers' events interleave evenly instead of arriving in step
        # (in step, at 10 events/s, three of every four found a frame just drawn for the first).
        for index, broker in enumerate(BROKERS):
            fixtures[broker] = Fixture(options.python, broker, per_server, index / len(BROKERS),
                                       os.path.join(scratch, f"{broker}.log"))
        symbols = symbol_names(options.symbols)
        brokers = {broker: dict(enabled=True, stream=True, baseURL=f"http://127.0.0.1:{fixtures[broker].port}",
                                **CREDENTIALS[broker]) for broker in BROKERS}
        config = os.path.join(scratch, "config.json")
        with open(os.open(config, os.O_WRONLY | os.O_CREAT, 0o600), "w") as file:
            # Rows must not go stale while a symbol waits its turn (2,000 rows at 100 events/s: 20 s).
            json.dump({"symbols": symbols, "staleAfterSeconds": 86_400, "brokers": brokers}, file)
        terminal = Terminal([options.app, "--config", config], app_environment(scratch, options.history_minutes),
                            options.columns, options.rows)

        terminal.wait_for(all_live, 30, "the four brokers were not live")
        terminal.pump(time.monotonic_ns() + int(options.warmup * 1e9))

        visible = set()
        for line in terminal.screen.display:
            match = ROW.match(line)
            if match:
                visible.add((match.group(1), NAMES[match.group(2)]))
        if not visible:
            raise Failure(f"no watchlist rows on the screen: {terminal.text()[-600:]!r}")

        # Each time a row's price changes on the screen: (broker, symbol, remainder, monotonic_ns). Resolved
        # to events once the write logs are read; the symbol guards against a price that is not a
        # sequenced one (a REST snapshot) naming another symbol's event.
        shown_now = {}
        changes = []

        def on_rows(stamp, rows):
            for line in rows:
                match = ROW.match(line)
                if not match or not PRICE.match(match.group(3)):
                    continue
                cents = round(float(match.group(3).replace(",", "")) * 100)
                row, remainder = (NAMES[match.group(2)], match.group(1)), cents - 10_000
                if shown_now.get(row) != remainder:
                    shown_now[row] = remainder
                    changes.append((*row, remainder, stamp))

        t0, t1, result = measure_window(options, terminal, terminal.process.pid,
                                        [fixture.process.pid for fixture in fixtures.values()])
        terminal.quit()
        terminal.drain(t1 + int(options.tail * 1e9), on_rows)
        reads = list(terminal.reads)
        terminal = None
        for fixture in fixtures.values():
            fixture.stop()

        seen = first_shown(changes, fixtures)
        written = written_visible = 0
        latencies, idle = [], []
        events = open(options.events, "w") if options.events else None
        if events is not None:
            with open(options.events + ".reads", "w") as dump:
                dump.write("".join(f"{stamp}\n" for stamp in reads))
        for broker, fixture in fixtures.items():
            for sequence, symbol, stamp in fixture.writes():
                if not t0 <= stamp <= t1:
                    continue
                written += 1
                if events is not None:
                    shown = seen.get((broker, symbol, sequence))
                    visible_mark = "visible" if (symbol, broker) in visible else "hidden"
                    events.write(f"{broker} {symbol} {sequence} {stamp} {shown if shown else '-'} {visible_mark}\n")
                if (symbol, broker) not in visible:
                    continue
                written_visible += 1
                shown = seen.get((broker, symbol, sequence))
                if shown is None:
                    continue
                latencies.append(shown - stamp)
                # Idle: nothing had come out of the pty for a frame interval before the write.
                before = bisect.bisect_left(reads, stamp)
                if before == 0 or stamp - reads[before - 1] >= FRAME_INTERVAL_NS:
                    idle.append(shown - stamp)
        window = (t1 - t0) / 1e9
        result.update(
            mode="streams", historyMinutes=options.history_minutes, symbolsPerBroker=options.symbols, rateTotal=options.rate, visibleRows=len(visible),
            rows=options.symbols * len(BROKERS), written=written, achievedRate=written / window,
            writtenVisible=written_visible, reached=len(latencies),
            reachedPercent=100 * len(latencies) / written_visible if written_visible else None,
            latencyMilliseconds=summary_ms(latencies), idleLatencyMilliseconds=summary_ms(idle),
        )
        return result
    finally:
        if terminal is not None:
            terminal.quit()
        for fixture in fixtures.values():
            if fixture.process.poll() is None:
                fixture.stop()



def first_shown(changes, fixtures):
    """(broker, symbol, sequence) -> the first monotonic_ns its price was on the screen: each change of a
    row's price is the latest event of that row written with that remainder at or before the change."""
    writes = {}  # (broker, symbol, remainder) -> ([monotonic_ns], [sequence]), in the order written
    for broker, fixture in fixtures.items():
        for sequence, symbol, stamp in fixture.writes():
            stamps, sequences = writes.setdefault((broker, symbol, sequence % SEQUENCE_MODULUS), ([], []))
            stamps.append(stamp)
            sequences.append(sequence)
    seen = {}
    for broker, symbol, remainder, stamp in changes:
        stamps, sequences = writes.get((broker, symbol, remainder), ((), ()))
        index = bisect.bisect_right(stamps, stamp) - 1
        if index < 0:
            continue
        key = (broker, symbol, sequences[index])
        if key not in seen or stamp < seen[key]:
            seen[key] = stamp
    return seen


def main():
    parser = argparse.ArgumentParser(description="One wire-to-screen scenario: latency, share reached, CPU, RSS.")
    parser.add_argument("--app", required=True, help="the commonbroker binary (release)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter with websockets, for the fixtures")
    parser.add_argument("--symbols", type=int, default=50, help="symbols per broker (the watchlist)")
    parser.add_argument("--rate", type=float, default=1000, help="events per second over the four brokers")
    parser.add_argument("--seconds", type=float, default=20, help="the measurement window")
    parser.add_argument("--warmup", type=float, default=3, help="seconds after the brokers are live")
    parser.add_argument("--tail", type=float, default=1, help="seconds read after the window")
    parser.add_argument("--columns", type=int, default=120)
    parser.add_argument("--rows", type=int, default=50)
    parser.add_argument("--history-minutes", type=int, default=30,
                        help="streams: every row starts with this many minutes of price history (0: none)")
    parser.add_argument("--demo", action="store_true", help="measure `app --demo` (CPU and RSS only)")
    parser.add_argument("--out", help="the JSON result (default: stdout)")
    parser.add_argument("--events", help="also write every event of the window here: broker symbol sequence written_ns shown_ns|-")
    options = parser.parse_args()

    # The reading thread stamps a read once it holds the GIL again: let it have it within 0.5 ms.
    sys.setswitchinterval(0.0005)
    scratch = tempfile.mkdtemp(prefix="cb-wire-")
    try:
        if pyte is None:
            raise Failure(f"the pyte package is missing from {sys.executable} (`make bench` installs it into .venv)")
        if not os.access(options.app, os.X_OK):
            raise Failure(f"{options.app} is not an executable (build it with `swift build -c release --product commonbroker`)")
        result = run_demo(options, scratch) if options.demo else run_streams(options, scratch)
        status = 0
    except Failure as failure:
        result, status = {"error": str(failure)}, 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    text = json.dumps(result, sort_keys=True)
    if options.out:
        with open(options.out, "w") as out:
            out.write(text + "\n")
    else:
        print(text)
    sys.exit(status)


if __name__ == "__main__":
    main()
