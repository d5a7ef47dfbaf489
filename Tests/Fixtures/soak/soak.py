#!/usr/bin/env python3
"""`make soak` (issue 18): the release app for `--minutes` (default 60) against four flaky streaming brokers.

- Four stream fixture servers (../streams/stream_fixture_server.py: Polygon, Alpaca, Finnhub, Tradier) on
  free loopback ports, a tick every `--interval` s (1); each aborts every WebSocket connection
  `--drop-after` s (20) after it opened, and writes its open connections and their symbols to a status file.
- One server is paused (SIGSTOP, then SIGCONT: it stops answering while its sockets stay open) for
  `--pause-seconds` (60) every `--pause-every` s (600), starting at 600 s, the brokers in turn. A run
  shorter than 20 minutes has one pause instead, at 2 minutes (at a third of the run when shorter than 4).
- The app runs in a detached tmux server of its own (`tmux -L`, 120x50, fresh XDG directories, a config
  that points each broker at its server). Every `--churn-every` s (5) the script adds a symbol (`a`,
  the symbol, Enter) and, once more than 4 of its own are on the list, removes the oldest (`g`, `d`: its
  symbols A0001, A0002, ... sort first), waiting each time to see the change on the screen.
- Every 10 s: the app's RSS (VmRSS, with its anonymous and file-backed parts: a heap that grows is
  anonymous, library code paged in as new paths run is file-backed) and threads (/proc/<pid>/status),
  open descriptors (/proc/<pid>/fd) and CPU (utime + stime of /proc/<pid>/stat over the interval, % of
  one core) go to soak.csv.

It fails (exit status 1, the reasons in summary.md and on stderr) when:
- the app exits;
- RSS or descriptors grow by more than 10 %: the largest sample of the last 5 minutes against the
  largest of the 5 minutes from the mark, the mark being 5 minutes in (1 minute for runs of 5 minutes or
  less: the first minutes are start-up; a short run compares a third of what follows the mark at each
  end). Descriptors are compared between samples with the same number of the app's sockets established
  to the brokers (`growth` says why);
- a subscription is missing after a reconnect: every connection, once open `--grace` s (10), must hold
  every symbol that was on the list for the last 5 s before it is `--grace + 7` s old (checked every
  second against the fixture's status file); a connection whose check window meets a pause is skipped;
- a broker has no open connection for 120 s outside its pause;
- a symbol added or removed by keys does not show (or go) on the screen within 15 s, or the screen
  lacks one of the list's rows (checked every minute).

Writes to `--out` (default soak-results/): soak.csv, summary.md, the fixtures' logs, the last screen.
"""

import argparse
import csv
import datetime
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.dirname(HERE)
SERVER = os.path.join(FIXTURES, "streams", "stream_fixture_server.py")
BROKERS = ("polygon", "alpaca", "finnhub", "tradier")
NAMES = {"polygon": "Polygon", "alpaca": "Alpaca", "finnhub": "Finnhub", "tradier": "Tradier"}
CREDENTIALS = {
    "polygon": {"apiKey": "test-key"},
    "alpaca": {"keyId": "test-key-id", "secretKey": "test-secret"},
    "finnhub": {"token": "test-token"},
    "tradier": {"token": "test-token"},
}
# The list's symbols that stay; the script's own (A0001, ...) sort before them.
BASE_SYMBOLS = ("MSFT", "NVDA", "QQQ")
CHURN_KEPT = 4
SETTLE_SECONDS = 5.0
SCREEN_TIMEOUT = 15.0
RECONNECT_LIMIT = 120.0
SAMPLE_SECONDS = 10.0
GROWTH_LIMIT = 0.10
# A watchlist row: an optional stale mark, symbol, broker letter and name (as wire_to_screen.py reads it).
ROW = re.compile(r"^\W*([A-Z0-9.\-/^]+)\s+[A-Z]\s+(Polygon|Alpaca|Finnhub|Tradier)\s")


class Failure(Exception):
    pass


def churn_symbol(number):
    """The script's n-th symbol: letters and digits, sorting before the base symbols in order of age.

    >>> churn_symbol(7)
    'A0007'
    """
    return f"A{number:04d}"


def pause_schedule(minutes, every=600.0, length=60.0):
    """(start, end, broker) of each pause, seconds from the start.

    >>> pause_schedule(60)[:2]
    [(600.0, 660.0, 'polygon'), (1200.0, 1260.0, 'alpaca')]
    >>> len(pause_schedule(60))
    5
    >>> pause_schedule(5)
    [(120.0, 180.0, 'polygon')]
    >>> pause_schedule(3)
    [(60.0, 120.0, 'polygon')]
    >>> pause_schedule(1)
    []
    """
    total = minutes * 60.0
    if minutes >= 20:
        starts = [every * k for k in range(1, int(total // every) + 1) if every * k + length < total]
    elif minutes >= 4:
        starts = [120.0]
    elif total >= 3 * length:
        starts = [total / 3]
    else:
        starts = []
    return [(start, start + length, BROKERS[index % len(BROKERS)]) for index, start in enumerate(starts)]


def growth_mark(minutes):
    """Seconds into the run from which growth counts.

    >>> growth_mark(60), growth_mark(5), growth_mark(6)
    (300.0, 60.0, 300.0)
    """
    return 300.0 if minutes > 5 else 60.0


def growth_window(minutes, mark):
    """Seconds compared at each end: 5 minutes, or a third of what follows the mark in a shorter run.

    >>> growth_window(60, 300.0), growth_window(5, 60.0)
    (300.0, 80.0)
    """
    return min(300.0, (minutes * 60 - mark) / 3)


def growth(samples, key, mark, window, state=None):
    """(baseline, end, growth, state): the largest `key` in [mark, mark + window) against the largest in
    the last `window` seconds of samples (dicts with `elapsed`), growth as a fraction; None when either
    window is empty. Maxima, not single samples, so one quiet moment does not count as a change.
    With `state` (a key), only samples with the same value of it are compared, and the largest growth over
    the values seen in both windows is returned with its value: the app holds three descriptors per
    open broker connection (a socket and a wake-up pipe), so descriptors are compared at the same number
    of open connections, or four drops at the end would pass for a shrink and four returns for a leak.

    >>> rows = [{"elapsed": t, "fds": f} for t, f in [(50, 9), (60, 10), (70, 12), (100, 11), (150, 13), (180, 12)]]
    >>> baseline, end, fraction, _ = growth(rows, "fds", 60, 60)
    >>> baseline, end, round(fraction, 4)
    (12, 13, 0.0833)
    >>> growth(rows, "fds", 200, 60) is None
    True
    >>> rows = [{"elapsed": t, "fds": f, "open": c} for t, f, c in
    ...         [(0, 26, 4), (10, 14, 0), (20, 20, 2), (100, 14, 0), (110, 15, 0), (120, 23, 3)]]
    >>> growth(rows, "fds", 0, 30, state="open")
    (14, 15, 0.0714285714285714, 0)
    >>> growth(rows, "fds", 0, 30)
    (26, 23, -0.11538461538461542, None)
    """
    if not samples:
        return None
    last = samples[-1]["elapsed"]
    first = [s for s in samples if mark <= s["elapsed"] < mark + window]
    end = [s for s in samples if s["elapsed"] > last - window and s["elapsed"] >= mark + window]

    def maxima(rows):
        found = {}
        for row in rows:
            group = row[state] if state else None
            found[group] = max(found.get(group, row[key]), row[key])
        return found

    before, after = maxima(first), maxima(end)
    compared = [(after[group] / before[group] - 1, group) for group in before if group in after and before[group] > 0]
    if not compared:
        return None
    fraction, group = max(compared, key=lambda pair: (pair[0], str(pair[1])))
    return before[group], after[group], fraction, group


def established_sockets(pid, ports):
    """How many of the app's TCP sockets are established to one of `ports` on loopback (its broker
    connections, from /proc/net/tcp by socket inode)."""
    inodes = set()
    for name in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{name}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            remote_port = int(fields[2].rsplit(":", 1)[1], 16)
            if fields[3] == "01" and fields[9] in inodes and remote_port in ports:
                count += 1
    return count


def missing_symbols(expected, subscribed):
    """The expected symbols a connection is not subscribed to (it may hold more: the app's own).

    >>> missing_symbols({"A0001", "MSFT"}, ["MSFT", "AAPL"])
    ['A0001']
    """
    return sorted(set(expected) - set(subscribed))


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def status_fields(pid):
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            values[name] = value.strip()
    return values


def alive(pid):
    try:
        return status_fields(pid).get("State", "Z").split()[0] not in ("Z", "X")
    except OSError:
        return False


class Fixture:
    def __init__(self, python, broker, out, drop_after, interval):
        self.broker = broker
        self.status_path = os.path.join(out, f"{broker}.status.json")
        self.log = open(os.path.join(out, f"{broker}.log"), "w", buffering=1)
        self.process = subprocess.Popen(
            [python, "-u", SERVER, "--broker", broker, "--routes", os.path.join(FIXTURES, broker),
             "--interval", str(interval), "--symbol-limit", "1000", "--drop-after", str(drop_after),
             "--status-file", self.status_path],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("LISTENING "):
            raise Failure(f"the {broker} fixture server did not start: {line!r} (see {self.log.name})")
        self.port = int(line.split()[1])
        threading.Thread(target=self.copy_output, daemon=True).start()

    def copy_output(self):
        for line in self.process.stdout:
            self.log.write(f"{time.monotonic():.3f} {line}")

    def status(self):
        try:
            with open(self.status_path) as file:
                return json.load(file)
        except (OSError, ValueError):
            return {"accepted": 0, "connections": []}

    def pause(self):
        os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self):
        os.kill(self.process.pid, signal.SIGCONT)

    def stop(self):
        try:
            self.resume()
            self.process.stdin.close()
            self.process.wait(5)
        except (subprocess.TimeoutExpired, OSError):
            self.process.kill()
            self.process.wait()


class Tmux:
    """The app in a detached tmux server of its own, as a person would run it."""

    def __init__(self, scratch, columns, rows):
        self.socket = f"cb-soak-{os.getpid()}"
        self.scratch = scratch
        self.conf = os.path.join(scratch, "tmux.conf")
        with open(self.conf, "w") as file:
            # The pane stays after the app exits, so its last screen can be read.
            file.write("set -g remain-on-exit on\n")
        self.size = (columns, rows)

    def run(self, *arguments):
        result = subprocess.run(["tmux", "-u", "-L", self.socket, "-f", self.conf, *arguments],
                                capture_output=True, text=True, timeout=20)
        if result.returncode != 0:
            raise Failure(f"tmux {' '.join(arguments)} failed ({result.returncode}): {result.stderr.strip()}")
        return result.stdout

    def start(self, command):
        self.run("new-session", "-d", "-s", "soak", "-x", str(self.size[0]), "-y", str(self.size[1]), command)
        # After the session: tmux 3.3 exits when a config file sets it before there is one.
        self.run("set-option", "-g", "window-size", "manual")
        return int(self.run("display-message", "-p", "-t", "soak", "#{pane_pid}").strip())

    def keys(self, *keys, literal=False):
        self.run("send-keys", "-t", "soak", *(["-l"] if literal else []), *keys)

    def screen(self):
        return self.run("capture-pane", "-p", "-t", "soak")

    def kill(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def rows_on(screen):
    """The (symbol, broker) rows on a captured screen."""
    found = set()
    for line in screen.split("\n"):
        match = ROW.match(line)
        if match:
            found.add((match.group(1), match.group(2)))
    return found


def footer_live(screen):
    footer = screen.rstrip("\n ").rsplit("\n", 1)[-1]
    return all(f"{name} ● live" in footer for name in NAMES.values())


class Soak:
    def __init__(self, options):
        self.options = options
        self.out = options.out
        self.failures = []
        self.notes = []
        self.samples = []
        self.list = {}  # symbol -> monotonic time the screen showed it (the script's own and the base)
        self.removed = {}  # symbol -> monotonic time it went from the screen
        self.next_churn = 1
        self.checked = {broker: set() for broker in BROKERS}  # connection ids verified or skipped
        self.verified = {broker: 0 for broker in BROKERS}
        self.skipped = {broker: 0 for broker in BROKERS}
        self.last_open = {}
        self.adds = self.removes = 0
        self.pauses_done = []
        self.start = time.monotonic()
        self.pid = None

    def fail(self, reason):
        stamp = self.elapsed()
        line = f"{stamp:7.1f} s: {reason}"
        print(f"soak: FAIL {line}", file=sys.stderr, flush=True)
        self.failures.append(line)

    def elapsed(self):
        return time.monotonic() - self.start

    # The app.

    def launch(self, scratch):
        self.fixtures = {broker: Fixture(self.options.python, broker, self.out, self.options.drop_after, self.options.interval)
                         for broker in BROKERS}
        brokers = {broker: dict(enabled=True, stream=True, baseURL=f"http://127.0.0.1:{fixture.port}", **CREDENTIALS[broker])
                   for broker, fixture in self.fixtures.items()}
        config = os.path.join(scratch, "config.json")
        with open(os.open(config, os.O_WRONLY | os.O_CREAT, 0o600), "w") as file:
            # Nothing goes stale while a broker is paused or reconnecting: the soak is about the
            # connections, not the stale marks.
            json.dump({"symbols": list(BASE_SYMBOLS), "staleAfterSeconds": 86_400, "brokers": brokers}, file)
        for name in ("state", "config", "home"):
            os.makedirs(os.path.join(scratch, name), exist_ok=True)
        environment = {"PATH": "/usr/bin:/bin", "HOME": os.path.join(scratch, "home"), "TERM": "tmux-256color",
                       "LANG": "C.UTF-8", "XDG_STATE_HOME": os.path.join(scratch, "state"),
                       "XDG_CONFIG_HOME": os.path.join(scratch, "config")}
        command = "exec env -i " + " ".join(f"{k}={v}" for k, v in environment.items()) + f" {self.options.app} --config {config}"
        self.tmux = Tmux(scratch, self.options.columns, self.options.rows)
        self.pid = self.tmux.start(command)
        self.start = time.monotonic()
        for symbol in BASE_SYMBOLS:
            self.list[symbol] = self.start
        screen = self.wait_screen(lambda s: footer_live(s), 60, "the four brokers live")
        if screen is None:
            raise Failure(f"the four brokers were not live within 60 s; screen:\n{self.tmux.screen()}")

    def app_running(self):
        return self.pid is not None and alive(self.pid)

    def wait_screen(self, condition, timeout, what):
        deadline = time.monotonic() + timeout
        while True:
            screen = self.tmux.screen()
            if condition(screen):
                return screen
            if not self.app_running() or time.monotonic() > deadline:
                return None
            time.sleep(0.2)

    # The keys.

    def churn(self):
        """Adds the next symbol and, once more than CHURN_KEPT of the script's own are on the list, removes
        the oldest. Each is seen on the screen (every broker's row, or none) before it counts."""
        screen = self.tmux.screen()
        if "Add symbols: " in screen:
            # A prompt left open (a key lost on a busy machine): Esc closes it; the wait outlasts ncurses'
            # escape delay so the next key is not read as Alt+key.
            self.notes.append(f"{self.elapsed():.0f} s: an add prompt was open; closed it with Esc")
            self.tmux.keys("Escape")
            time.sleep(1.5)
        symbol = churn_symbol(self.next_churn)
        self.next_churn += 1
        self.tmux.keys("a")
        if self.wait_screen(lambda s: "Add symbols: " in s, SCREEN_TIMEOUT, "the add prompt") is None:
            self.fail(f"`a` did not open the add prompt within {SCREEN_TIMEOUT:g} s")
            return
        self.tmux.keys(symbol, literal=True)
        self.tmux.keys("Enter")
        wanted = {(symbol, NAMES[broker]) for broker in BROKERS}
        if self.wait_screen(lambda s: wanted <= rows_on(s), SCREEN_TIMEOUT, f"{symbol} on the screen") is None:
            self.fail(f"{symbol} was added by keys but its four rows were not on the screen within {SCREEN_TIMEOUT:g} s")
            return
        self.list[symbol] = time.monotonic()
        self.adds += 1
        own = sorted(s for s in self.list if s.startswith("A0"))
        if len(own) <= CHURN_KEPT:
            return
        oldest = own[0]
        self.tmux.keys("g")
        self.tmux.keys("d")
        gone = self.wait_screen(lambda s: not any(row[0] == oldest for row in rows_on(s)) and f"Removed {oldest}" in s,
                                SCREEN_TIMEOUT, f"{oldest} gone")
        if gone is None:
            self.fail(f"`g` `d` did not remove {oldest} (the first row) from the screen within {SCREEN_TIMEOUT:g} s")
            return
        del self.list[oldest]
        self.removed[oldest] = time.monotonic()
        self.removes += 1

    def check_screen(self):
        screen = self.tmux.screen()
        shown = rows_on(screen)
        wanted = {(symbol, NAMES[broker]) for symbol in self.list for broker in BROKERS}
        missing = sorted(wanted - shown)
        if missing:
            self.fail(f"rows missing from the screen: {', '.join(f'{s} {b}' for s, b in missing)}")

    # The brokers.

    def paused_near(self, broker, begin, end):
        """True when `broker`'s server was paused (with 2 s around it) at any time in [begin, end] (elapsed)."""
        return any(b == broker and start - 2 <= end and begin <= stop + 2 for start, stop, b in self.schedule)

    def check_subscriptions(self):
        now = time.monotonic()
        expected = {symbol for symbol, shown in self.list.items() if now - shown >= SETTLE_SECONDS}
        grace = self.options.grace
        for broker, fixture in self.fixtures.items():
            if self.paused_broker == broker:
                continue
            status = fixture.status()
            connections = status.get("connections", [])
            if connections:
                self.last_open[broker] = now
            for connection in connections:
                number = connection["id"]
                age = now - connection["opened"]
                if number in self.checked[broker] or age < grace:
                    continue
                opened = connection["opened"] - self.start
                if self.paused_near(broker, opened, opened + grace + 7):
                    self.checked[broker].add(number)
                    self.skipped[broker] += 1
                    continue
                missing = missing_symbols(expected, connection["symbols"])
                if not missing:
                    self.checked[broker].add(number)
                    self.verified[broker] += 1
                elif age >= grace + 7:
                    self.checked[broker].add(number)
                    self.fail(f"{NAMES[broker]} connection {number}, open {age:.0f} s: not subscribed to "
                              f"{', '.join(missing)} (subscribed: {' '.join(connection['symbols']) or 'nothing'})")
            last = self.last_open.get(broker, self.start)
            since_pause = max([stop for start, stop, b in self.schedule if b == broker and stop <= self.elapsed()] or [0])
            quiet_from = max(last, self.start + since_pause)
            if now - quiet_from > RECONNECT_LIMIT and not connections:
                self.fail(f"{NAMES[broker]}: no connection for {now - quiet_from:.0f} s")
                self.last_open[broker] = now  # one report per quiet spell

    # Sampling.

    def sample(self, previous):
        now = time.monotonic()
        fields = status_fields(self.pid)
        ticks = cpu_ticks(self.pid)
        fds = len(os.listdir(f"/proc/{self.pid}/fd"))
        connected = established_sockets(self.pid, {fixture.port for fixture in self.fixtures.values()})
        cpu = None
        if previous is not None:
            cpu = 100 * (ticks - previous[1]) / os.sysconf("SC_CLK_TCK") / (now - previous[0])
        accepted = sum(f.status().get("accepted", 0) for f in self.fixtures.values())
        open_connections = sum(len(f.status().get("connections", [])) for f in self.fixtures.values())
        row = {"elapsed": round(now - self.start, 1),
               "utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "rss_kib": int(fields["VmRSS"].split()[0]), "rss_anon_kib": int(fields["RssAnon"].split()[0]),
               "rss_file_kib": int(fields["RssFile"].split()[0]), "fds": fds, "threads": int(fields["Threads"]),
               "cpu_percent": None if cpu is None else round(cpu, 2), "app_broker_sockets": connected,
               "broker_connections": open_connections,
               "connections_accepted": accepted, "symbols": len(self.list), "paused": self.paused_broker or ""}
        self.samples.append(row)
        self.csv.writerow(row)
        self.csv_file.flush()
        return now, ticks

    # The run.

    def run(self):
        options = self.options
        os.makedirs(self.out, exist_ok=True)
        self.schedule = pause_schedule(options.minutes, options.pause_every, options.pause_seconds)
        self.paused_broker = None
        scratch = tempfile.mkdtemp(prefix="cb-soak-")
        self.csv_file = open(os.path.join(self.out, "soak.csv"), "w", newline="")
        self.csv = csv.DictWriter(self.csv_file, ["elapsed", "utc", "rss_kib", "rss_anon_kib", "rss_file_kib", "fds", "threads", "cpu_percent",
                                                  "app_broker_sockets", "broker_connections", "connections_accepted", "symbols", "paused"])
        self.csv.writeheader()
        self.started_utc = datetime.datetime.now(datetime.timezone.utc)
        self.fixtures = {}
        self.tmux = None
        try:
            self.launch(scratch)
            print(f"soak: app pid {self.pid}, {options.minutes:g} min, pauses at "
                  f"{', '.join(f'{s / 60:g} min ({b})' for s, _, b in self.schedule) or 'none'}; writing {self.out}",
                  file=sys.stderr, flush=True)
            total = options.minutes * 60
            previous = self.sample(None)
            next_sample = SAMPLE_SECONDS
            next_churn = options.churn_every
            next_screen = 60.0
            pauses = list(self.schedule)
            while self.elapsed() < total:
                if not self.app_running():
                    self.fail("the app exited")
                    break
                t = self.elapsed()
                if pauses and self.paused_broker is None and t >= pauses[0][0]:
                    self.paused_broker = pauses[0][2]
                    self.fixtures[self.paused_broker].pause()
                    print(f"soak: {t:.0f} s: paused {self.paused_broker}", file=sys.stderr, flush=True)
                if self.paused_broker is not None and t >= pauses[0][1]:
                    self.fixtures[self.paused_broker].resume()
                    print(f"soak: {t:.0f} s: resumed {self.paused_broker}", file=sys.stderr, flush=True)
                    self.pauses_done.append(pauses.pop(0))
                    self.paused_broker = None
                if t >= next_sample:
                    previous = self.sample(previous)
                    next_sample += SAMPLE_SECONDS
                    last = self.samples[-1]
                    print(f"soak: {t:5.0f} s rss {last['rss_kib']} KiB fds {last['fds']} threads {last['threads']} "
                          f"cpu {last['cpu_percent']}% reconnects {last['connections_accepted'] - len(BROKERS)}",
                          file=sys.stderr, flush=True)
                if t >= next_churn:
                    self.churn()
                    next_churn = self.elapsed() + options.churn_every
                if t >= next_screen:
                    self.check_screen()
                    next_screen += 60
                self.check_subscriptions()
                time.sleep(0.5)
            if self.app_running():
                previous = self.sample(previous)
        except Failure as failure:
            self.fail(str(failure))
        finally:
            self.finish(scratch)
        return not self.failures

    def finish(self, scratch):
        if self.tmux is not None:
            try:
                with open(os.path.join(self.out, "screen.txt"), "w") as file:
                    file.write(self.tmux.screen())
            except (Failure, subprocess.TimeoutExpired):
                pass
            if self.app_running():
                try:
                    self.tmux.keys("q")
                except Failure:
                    pass
                deadline = time.monotonic() + 10
                while self.app_running() and time.monotonic() < deadline:
                    time.sleep(0.2)
                if self.app_running():
                    self.notes.append("the app did not quit within 10 s of `q`; killed it")
                    os.kill(self.pid, signal.SIGKILL)
            self.tmux.kill()
        for fixture in self.fixtures.values():
            fixture.stop()
        self.csv_file.close()
        self.check_growth()
        with open(os.path.join(self.out, "summary.md"), "w") as file:
            file.write(self.summary())
        shutil.rmtree(scratch, ignore_errors=True)

    def check_growth(self):
        mark = growth_mark(self.options.minutes)
        window = growth_window(self.options.minutes, mark)
        self.growths = {}
        for key, label, state in (("rss_kib", "RSS", None), ("fds", "open descriptors", "app_broker_sockets")):
            result = growth(self.samples, key, mark, window, state)
            self.growths[key] = result
            if result is None:
                self.notes.append(f"{label} growth not measured: too few samples after {mark / 60:g} min"
                                  + (" at a number of open broker connections seen in both windows" if state else ""))
            elif result[2] > GROWTH_LIMIT:
                at = f" with {result[3]} broker connections open" if state else ""
                self.failures.append(f"{label} grew {100 * result[2]:.1f} % (more than {100 * GROWTH_LIMIT:g} %){at}: "
                                     f"largest {result[0]} in the {window:g} s after {mark / 60:g} min, {result[1]} in the last {window:g} s")

    def summary(self):
        samples = self.samples
        o = self.options

        def column(key):
            return [s[key] for s in samples if s[key] is not None and s[key] != ""]

        def figures(key, unit=""):
            values = column(key)
            if not values:
                return "-"
            return f"{values[0]}{unit} first, {values[-1]}{unit} last, {max(values)}{unit} max"

        cpu = column("cpu_percent")
        reconnects = (samples[-1]["connections_accepted"] - len(BROKERS)) if samples else 0
        mark = growth_mark(o.minutes)
        window = growth_window(o.minutes, mark)
        lines = [
            f"# Soak: {'PASS' if not self.failures else 'FAIL'}",
            "",
            f"- started {self.started_utc.strftime('%Y-%m-%d %H:%M UTC')}, {o.minutes:g} min planned, "
            f"{(samples[-1]['elapsed'] if samples else 0) / 60:.1f} min sampled ({len(samples)} samples, every {SAMPLE_SECONDS:g} s)",
            f"- machine: {platform.node()}, {platform.machine()}, {os.cpu_count()} cores, Linux {platform.release()}",
            f"- app: {o.app} in tmux {o.columns}x{o.rows}; four fixture brokers on loopback (ticks every {o.interval:g} s), "
            f"each connection dropped {o.drop_after:g} s after it opened",
            f"- pauses (SIGSTOP/SIGCONT, {o.pause_seconds:g} s): "
            + (", ".join(f"{NAMES[b]} at {s / 60:g} min" for s, _, b in self.pauses_done) or "none"),
            f"- keys: {self.adds} symbols added, {self.removes} removed (every {o.churn_every:g} s)",
            f"- reconnects: {reconnects} (connections accepted beyond the first per broker)",
            f"- subscriptions verified after reconnects: "
            + ", ".join(f"{NAMES[b]} {self.verified[b]}" for b in BROKERS)
            + f" (skipped near a pause: {sum(self.skipped.values())})",
            "",
            "| measure | figures |",
            "|---|---|",
            f"| RSS | {figures('rss_kib', ' KiB')} |",
            f"| of which anonymous (heap, stacks) | {figures('rss_anon_kib', ' KiB')} |",
            f"| of which file-backed (code, mapped libraries) | {figures('rss_file_kib', ' KiB')} |",
            f"| open descriptors | {figures('fds')} |",
            f"| threads | {figures('threads')} |",
            f"| CPU, % of one core | mean {sum(cpu) / len(cpu):.1f}, max {max(cpu):.1f} |" if cpu else "| CPU | - |",
        ]
        for key, label in (("rss_kib", "RSS"), ("fds", "descriptors")):
            result = self.growths.get(key)
            if result is not None:
                at = f", at {result[3]} open broker connections" if result[3] is not None else ""
                lines.append(f"| {label} growth after {mark / 60:g} min | {100 * result[2]:+.1f} % "
                             f"(max {result[0]} in the {window:g} s after the mark, {result[1]} in the last {window:g} s{at}; "
                             f"limit +{100 * GROWTH_LIMIT:g} %) |")
        lines.append("")
        if self.failures:
            lines += ["## Failures", ""] + [f"- {failure}" for failure in self.failures[:40]]
            if len(self.failures) > 40:
                lines.append(f"- ... and {len(self.failures) - 40} more")
            lines.append("")
        if self.notes:
            lines += ["## Notes", ""] + [f"- {note}" for note in self.notes[:20]] + [""]
        lines.append("Samples: soak.csv; fixture logs: <broker>.log; the app's last screen: screen.txt.")
        return "\n".join(lines) + "\n"


def parse_options(argv=None):
    parser = argparse.ArgumentParser(description="Soak the release app against four flaky fixture brokers.")
    parser.add_argument("--app", required=True)
    parser.add_argument("--python", default=sys.executable, help="the Python with websockets, for the fixture servers")
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--out", default="soak-results")
    parser.add_argument("--drop-after", type=float, default=20)
    parser.add_argument("--pause-every", type=float, default=600)
    parser.add_argument("--pause-seconds", type=float, default=60)
    parser.add_argument("--churn-every", type=float, default=5)
    parser.add_argument("--grace", type=float, default=10)
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between a fixture's ticks")
    parser.add_argument("--columns", type=int, default=120)
    parser.add_argument("--rows", type=int, default=50)
    return parser.parse_args(argv)


def main():
    options = parse_options()
    if not os.access(options.app, os.X_OK):
        sys.exit(f"soak: {options.app} is not an executable (build it with `swift build -c release --product commonbroker`)")
    if shutil.which("tmux") is None:
        sys.exit("soak: tmux not found (`make deps-test` installs it)")
    soak = Soak(options)
    passed = soak.run()
    sys.stdout.write(open(os.path.join(options.out, "summary.md")).read())
    if not passed:
        print(f"soak: FAILED ({len(soak.failures)} failures; see {os.path.join(options.out, 'summary.md')})", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
