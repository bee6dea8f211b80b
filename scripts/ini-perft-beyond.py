#!/usr/bin/env python3
"""Compares arbiter's perft of imported variants.ini sections with Fairy-Stockfish's beyond the
start position (see scripts/ini-perft.sh, which runs this for `--positions castling|random`).

castling: the start position with every piece but the kings and the rooks taken off both back
ranks (the castling rights kept), so castling is legal at once where the section has it.
random: the positions at the end of GAMES seeded random games of PLIES plies each, played by
Fairy-Stockfish's own move list (the seed is the section's name: the same positions each run).

Each line: `ok   SECTION DEPTH COUNT FEN` or `DIFF SECTION DEPTH fsf=N arbiter=M FEN`; with
RECORD=1, `SECTION | FEN | DEPTH | COUNT` lines of Fairy-Stockfish's counts instead, the format
of tests/data/fsf-ini-perft-beyond.txt. Usage: ini-perft-beyond.py MODE INI DEPTH SECTION...
(ARBITER and FSF name the binaries; GAMES and PLIES the random games, 4 and 24 by default).
"""

import hashlib
import os
import random
import re
import subprocess
import sys


class Fsf:
    def __init__(self, path, ini, section):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.send(f"setoption name VariantPath value {ini}")
        self.send(f"setoption name UCI_Variant value {section}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("Fairy-Stockfish ended: " + "".join(lines[-5:]))
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def fen(self, position):
        self.send(f"position {position}")
        self.send("d")
        fen = None
        for line in self.until("Chased:"):
            if line.startswith("Fen: "):
                fen = line[5:].strip()
        if fen is None:
            raise RuntimeError("no FEN")
        return fen

    def perft(self, position, depth):
        """The count and, at depth 1, the moves."""
        self.send(f"position {position}")
        self.send(f"go perft {depth}")
        lines = self.until("Nodes searched:")
        moves = [l.split(":")[0] for l in lines if re.match(r"^\S+: \d+$", l)]
        return int(lines[-1].split(":")[1]), moves

    def quit(self):
        self.send("quit")
        self.p.wait()


def ranks_of(placement):
    """The placement's ranks (top first), each a list of square tokens (None for empty)."""
    board, _, rest = placement.partition("[")
    out = []
    for rank in board.split("/"):
        squares = []
        i = 0
        while i < len(rank):
            c = rank[i]
            if c.isdigit():
                j = i
                while j < len(rank) and rank[j].isdigit():
                    j += 1
                squares += [None] * int(rank[i:j])
                i = j
                continue
            token = c
            if c == "+" and i + 1 < len(rank):
                token = rank[i:i + 2]
                i += 1
            i += 1
            while i < len(rank) and rank[i] == "~":
                token += "~"
                i += 1
            squares.append(token)
        out.append(squares)
    return out, ("[" + rest) if rest or placement.endswith("[") else ""


def placement_of(ranks, pocket):
    text = []
    for squares in ranks:
        s, empty = "", 0
        for t in squares:
            if t is None:
                empty += 1
                continue
            if empty:
                s += str(empty)
                empty = 0
            s += t
        if empty:
            s += str(empty)
        text.append(s)
    return "/".join(text) + pocket


def castling_ready(fen):
    fields = fen.split(" ")
    ranks, pocket = ranks_of(fields[0])
    for r in (0, len(ranks) - 1):
        ranks[r] = [t if t is None or t == "*" or t.rstrip("~") in "KkRr" else None
                    for t in ranks[r]]
    return " ".join([placement_of(ranks, pocket)] + fields[1:])


def arbiter_perft(arbiter, ini, section, fen, depth):
    o = subprocess.run([arbiter, "perft", f"{ini}:{section}", str(depth), "--fen", fen],
                       capture_output=True, text=True)
    m = re.search(r"^perft \d+ = (\d+)$", o.stdout, re.M)
    return int(m.group(1)) if m else (o.stderr.strip().splitlines() or ["?"])[0]


def main():
    mode, ini, depth, sections = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    arbiter = os.environ.get("ARBITER", "target/debug/arbiter")
    fsf_path = os.environ.get("FSF", "/work/fsf/src/stockfish")
    games = int(os.environ.get("GAMES", "4"))
    plies = int(os.environ.get("PLIES", "24"))
    record = os.environ.get("RECORD") == "1"
    for section in sections:
        fsf = Fsf(fsf_path, ini, section)
        start = fsf.fen("startpos")
        fens = []
        if mode == "castling":
            fens.append(castling_ready(start))
        else:
            seed = int(hashlib.sha256(section.encode()).hexdigest()[:16], 16)
            rng = random.Random(seed)
            for _ in range(games):
                played = []
                for _ in range(plies):
                    _, moves = fsf.perft("startpos moves " + " ".join(played), 1)
                    if not moves:
                        break
                    played.append(rng.choice(sorted(moves)))
                fens.append(fsf.fen("startpos moves " + " ".join(played)))
        for fen in fens:
            want, _ = fsf.perft(f"fen {fen}", depth)
            if record:
                print(f"{section} | {fen} | {depth} | {want}")
                continue
            got = arbiter_perft(arbiter, ini, section, fen, depth)
            tag = "ok  " if got == want else "DIFF"
            if got == want:
                print(f"{tag} {section} {depth} {want} {fen}")
            else:
                print(f"{tag} {section} {depth} fsf={want} arbiter={got} {fen}")
        fsf.quit()


if __name__ == "__main__":
    main()
