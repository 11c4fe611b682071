#!/usr/bin/env python3
"""views_load: a big Swiss's standings asked in a loop, and what an honest client feels.

Starts tengend (--spawn PATH) on a free loopback port with a fresh database in a temporary
directory; registers --players accounts and a director; the director creates a 5-round Swiss,
registers them all, starts round 1, enters every result, starts round 2 and enters half of
its results. Then it times one `tournament.standings` and one `tournament.pairings` request
twice each (the first computed, the second from tengend's reply cache while nothing but
moves changes: cmd/dispatch.c) and one `tournament.result`, and for --seconds runs two clients side by side:
- a looping client (a process of its own) asking for the standings again the moment each
  reply is in, as a spectator's page or a misbehaving script would;
- an honest client sending a `ping` every 10 ms, timing each round trip;
with --result-every S the director enters one of round 2's missing results every S seconds
(each one a change: the next standings are computed again).

Prints the figures, then `result mode=views key=value ...` (scripts/bench reads it). Exit
status 1 if a request fails. Uses only Python's standard library. (issue 22, docs/benchmarks.md)
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

BATCH = 200  # requests written at once while setting up


class Client:
    """One connection speaking the JSON line protocol (docs/protocol.md)."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.file = self.sock.makefile("rb")
        self.next_id = 0

    def send(self, reqs):
        """Write reqs at once; return their replies (events skipped), in order."""
        for r in reqs:
            self.next_id += 1
            r["id"] = self.next_id
        self.sock.sendall("".join(json.dumps(r) + "\n" for r in reqs).encode())
        replies = []
        while len(replies) < len(reqs):
            line = self.file.readline()
            if not line:
                raise SystemExit("views_load: the server closed the connection")
            msg = json.loads(line)
            if "id" in msg:
                replies.append(msg)
        return replies

    def req(self, r):
        return self.send([r])[0]

    def ok(self, r):
        reply = self.req(r)
        if not reply.get("ok"):
            raise SystemExit("views_load: %s: %s" % (r["cmd"], reply))
        return reply


def pct(v, p):
    return v[min(len(v) - 1, int(p * len(v)))] if v else 0.0


def timed(c, r):
    t = time.perf_counter()
    reply = c.ok(r)
    return (time.perf_counter() - t) * 1000, reply


def looping_client(port, tid, seconds, out_fd):
    """Ask for the standings in a loop; write 'n p50 p99 max' to out_fd. Only the reply's id
    is looked at (parsing 330 KB of JSON would make this client the bottleneck)."""
    c = Client(port)
    lat = []
    end = time.time() + seconds
    k = 0
    while time.time() < end:
        k += 1
        t = time.perf_counter()
        c.sock.sendall(('{"cmd":"tournament.standings","tournament":%d,"id":%d}\n' % (tid, k)).encode())
        prefix = ('{"id":%d,' % k).encode()
        while True:
            line = c.file.readline()
            if not line:
                os._exit(1)
            if line.startswith(prefix):
                break
        lat.append((time.perf_counter() - t) * 1000)
    lat.sort()
    os.write(out_fd, ("%d %.3f %.3f %.3f" % (len(lat), pct(lat, .5), pct(lat, .99), lat[-1])).encode())
    os._exit(0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spawn", required=True, help="the tengend to start")
    ap.add_argument("--players", type=int, default=2000)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--result-every", type=float, default=0, help="seconds between results (0: none)")
    a = ap.parse_args()
    if a.players < 4 or a.players % 2:
        ap.error("--players: an even number, at least 4")

    work = tempfile.mkdtemp(prefix="views_load.")
    db, portfile = os.path.join(work, "views.db"), os.path.join(work, "port")
    srv = subprocess.Popen([a.spawn, "--listen", "127.0.0.1:0", "--port-file", portfile, "--db", db,
                            "--create", "--pwhash-cost", "fast", "--log-level", "warn",
                            "--max-per-address", "1000000", "--register-per-address", "1000000",
                            "--login-hashing-per-address", "1000"])
    try:
        for _ in range(600):
            if os.path.exists(portfile) or srv.poll() is not None:
                break
            time.sleep(0.05)
        if srv.poll() is not None or not os.path.exists(portfile):
            raise SystemExit("views_load: tengend did not start")
        port = int(open(portfile).read())
        run(a, port, db)
    finally:
        srv.send_signal(signal.SIGTERM)
        srv.wait()
        shutil.rmtree(work, ignore_errors=True)


def run(a, port, db):
    t0 = time.time()
    names = ["vl%05d" % i for i in range(a.players)]
    for n in names + ["vl_td"]:  # registering logs the connection in: one each
        c = Client(port)
        c.ok({"cmd": "register", "name": n, "password": "password-" + n})
        c.sock.close()
    subprocess.run([a.spawn, "grant", "vl_td", "td", "--db", db], check=True, stdout=subprocess.DEVNULL)
    td = Client(port)
    td.ok({"cmd": "login", "name": "vl_td", "password": "password-vl_td"})
    tid = td.ok({"cmd": "tournament.create", "name": "Big Swiss", "system": "swiss", "rounds": 5,
                 "size": 19})["tournament"]

    def batch(reqs):
        for i in range(0, len(reqs), BATCH):
            for r in td.send(reqs[i:i + BATCH]):
                if not r.get("ok"):
                    raise SystemExit("views_load: %s" % r)

    batch([{"cmd": "tournament.register", "tournament": tid, "player": n} for n in names])
    rest = []
    for rnd in (1, 2):
        td.ok({"cmd": "tournament.start_round", "tournament": tid})
        games = [p["game"] for p in td.ok({"cmd": "tournament.pairings", "tournament": tid})["pairings"]]
        done = games if rnd == 1 else games[:len(games) // 2]
        rest = games[len(done):]
        batch([{"cmd": "tournament.result", "game": g, "result": "B+R" if g % 3 else "W+R"} for g in done])
    setup = time.time() - t0

    looker = Client(port)
    req_s = {"cmd": "tournament.standings", "tournament": tid}
    req_p = {"cmd": "tournament.pairings", "tournament": tid}
    s1, reply = timed(looker, dict(req_s))
    s2, _ = timed(looker, dict(req_s))
    p1, _ = timed(looker, dict(req_p))
    p2, _ = timed(looker, dict(req_p))
    size = len(json.dumps(reply))
    r1, _ = timed(td, {"cmd": "tournament.result", "game": rest.pop(), "result": "B+R"})
    print("views_load: %d players, a 5-round Swiss: round 1 played, half of round 2 (set-up %.1f s)"
          % (a.players, setup))
    print("  standings (%d bytes): %.2f ms, again %.2f ms; pairings of round 2: %.2f ms, again %.2f ms;"
          " a result entered: %.2f ms" % (size, s1, s2, p1, p2, r1))

    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        looping_client(port, tid, a.seconds, wfd)
    os.close(wfd)
    stop = threading.Event()
    entered = [0]

    def results():
        for g in rest:
            if stop.wait(a.result_every):
                return
            td.ok({"cmd": "tournament.result", "game": g, "result": "B+R"})
            entered[0] += 1

    th = threading.Thread(target=results) if a.result_every > 0 else None
    if th:
        th.start()
    pinger = Client(port)
    pings = []
    end = time.time() + a.seconds
    while time.time() < end:
        t = time.perf_counter()
        pinger.ok({"cmd": "ping"})
        pings.append((time.perf_counter() - t) * 1000)
        time.sleep(0.01)
    stop.set()
    if th:
        th.join()
    _, status = os.waitpid(pid, 0)
    loop = os.read(rfd, 256).decode().split()
    if status != 0 or len(loop) != 4:
        raise SystemExit("views_load: the looping client failed")
    n, lp50, lp99, lmax = int(loop[0]), float(loop[1]), float(loop[2]), float(loop[3])
    pings.sort()
    print("  looping client: %d standings in %.0f s, p50 %.2f p99 %.2f max %.2f ms%s"
          % (n, a.seconds, lp50, lp99, lmax,
             "; %d results entered meanwhile" % entered[0] if th else ""))
    print("  honest ping meanwhile: %d, p50 %.2f p99 %.2f max %.2f ms"
          % (len(pings), pct(pings, .5), pct(pings, .99), pings[-1]))
    print("result mode=views players=%d standings_ms=%.3f standings_again_ms=%.3f pairings_ms=%.3f "
          "pairings_again_ms=%.3f result_ms=%.3f loop_requests=%d results=%d ping_p50_ms=%.3f "
          "ping_p99_ms=%.3f ping_max_ms=%.3f" % (a.players, s1, s2, p1, p2, r1, n, entered[0],
                                                 pct(pings, .5), pct(pings, .99), pings[-1]))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
