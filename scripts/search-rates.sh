#!/bin/bash
# The one-thread node rate of each search kind per variant, from which the default --max-nodes
# of a command-line search is set (src/rules/search.rs, command_max_nodes): each search is
# stopped by a budget of N nodes and its user CPU time taken. Usage (after cargo build
# --profile perft): scripts/search-rates.sh [ARBITER] ; N=5000000 for a quicker run.
A=${1:-target/perft/arbiter}
N=${N:-20000000}
X=(--size 5x5 --fen "g1amk/1p3/1M1Nr/2P2/G1K1A w")
t=$(mktemp)
run() {
    /usr/bin/time -f "%U" -o "$t" "$A" --threads 1 --max-nodes "$N" "$@" >/dev/null 2>&1
    u=$(tail -1 "$t")
    echo "$* : $u s user, $(echo "scale=1; $N / $u / 1000000" | bc) million nodes/s"
}
run perft chess 9
run perft cypher 9
run perft csipgs 9
run perft xpanse 14 "${X[@]}"
run win chess white 6
run win cypher white 6
run win csipgs white 6
run win xpanse black 8 "${X[@]}"
run invariant chess one-king-each 12
run invariant cypher court-king-never-in-check 12
run invariant csipgs a-king-each 12
run invariant xpanse passes-at-most-two 14 "${X[@]}"
rm -f "$t"
