#!/bin/bash
# Compares the perft of sections of a Fairy-Stockfish variants.ini, imported by arbiter
# (`FILE.ini:SECTION`), with Fairy-Stockfish's own (its UCI option VariantPath loads the file).
# Usage: scripts/ini-perft.sh [--positions start|castling|random] INI DEPTH [SECTION...];
# without sections, every section `arbiter import` maps. ARBITER and FSF name the binaries.
# Positions: `start` (the default) the start position; `castling` the start position with all
# but the kings and rooks taken off the back ranks, so castling is legal at once; `random` the
# ends of seeded random games (GAMES, PLIES; see scripts/ini-perft-beyond.py, which also writes
# the data lines of tests/data/fsf-ini-perft-beyond.txt with RECORD=1).
A=${ARBITER:-target/debug/arbiter}
FSF=${FSF:-/work/fsf/src/stockfish}
positions=start
if [[ $1 == --positions ]]; then
    positions=$2
    shift 2
fi
ini=$1 depth=$2
shift 2
sections=("$@")
if [[ ${#sections[@]} -eq 0 ]]; then
    mapfile -t sections < <("$A" import "$ini" 2>/dev/null | sed -n 's/^variant //p')
fi
if [[ $positions != start ]]; then
    ARBITER=$A FSF=$FSF exec python3 "$(dirname "$0")/ini-perft-beyond.py" "$positions" "$ini" "$depth" "${sections[@]}"
fi
for s in "${sections[@]}"; do
    f=$(printf 'setoption name VariantPath value %s\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nquit\n' \
        "$ini" "$s" "$depth" | "$FSF" 2>&1 | sed -n 's/^Nodes searched: //p')
    a=$("$A" perft "$ini:$s" "$depth" 2>&1 | sed -n 's/^perft [0-9]* = //p')
    if [[ -n $f && $f == "$a" ]]; then echo "ok   $s $depth $f"; else echo "DIFF $s $depth fsf=$f arbiter=$a"; fi
done
