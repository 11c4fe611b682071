#!/usr/bin/env python3
"""fake_engine.py: a scripted GTP engine for tests/integration/test_gtp.c.

  fake_engine.py [--moves D4,E5,...] [--delay-ms N] [--die-at-genmove K] [--log FILE]
                 [--max-size N] [--extra-commands CMD,...] [--refuse-play] [--die-at-place K]
                 [--die-once FILE] [--start-delay-ms N]

Answers the GTP commands the bridge uses. `genmove` plays the next entry of --moves that is
empty on its board (stones are never captured: scripts avoid captures), then "pass" once the
list is exhausted; "resign" in the list resigns. --delay-ms sleeps before each genmove answer.
--die-at-genmove K exits (status 3) on the K-th genmove, without answering. --log appends every
command received, one per line. final_status_list dead answers an empty list.
--max-size N answers `boardsize` above N with "? unacceptable size" (as GNU Go does above 19).
--extra-commands lists more commands (kata-time_settings, kgs-genmove_cleanup, ...): answered
"=" (kgs-genmove_cleanup as genmove; place_free_handicap N with the first N of C3 E5 C5 E3).
--refuse-play answers every `play` "? illegal move". --die-at-place K exits (status 3) on the
K-th place_free_handicap, without answering. --die-once FILE: the dying options apply only
while FILE does not exist; the engine that dies creates it (the next process lives).
--start-delay-ms N sleeps before reading its first command (an engine loading a network).
"""
import os
import sys
import time


def main():
    args = sys.argv[1:]
    moves, delay, die_at, log = [], 0.0, 0, None
    max_size, extra, refuse_play, die_at_place, die_once = 25, [], False, 0, None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--moves":
            moves = [m for m in args[i + 1].split(",") if m]
            i += 1
        elif a == "--delay-ms":
            delay = int(args[i + 1]) / 1000.0
            i += 1
        elif a == "--die-at-genmove":
            die_at = int(args[i + 1])
            i += 1
        elif a == "--log":
            log = open(args[i + 1], "a")
            i += 1
        elif a == "--max-size":
            max_size = int(args[i + 1])
            i += 1
        elif a == "--extra-commands":
            extra = [c for c in args[i + 1].split(",") if c]
            i += 1
        elif a == "--refuse-play":
            refuse_play = True
        elif a == "--die-at-place":
            die_at_place = int(args[i + 1])
            i += 1
        elif a == "--die-once":
            die_once = args[i + 1]
            i += 1
        elif a == "--start-delay-ms":
            time.sleep(int(args[i + 1]) / 1000.0)
            i += 1
        i += 1
    known = ["protocol_version", "name", "version", "known_command", "list_commands", "quit",
             "boardsize", "clear_board", "komi", "play", "genmove", "set_free_handicap",
             "time_settings", "time_left", "final_status_list"] + extra
    if die_once and os.path.exists(die_once):
        die_at, die_at_place = 0, 0
    stones = set()
    genmoves = places = 0

    def die():
        if die_once:
            open(die_once, "w").close()
        return 3
    for line in sys.stdin:
        line = line.strip()
        if log:
            log.write(line + "\n")
            log.flush()
        if not line:
            continue
        parts = line.split()
        cmd, rest = parts[0], parts[1:]

        def ok(text=""):
            sys.stdout.write("= " + text + "\n\n")
            sys.stdout.flush()

        if cmd == "quit":
            ok()
            return 0
        if cmd == "protocol_version":
            ok("2")
        elif cmd == "name":
            ok("Fake")
        elif cmd == "version":
            ok("1.0")
        elif cmd == "list_commands":
            ok("\n".join(known))
        elif cmd == "known_command":
            ok("true" if rest and rest[0] in known else "false")
        elif cmd == "boardsize" and (not rest or not rest[0].isdigit() or int(rest[0]) > max_size):
            sys.stdout.write("? unacceptable size\n\n")
            sys.stdout.flush()
        elif cmd == "clear_board" or cmd == "boardsize":
            stones.clear()
            ok()
        elif cmd == "play" and refuse_play:
            sys.stdout.write("? illegal move\n\n")
            sys.stdout.flush()
        elif cmd == "play":
            if len(rest) == 2 and rest[1].lower() != "pass":
                stones.add(rest[1].upper())
            ok()
        elif cmd == "set_free_handicap":
            for v in rest:
                stones.add(v.upper())
            ok()
        elif cmd == "genmove" or (cmd == "kgs-genmove_cleanup" and cmd in known):
            genmoves += 1
            if die_at and genmoves >= die_at:
                return die()
            if delay:
                time.sleep(delay)
            move = "pass"
            while moves:
                m = moves.pop(0)
                if m.lower() == "resign" or m.upper() not in stones:
                    move = m
                    break
            if move.lower() not in ("pass", "resign"):
                stones.add(move.upper())
            ok(move)
        elif cmd == "place_free_handicap" and cmd in known:
            places += 1
            if die_at_place and places >= die_at_place:
                return die()
            pts = ["C3", "E5", "C5", "E3"][:int(rest[0]) if rest else 0]
            stones.update(pts)
            ok(" ".join(pts))
        elif cmd == "final_status_list":
            ok("")
        elif cmd in known:
            ok()
        else:
            sys.stdout.write("? unknown command\n\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
