#!/usr/bin/env bash
# Times `herald perft` beside Stockfish and Fairy-Stockfish (when installed) on the same positions, in
# one run, and prints a table: position, depth, nodes (which must agree), seconds, nps, ratios.
# Installs nothing. Usage: bench/compare.sh [--quick]   (--quick: one depth less everywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0; [ "${1:-}" = "--quick" ] && quick=1
cargo build --release --quiet
herald=target/release/herald
sf=$(command -v stockfish || ls /usr/games/stockfish 2>/dev/null || true)
fsf=$(command -v fairy-stockfish || ls /usr/games/fairy-stockfish 2>/dev/null || true)
start="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
kiwi="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

now() { date +%s.%N; }

# herald PRESET DEPTH [FEN] [extra args...] -> "nodes seconds"
herald_perft() {
  local preset=$1 depth=$2 fen=$3; shift 3
  local args=("$preset" "$depth"); [ -n "$fen" ] && args+=(--fen "$fen")
  local line; line=$("$herald" perft "${args[@]}" "$@" | tail -n 1)
  echo "$line" | awk '{print $4, $6}'
}

# best_of RUNS PRESET DEPTH [extra args...] -> "nodes seconds": the fastest of RUNS runs from the
# setup (the runs of the preset table are short, and the machine may be shared: one slow run says little)
best_of() {
  local runs=$1 preset=$2 depth=$3; shift 3
  for _ in $(seq "$runs"); do herald_perft "$preset" "$depth" "" "$@"; done | sort -k2 -g | head -n 1
}
best() { best_of 3 "$@"; }

# uci ENGINE FEN DEPTH -> "nodes seconds" (wall time of the whole `go perft`)
uci_perft() {
  local engine=$1 fen=$2 depth=$3 t0 t1 out
  t0=$(now)
  out=$(printf 'uci\nsetoption name Threads value 1\nisready\nposition fen %s\ngo perft %s\nquit\n' "$fen" "$depth" \
        | "$engine" 2>/dev/null | grep -E "^Nodes searched" | awk '{print $3}')
  t1=$(now)
  echo "$out $(echo "$t1 - $t0" | bc -l)"
}

row() { # name depth nodes secs [peer_nodes peer_secs label]...
  printf '%-30s %5s %12s %9.3f %12.0f\n' "$1" "$2" "$3" "$4" "$(echo "$3 / $4" | bc -l)"
}

printf '%-30s %5s %12s %9s %12s\n' position depth nodes seconds nps
chess_depth=$((6 - quick)); kiwi_depth=$((5 - quick))
for spec in "start:$chess_depth:$start" "kiwipete:$kiwi_depth:$kiwi"; do
  name=${spec%%:*}; rest=${spec#*:}; depth=${rest%%:*}; fen=${rest#*:}
  read -r hn hs < <(herald_perft chess "$depth" "$fen")
  row "herald chess $name" "$depth" "$hn" "$hs"
  read -r bn bs < <(herald_perft chess "$depth" "$fen" --no-bulk)
  row "herald chess $name --no-bulk" "$depth" "$bn" "$bs"
  read -r tn ts < <(herald_perft chess "$depth" "$fen" --threads 2)
  row "herald chess $name --threads 2" "$depth" "$tn" "$ts"
  for peer in "$fsf" "$sf"; do
    [ -n "$peer" ] || continue
    read -r pn ps < <(uci_perft "$peer" "$fen" "$depth")
    [ "$pn" = "$hn" ] || echo "  NODE COUNT DIFFERS: $(basename "$peer") $pn, herald $hn"
    row "$(basename "$peer") $name" "$depth" "$pn" "$ps"
    printf '  herald/%s nps: bulk %.2fx, no-bulk %.2fx, 2 threads %.2fx\n' "$(basename "$peer")" \
      "$(echo "($hn/$hs) / ($pn/$ps)" | bc -l)" "$(echo "($bn/$bs) / ($pn/$ps)" | bc -l)" "$(echo "($tn/$ts) / ($pn/$ps)" | bc -l)"
  done
done

echo
echo "every shipped preset from its setup, fastest of 3 runs (herald only; scripted presets run their hooks"
echo "at every node, except that bulk counting skips, at the last ply, hooks that can neither refuse a turn nor change the board)."
echo "Depths are chosen so that each run takes seconds: runs of a tenth of a second vary by a factor of 2 from run to run."
read -r cn cs < <(best chess $((6 - quick)))
row "chess" $((6 - quick)) "$cn" "$cs"
for spec in maidens:$((6 - quick)) modern-chaturanga:$((6 - quick)) ruddigore:$((4 - quick)) universal:$((3 - quick)) constructing:$((3 - quick)); do
  preset=${spec%%:*}; depth=${spec#*:}
  read -r n s < <(best "$preset" "$depth")
  row "$preset" "$depth" "$n" "$s"
  printf '  %s nps / chess nps: %.2f\n' "$preset" "$(echo "($n/$s) / ($cn/$cs)" | bc -l)"
done

echo
echo "the same without bulk counting: every leaf turn is played, its hooks run (one run where it takes"
echo "tens of seconds, else the fastest of 3), against chess's own speed without bulk counting"
read -r cbn cbs < <(best chess $((6 - quick)) --no-bulk)
row "chess --no-bulk" $((6 - quick)) "$cbn" "$cbs"
for spec in maidens:$((5 - quick)):3 ruddigore:$((4 - quick)):1; do
  IFS=: read -r preset depth runs <<< "$spec"
  read -r n s < <(best_of "$runs" "$preset" "$depth" --no-bulk)
  row "$preset --no-bulk" "$depth" "$n" "$s"
  printf '  %s nps / chess nps, both without bulk counting: %.2f\n' "$preset" "$(echo "($n/$s) / ($cbn/$cbs)" | bc -l)"
done

echo
echo "preset loading (parse, check, compile: one herald check loading it 50 times, per load, best of 3),"
echo "the whole herald check process, and a piped REPL session playing one turn (whole process, median of 5)"
for p in chess maidens modern-chaturanga ruddigore universal constructing; do
  fifty=$(for _ in $(seq 50); do printf '%s ' "$p"; done)
  l=$( for _ in 1 2 3; do s=$(now); "$herald" check $fifty >/dev/null; e=$(now); echo "($e - $s) * 1000 / 50" | bc -l; done | sort -n | sed -n 1p )
  t=$( for _ in 1 2 3 4 5; do s=$(now); "$herald" check "$p" >/dev/null; e=$(now); echo "($e - $s) * 1000" | bc -l; done | sort -n | sed -n 3p )
  first=$("$herald" moves "$p" | head -n 1)
  r=$( for _ in 1 2 3 4 5; do s=$(now); printf '%s\nquit\n' "$first" | "$herald" play "$p" >/dev/null; e=$(now); echo "($e - $s) * 1000" | bc -l; done | sort -n | sed -n 3p )
  printf '%-20s load %5.2f ms   check process %6.1f ms   one REPL turn %6.1f ms\n' "$p" "$l" "$t" "$r"
done
