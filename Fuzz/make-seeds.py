#!/usr/bin/env python3
"""Writes the committed seed corpora from real frames (docs/reference: broker-apis.md §2.2-2.3, §3.2;
RFC 6455 §1.3 and §5.7). Run from the repository root: python3 Fuzz/make-seeds.py. Seeds are
named, so rerunning rewrites the same files; libFuzzer's own finds go to .build/fuzz, never here."""
import os
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def write(target, name, data):
    directory = os.path.join(ROOT, target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def frame(opcode, payload=b"", fin=True, mask=None):
    first = (0x80 if fin else 0) | opcode
    mask_bit = 0x80 if mask else 0
    n = len(payload)
    if n <= 125:
        head = bytes([first, mask_bit | n])
    elif n <= 0xFFFF:
        head = bytes([first, mask_bit | 126]) + struct.pack(">H", n)
    else:
        head = bytes([first, mask_bit | 127]) + struct.pack(">Q", n)
    if not mask:
        return head + payload
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


# Settings byte 0: bit 0 role (1 server), bits 1-2 frame limit, bits 3-4 message limit (3 = 16 MiB).
CLIENT = 0b11110
SERVER = 0b11111
KEY = b"\x37\xfa\x21\x3d"


def codec(name, flags, chunk, stream):
    write("WebSocketFrameCodec", name, bytes([flags, chunk]) + KEY + stream)


polygon_trades = b'[{"ev":"T","sym":"AAPL","i":"52983","x":4,"p":227.52,"s":100,"c":[12,37],"t":1731528912441,"q":1190234,"z":3}]'
codec("server-text-whole", CLIENT, 0, frame(1, polygon_trades))
codec("server-text-split", CLIENT, 7, frame(1, polygon_trades))
codec("rfc-fragmented-hello", CLIENT, 3, frame(1, b"Hel", fin=False) + frame(0, b"lo"))
codec("ping-between-fragments", CLIENT, 0, frame(1, b"caf\xc3", fin=False) + frame(9, b"hb") + frame(0, b"\xa9"))
codec("pong-and-close", CLIENT, 5, frame(10, b"") + frame(8, b"\x03\xe8bye"))
codec("binary-126", CLIENT, 0, frame(2, bytes(range(200))))
codec("binary-65536-small-limit", 0b11000, 0, frame(2, b"\x00" * 130))
codec("length-64bit", CLIENT, 0, bytes([0x82, 127]) + struct.pack(">Q", 1 << 40) + b"xx")
codec("client-masked-text", SERVER, 4, frame(1, b'{"action":"auth","params":"KEY"}', mask=KEY))
codec("client-masked-close", SERVER, 0, frame(8, b"\x03\xe9going away", mask=b"\x01\x02\x03\x04"))
codec("message-limit-125", 0b00111, 0, frame(1, b"a" * 100, fin=False, mask=KEY) + frame(0, b"b" * 30, mask=KEY))
codec("bad-utf8", CLIENT, 1, frame(1, b"\xed\xa0\x80"))

def response(status_line, headers, body=b""):
    head = status_line + "".join(f"\r\n{name}: {value}" for name, value in headers) + "\r\n\r\n"
    return head.encode() + body


ACCEPT = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="  # RFC 6455 §1.3, for the key of "the sample nonce"
write("WebSocketHandshake", "101", response("HTTP/1.1 101 Switching Protocols",
      [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", ACCEPT)]))
write("WebSocketHandshake", "101-with-frame", response("HTTP/1.1 101 Switching Protocols",
      [("upgrade", "WebSocket"), ("connection", "keep-alive, Upgrade"), ("sec-websocket-accept", ACCEPT),
       ("Server", "nginx")], frame(1, b'[{"T":"success","msg":"connected"}]')))
write("WebSocketHandshake", "101-extension", response("HTTP/1.1 101 Switching Protocols",
      [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", ACCEPT),
       ("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits")]))
write("WebSocketHandshake", "401-body", response("HTTP/1.1 401 Unauthorized",
      [("Content-Type", "text/plain"), ("Content-Length", "22")], b"invalid token s3cr3t\r\n"))
write("WebSocketHandshake", "403-json", response("HTTP/1.1 403 Forbidden",
      [("Content-Type", "application/json"), ("Content-Length", "35")], b'{"code":40310000,"message":"forbidden"}'))
write("WebSocketHandshake", "echoed-request", b"GET /v2/iex?token=s3cr3t HTTP/1.1\r\nHost: stream.example.com\r\n\r\n")
write("WebSocketHandshake", "partial", b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n")
# Crash inputs `make fuzz` found, kept as seeds (and as regression tests in Tests/NetworkingTests/WebSocket).
# A space joined to combining marks is one Character: the String split skipped it and took the later 101.
write("WebSocketHandshake", "crash-combining-space",
      "HTTP/1.1o/v2/i \u0301\u0301 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n".encode())

polygon = {
    "status-connected": '[{"ev":"status","status":"connected","message":"Connected Successfully"}]',
    "status-auth-failed": '[{"ev":"status","status":"auth_failed","message":"authentication failed"}]',
    "status-subscribed": '[{"ev":"status","status":"success","message":"subscribed to: T.AAPL"},\n {"ev":"status","status":"success","message":"subscribed to: Q.MSFT"}]',
    "trade-quote-agg": '[{"ev":"T","sym":"AAPL","i":"52983","x":4,"p":227.52,"s":100,"c":[12,37],"t":1731528912441,"q":1190234,"z":3},\n {"ev":"Q","sym":"MSFT","bx":19,"bp":423.09,"bs":2,"ax":11,"ap":423.12,"as":1,"c":1,"i":[604],"t":1731528912450,"q":55021934,"z":3},\n {"ev":"AM","sym":"AAPL","v":61234,"av":38211905,"op":228.9,"vw":227.4911,"o":227.6,"c":227.52,"h":227.71,"l":227.35,"a":227.9312,"z":88,"s":1731528840000,"e":1731528900000}]',
    "escapes-and-exponents": '[ {"t" : 5 ,\n"p":\t1.5e2, "sym":"BRK\\/B\\u00e9\\ud83d\\ude00", "ev" :"T"}, {"ev":"Q","sym":"X","bp":null,"ap":-0.0001,"t":-1} ]',
}
for name, text in polygon.items():
    write("PolygonStreamDecoder", name, text)

alpaca = {
    "success-connected": '[{"T":"success","msg":"connected"}]',
    "error-auth-failed": '[{"T":"error","code":402,"msg":"auth failed"}]',
    "subscription": '[{"T":"subscription","trades":["AAPL"],"quotes":["AAPL","MSFT"],"bars":["*"],"updatedBars":[],"dailyBars":[],"statuses":[],"lulds":[],"corrections":["AAPL"],"cancelErrors":["AAPL"]}]',
    "trade-quote-bar": '[{"T":"t","S":"AAPL","i":96921,"x":"V","p":227.52,"s":100,"c":["@"],"t":"2024-11-13T20:15:02.441123456Z","z":"C"},\n {"T":"q","S":"AAPL","bx":"V","bp":227.5,"bs":3,"ax":"V","ap":227.53,"as":2,"c":["R"],"t":"2024-11-13T20:15:03.123456789Z","z":"C"},\n {"T":"b","S":"AAPL","o":227.6,"h":227.71,"l":227.35,"c":227.52,"v":6123,"t":"2024-11-13T20:14:00Z","n":88,"vw":227.49}]',
    "offsets-and-leap-second": '[{"T":"t","S":"BRK.B","p":1e2,"t":"2016-12-31T23:59:60.5+01:30"},{"T":"q","S":"X","bp":1,"t":"2024-02-29t00:00:00z"}]',
}
for name, text in alpaca.items():
    write("AlpacaStreamDecoder", name, text)

scanner = {
    "nested": '{"a":[1,-2.5e-3,true,false,null,{"b":"c\\"d"}],"e":{}}',
    "numbers": '[0,-0,123456789012345678,9223372036854775807,-9223372036854775808,1.7976931348623157e308,5e-324,0.1,227.52,12345678901234567890.5]',
    "strings": '["plain","\\u00e9\\ud83d\\ude00","\\b\\f\\n\\r\\t\\/\\\\","\\ud800 lone","a very long string that is not a name"]',
}
for name, text in scanner.items():
    write("StreamJSONScanner", name, text)
for name, text in list(polygon.items())[3:] + list(alpaca.items())[2:4]:
    write("StreamJSONScanner", "frame-" + name, text)

# The lots CSV import: the holdings fixtures as they are, and the shapes the reader treats apart.
FIXTURES = os.path.join(os.path.dirname(ROOT), "..", "Tests", "Fixtures")
for name in sorted(n for n in os.listdir(os.path.join(FIXTURES, "holdings")) if n.endswith(".csv")):
    with open(os.path.join(FIXTURES, "holdings", name), "rb") as f:
        write("LotsCSV", "fixture-" + name, f.read())
lots = {
    "cr-line-breaks": b"date,symbol,quantity,price\r2024-01-02,AAPL,10,185.64\r2024-01-03,MSFT,-5,370.6\r",
    "quoted-line-break": b'date,symbol,quantity,price,broker\n2024-01-02,AAPL,10,185.64,"Fidelity\nIRA"\n',
    "utf16": "date,symbol\n".encode("utf-16"),
    "not-utf8": b"date,symbol,quantity,price\n2024-01-02,AAPL,10,\xe9185\n",
    "unclosed-quote": b'date,symbol,quantity,price\n2024-01-02,"AAPL,10,185.64\n',
    "header-only": b"date,symbol,quantity,price,fees,broker",
    "numbers": b"date,symbol,quantity,price,fees\n2024-01-02,BRK.B,1e3,0.000000015,90000000000\n2024-01-02,X,-0.5,1E-8,\n",
    "synonyms": b"Trade Date,Ticker,Qty,Cost,Commission,Account,Notes\n",
    "escapes": "date,symbol,quantity,price,broker\n2024-01-02,AA\u202ePL,1,1,\u001b[31mIRA\n".encode(),
}
for name, data in lots.items():
    write("LotsCSV", name, data)


def ledger_line(seq, record):
    """A journal line (docs/ledger-format.md): the CRC-32 of the sequence number, a space and the record."""
    rec = record.encode()
    return b'{"seq":%d,"crc":"%08x","rec":%s}\n' % (seq, zlib.crc32(b"%d %s" % (seq, rec)), rec)


def ledger(records):
    return b"".join(ledger_line(seq, record) for seq, record in enumerate(records, start=1))


# The journal: byte 0 picks the mode (0 a file, 1 choices for records, 2 record bodies, one a line).
fuzz_records = [
    '{"count":1,"flag":true,"kind":"order","legs":[],"ratio":0.5,"signed":-3,"tags":[],"text":"AAPL","tiny":-1,"wide":18446744073709551615}',
    '{"amount":123456789.12345678,"blob":"AAEC","count":-9223372036854775808,"flag":false,"kind":"fill","legs":[{"price":1e-8,"shares":5,"symbol":"BRK\\/B"}],'
    '"lookup":{"a":1,"b\\u0000":2},"matrix":[[1,-2],[]],"ratio":1.7976931348623157e308,"scale":3.4028235e38,"short":65535,"signed":2147483647,'
    '"tags":["\\"q\\"","\\u001b[2J","\\ud83d\\ude00"],"text":"caf\\u00e9","tiny":127,"when":816307200.25,"wide":0}',
    '{"base":{"note":"n"},"count":0,"flag":true,"kind":"note","legs":[],"ratio":-0,"signed":0,"tags":[],"text":"","tiny":0,"wide":1}',
    '{ "count" : 1.0, "flag" : true, "kind" : "order", "legs" : [ ], "ratio" : 1e2, "signed" : 1E1, "tags" : [ ], "text" : "x", "tiny" : 0, "wide" : 2 }',
]
write("JournalReplay", "file-two-lines", b"\x00" + ledger(fuzz_records[:2]))
write("JournalReplay", "file-torn-tail", b"\x00" + ledger(fuzz_records[:1]) + ledger(fuzz_records[1:2])[:40])
write("JournalReplay", "file-bad-middle", b"\x00" + ledger(fuzz_records[:1]) + b"{}\n" + ledger_line(3, fuzz_records[2]))
write("JournalReplay", "file-docs-sample",
      b"\x00" + ledger(['{"kind":"order","quantity":"10","side":"buy","symbol":"AAPL"}',
                        '{"kind":"fill","price":"187.25","quantity":"10","symbol":"AAPL"}']))
write("JournalReplay", "records", b"\x01" + bytes(range(1, 200)))
write("JournalReplay", "bodies", b"\x02" + "\n".join(fuzz_records).encode())

paper = [
    '{"startingCash":"100000","time":817254237.33,"type":"accountOpened"}',
    '{"ask":"143.47","bid":"143.45","clientOrderID":"c-1","last":"143.46","orderID":"P-2","orderType":"market","quantity":"5","side":"buy","symbol":"NVDA","time":817254237.37,"timeInForce":"gtc","type":"placed"}',
    '{"commission":"0","fillID":"F-3","orderID":"P-2","price":"143.47","priceSource":"ask","quantity":"5","time":817254237.38,"type":"filled"}',
    '{"clientOrderID":"c-4","expiresAt":817279200,"limit":"150","orderID":"P-4","orderType":"stop_limit","quantity":"5","side":"sell","stop":"140","symbol":"NVDA","time":817254238,"timeInForce":"day","type":"placed"}',
    '{"lastTrade":"139.99","orderID":"P-4","time":817254239,"type":"triggered","worksAs":"limit","limit":"150"}',
    '{"orderID":"P-4","replacedBy":"P-6","time":817254240,"type":"cancelled"}',
    '{"clientOrderID":"c-6","orderID":"P-6","orderType":"limit","limit":143.5,"quantity":1e1,"side":"sell_short","symbol":"brk.b","time":817254241,"timeInForce":"gtc","type":"placed"}',
    '{"orderID":"P-6","reason":"sell short 10 BRK.B at 143.5 cannot be booked: \\u001b[2J","time":817254242,"type":"rejected"}',
    '{"orderID":"P-9","time":817254243,"type":"expired"}',
]
write("PaperLedgerReplay", "file-docs-sample", b"\x00" + ledger(paper[:3]))
write("PaperLedgerReplay", "file-all-types", b"\x00" + ledger(paper))
write("PaperLedgerReplay", "file-torn", b"\x00" + ledger(paper[:3]) + ledger(paper[3:4])[:-1])
write("PaperLedgerReplay", "records", b"\x01" + bytes(range(0, 256, 3)))
write("PaperLedgerReplay", "bodies", b"\x02" + "\n".join(paper).encode())

# Decimals as the brokers, the config, the ticket and hand-written files write them, and the edges.
decimals = {
    "price": "150.25", "negative": "-0.0001", "exponent": "1e2", "exponent-minus": "1E-8", "tradier-tail": "17798.360000000000000000000",
    "half-even-down": "0.000000025", "half-even-up": "0.000000015", "max": "90000000000", "beyond-max": "90000000000.000000005",
    "min": "-90000000000", "long-zeros": "0.00000000000000000000000000000000000000001e41", "big-exponent": "1e999999999999",
    "plus": "+5", "bare-point": ".5", "leading-zero": "007", "thousands": "1,000", "dollar": "$5", "nan": "NaN",
}
for name, text in decimals.items():
    write("ExactDecimalParsing", name, text)

# NATS: what nats-server 2.9.10 sent in a session (INFO, MSG with its double space, HMSG with status headers,
# a JetStream delivery, a heartbeat), what a client sends, and a header block the server forwards unread.
# Settings byte 0: bit 0 peer (1 client), bits 1-2 max_payload (3 = 1 MiB); byte 1: chunk size.
NATS_SERVER = 0b110
NATS_CLIENT = 0b111


def nats(name, flags, chunk, stream):
    write("NATSProtocolParser", name, bytes([flags, chunk]) + stream)


NATS_INFO = (b'INFO {"server_id":"NBOMZXTZ3UKRNOPP3ADJWD34T5P7CUMZZPIE4SEVICUWPJDYE237T4NN","version":"2.9.10","proto":1,'
             b'"host":"127.0.0.1","port":37663,"headers":true,"max_payload":1048576,"jetstream":true,"client_id":4,'
             b'"connect_urls":["127.0.0.1:4222","[::1]:4223"]} \r\n')
nats("info", NATS_SERVER, 0, NATS_INFO)
nats("session", NATS_SERVER, 9, NATS_INFO + b'PONG\r\nMSG _INBOX.x.2 1  26\r\n{"stream":"KV_b", "seq":1}\r\n'
     b'HMSG _INBOX.x.5 1  34 34\r\nNATS/1.0 404 Message Not Found\r\n\r\n\r\n'
     b'HMSG _INBOX.x.6 1 16 16\r\nNATS/1.0 503\r\n\r\n\r\nPING\r\n')
nats("jetstream-delivery", NATS_SERVER, 3,
     b'HMSG $KV.b.k1 2 $JS.ACK.KV_b.cr0UbxY6.1.1.1.1795564318016031250.0 52 57\r\n'
     b'NATS/1.0\r\nNats-Expected-Last-Subject-Sequence: 0\r\n\r\nhello\r\n'
     b'HMSG _INBOX.deliver 2  75 75\r\nNATS/1.0 100 Idle Heartbeat\r\nNats-Last-Consumer: 1\r\nNats-Last-Stream: 1\r\n\r\n\r\n')
nats("errors", NATS_SERVER, 1, b"+OK\r\n-ERR 'Authorization Violation'\r\n-ERR 'Unknown Protocol Operation'\r\n")
nats("unread-headers", NATS_SERVER, 0, b"HMSG bad 1 5 7\r\nhelloab\r\nMSG good 1 2\r\nok\r\n")
nats("client", NATS_CLIENT, 5, b'CONNECT {"verbose":false,"pedantic":false,"user":"alice","pass":"pw","protocol":1,"headers":true}\r\n'
     b'SUB _INBOX.x.* 1\r\nSUB work workers 2\r\nHPUB $KV.b.k1 _INBOX.x.2 52 57\r\nNATS/1.0\r\n'
     b'Nats-Expected-Last-Subject-Sequence: 0\r\n\r\nhello\r\nPUB foo 5\r\nhello\r\nUNSUB 2 10\r\nPING\r\n')
nats("small-limit", 0b000, 0, b"MSG a 1 64\r\n" + b"x" * 64 + b"\r\nMSG a 1 65\r\n" + b"x" * 65 + b"\r\n")
# Crash input `make fuzz` found: a client's HPUB with an unreadable header block consumed bytes before failing.
nats("crash-client-unread-headers", NATS_CLIENT, 5, b"SUB work 2\r\nHPUB $KV.b.k1 _INBOX.x.2 5 7\r\nhelloab\r\nPING\r\n")

# HTTP responses as brokers send them (reference §1.1 Tradier quotes, §1.4 a 429 with rate-limit headers) and
# the framings RFC 9112 allows. Settings byte 0: bit 0 HEAD request, bit 1 the server closes after its bytes,
# bits 2-3 limits (3 = the defaults); byte 1: chunk size.
HTTP_GET = 0b1100
HTTP_GET_CLOSES = 0b1110
HTTP_HEAD = 0b1101


def http(name, flags, chunk, stream):
    write("HTTPResponseParser", name, bytes([flags, chunk]) + stream)


TRADIER_QUOTE = b'{"quotes":{"quote":{"symbol":"AAPL","last":227.52,"bid":227.5,"ask":227.55,"volume":48211020}}}'
http("content-length", HTTP_GET, 0, response("HTTP/1.1 200 OK", [("Content-Type", "application/json"),
     ("Content-Length", len(TRADIER_QUOTE))], TRADIER_QUOTE))
http("content-length-split", HTTP_GET, 7, response("HTTP/1.1 200 OK", [("Content-Type", "application/json"),
     ("Content-Length", len(TRADIER_QUOTE)), ("X-Ratelimit-Allowed", "120"), ("x-ratelimit-allowed", "60")], TRADIER_QUOTE))
http("429", HTTP_GET, 0, response("HTTP/1.1 429 Too Many Requests", [("Retry-After", "2"), ("Content-Length", 21)],
     b'{"error":"slow down"}'))
http("chunked-trailers", HTTP_GET, 5, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;name=v\r\nWiki\r\n5\r\npedia\r\n"
     b"0\r\nExpires: never\r\n\r\n")
http("until-close", HTTP_GET_CLOSES, 3, b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nthe body ends with the connection")
http("interim", HTTP_GET, 0, b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
     b"HTTP/1.1 204 No Content\r\n\r\n")
http("head", HTTP_HEAD, 0, b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
http("http10-keep-alive", HTTP_GET, 0, b"HTTP/1.0 200 OK\nConnection: keep-alive\nContent-Length: 2\n\nok")
http("obs-fold", HTTP_GET, 2, b"HTTP/1.1 304 Not Modified\r\nX-Long: first\r\n  second\r\n\r\n")
http("both-framings", HTTP_GET, 0, b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\nEXTRA")
http("small-limits", 0b0010, 4, b"HTTP/1.1 200 OK\r\nContent-Length: 70\r\n\r\n" + b"z" * 70)
http("truncated", HTTP_GET_CLOSES, 0, b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf")
