#!/bin/bash
# Compares the perft of sections of a Fairy-Stockfish variants.ini, imported by arbiter
# (`FILE.ini:SECTION`), with Fairy-Stockfish's own (its UCI option VariantPath loads the file),
# from the start position. Usage: scripts/ini-perft.sh INI DEPTH [SECTION...]; without sections,
# every section `arbiter import` maps. ARBITER and FSF name the binaries.
A=${ARBITER:-target/debug/arbiter}
FSF=${FSF:-/work/fsf/src/stockfish}
ini=$1 depth=$2
shift 2
sections=("$@")
if [[ ${#sections[@]} -eq 0 ]]; then
    mapfile -t sections < <("$A" import "$ini" 2>/dev/null | sed -n 's/^variant //p')
fi
for s in "${sections[@]}"; do
    f=$(printf 'setoption name VariantPath value %s\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nquit\n' \
        "$ini" "$s" "$depth" | "$FSF" 2>&1 | sed -n 's/^Nodes searched: //p')
    a=$("$A" perft "$ini:$s" "$depth" 2>&1 | sed -n 's/^perft [0-9]* = //p')
    if [[ -n $f && $f == "$a" ]]; then echo "ok   $s $depth $f"; else echo "DIFF $s $depth fsf=$f arbiter=$a"; fi
done
