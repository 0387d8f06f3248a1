#!/usr/bin/env bash
# Times `herald perft` beside Stockfish and Fairy-Stockfish (when installed) on the same positions, in
# one run, and prints a table: position, depth, nodes (which must agree), seconds, nps, ratios.
# Installs nothing. Usage: bench/compare.sh [--quick] [--library] [--selfplay] [--chess]
#   --quick     one depth less everywhere (smaller node budgets for the sections below)
#   --library   every shipped library variant against Fairy-Stockfish's `go perft` from the start, with
#               the geometric mean of the ratios over the scripted and drop variants (needs fairy-stockfish)
#   --selfplay  `herald selfplay P --games 2 --seed 3` for every shipped preset: seconds and nodes/s
#   --selfplay-only   only that section (it runs for many minutes; the others take a few)
#   --chess     only the chess section (start and kiwipete beside the peers), then stop
# Env FAIRY_STOCKFISH_CURRENT=PATH: a second Fairy-Stockfish (built from current sources) for the chess section.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0; library=0; selfplay=0; perft=1; chess_only=0
for arg in "$@"; do
  case $arg in
    --quick) quick=1 ;;
    --library) library=1 ;;
    --selfplay) selfplay=1 ;;
    --selfplay-only) selfplay=1; perft=0 ;;
    --chess) chess_only=1 ;;
    *) echo "usage: bench/compare.sh [--quick] [--library] [--selfplay] [--selfplay-only] [--chess]" >&2; exit 2 ;;
  esac
done
cargo build --release --quiet
herald=target/release/herald
sf=$(command -v stockfish || ls /usr/games/stockfish 2>/dev/null || true)
fsf=$(command -v fairy-stockfish || ls /usr/games/fairy-stockfish 2>/dev/null || true)
# A Fairy-Stockfish built from its current sources (README, "Speed"), compared in the chess section too.
fsf_current=${FAIRY_STOCKFISH_CURRENT:-}
if [ -n "$fsf_current" ] && [ ! -x "$fsf_current" ]; then
  echo "FAIRY_STOCKFISH_CURRENT=$fsf_current is not an executable file" >&2; exit 2
fi
start="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
kiwi="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

now() { date +%s.%N; }

# cpu COMMAND... -> the command's output, then a line "cpu SECONDS": the user+system CPU time it took
# (getrusage, to the microsecond; /usr/bin/time rounds to hundredths)
cpu() {
  python3 -c 'import resource, subprocess, sys
def spent():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime
before = spent()
subprocess.run(sys.argv[1:])
print("cpu %.6f" % (spent() - before))' "$@"
}

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

if [ "$perft" = 1 ]; then
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
  for peer in "$fsf" "$fsf_current" "$sf"; do
    [ -n "$peer" ] || continue
    label=$(basename "$peer"); [ "$peer" = "$fsf_current" ] && label=fairy-stockfish-current
    read -r pn ps < <(uci_perft "$peer" "$fen" "$depth")
    [ "$pn" = "$hn" ] || echo "  NODE COUNT DIFFERS: $label $pn, herald $hn"
    row "$label $name" "$depth" "$pn" "$ps"
    printf '  herald/%s nps: bulk %.2fx, no-bulk %.2fx, 2 threads %.2fx\n' "$label" \
      "$(echo "($hn/$hs) / ($pn/$ps)" | bc -l)" "$(echo "($bn/$bs) / ($pn/$ps)" | bc -l)" "$(echo "($tn/$ts) / ($pn/$ps)" | bc -l)"
  done
done

if [ "$chess_only" = 1 ]; then exit 0; fi
echo
echo "every shipped preset from its setup, fastest of 3 runs (herald only; scripted presets run their hooks"
echo "at every node, except that bulk counting skips, at the last ply, hooks that can neither refuse a turn nor change the board)."
echo "Depths are chosen so that each run takes seconds: runs of a tenth of a second vary by a factor of 2 from run to run."
read -r cn cs < <(best chess $((6 - quick)))
row "chess" $((6 - quick)) "$cn" "$cs"
# Universal from the setup of seed 1 at depth 5 (21990044 turns, about half a second) and Modern
# Chaturanga at depth 7 (about a second): at depths 4 and 6 they had become runs of a few hundredths of
# a second, where start-up and noise decide the ratio.
for spec in maidens:$((6 - quick)) modern-chaturanga:$((7 - quick)) ruddigore:$((4 - quick)) universal:$((5 - quick)) constructing:$((3 - quick)); do
  preset=${spec%%:*}; depth=${spec#*:}
  read -r n s < <(best "$preset" "$depth" --seed 1)
  row "$preset" "$depth" "$n" "$s"
  printf '  %s nps / chess nps: %.2f\n' "$preset" "$(echo "($n/$s) / ($cn/$cs)" | bc -l)"
done

echo
echo "the same without bulk counting: every leaf turn is played, its hooks run (one run where it takes"
echo "tens of seconds, else the fastest of 3), against chess's own speed without bulk counting"
read -r cbn cbs < <(best chess $((6 - quick)) --no-bulk)
row "chess --no-bulk" $((6 - quick)) "$cbn" "$cbs"
# Ruddigore's depth 4 tries more partial turns than a command may by default: asked for with --max-turns.
for spec in maidens:$((5 - quick)):3 ruddigore:$((4 - quick)):1; do
  IFS=: read -r preset depth runs <<< "$spec"
  read -r n s < <(best_of "$runs" "$preset" "$depth" --no-bulk --max-turns 2000000000)
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
fi

# The variants of the library issue whose presets need scripts or drops: the geometric mean of their
# ratios is the figure the speed issue tracks.
scripted="chessgi crazyhouse giveaway extinction horde grand seirawan xiangqi janggi shogi minishogi"

# setup_depth PRESET BUDGET -> the deepest depth whose count from the setup (tests/perft.txt, then
# tests/reference/fairy_positions.txt) is at most BUDGET nodes, and that count: "depth nodes". When
# that count is under BUDGET / 30 and the tables know the next depth's, within twice BUDGET, the next
# depth instead: a run that short is mostly the engines' start-up, too short for a ratio (shouse:
# 546,694 nodes at depth 3, 36,857,065 at depth 4).
setup_depth() {
  cat tests/perft.txt tests/reference/fairy_positions.txt \
    | awk -F' *; *' -v p="$1" -v b="$2" '$1 == p && $2 == "setup" {
        n = split($3, c, " ")
        for (i = 1; i <= n; i++) {
          if (c[i] + 0 <= b + 0 && i > d) { d = i; k = c[i] }
          if (!(i in all) || c[i] + 0 > all[i] + 0) all[i] = c[i]
        }
      } END {
        if (d && k + 0 < b / 30 && (d + 1) in all && all[d + 1] + 0 <= 2 * b) { d = d + 1; k = all[d] }
        if (d) print d, k
      }'
}

if [ "$library" = 1 ]; then
  echo
  if [ -z "$fsf" ]; then
    echo "library variants against Fairy-Stockfish: skipped (fairy-stockfish is not installed)"
  else
    budget=$((quick ? 1000000 : 30000000))
    echo "library variants from the start against Fairy-Stockfish 11.1 (one run each, single thread, the"
    echo "deepest depth of the perft tables with at most $budget nodes, or the next when that is under a"
    echo "thirtieth of it). Seconds are CPU seconds (user+system), which a machine shared with other work"
    echo "disturbs less than wall time; each engine's are those of its run less those of a perft 1 from"
    echo "the same start (its start-up). The last column is the ratio by wall time, Fairy-Stockfish's less"
    echo "its perft 1's likewise, Herald's as its perft reports it"
    echo "($(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d ' ' -f 1-3 /proc/loadavg), $(nproc) cores)"
    printf '%-20s %5s %12s %9s %9s %7s %7s\n' variant depth nodes herald-s fsf-s ratio wall
    known=$(printf 'uci\nquit\n' | "$fsf" | grep -o 'UCI_Variant.*' | tr ' ' '\n')
    logsum=0; wlogsum=0; count=0
    fs_variant_perft() { # VARIANT DEPTH -> "nodes cpu-seconds wall-seconds"
      local t0 out; t0=$(now)
      out=$(printf 'uci\nsetoption name UCI_Variant value %s\nsetoption name Threads value 1\nisready\nposition startpos\ngo perft %s\nquit\n' \
            "$1" "$2" | cpu "$fsf" 2>/dev/null)
      echo "$(echo "$out" | grep -E "^Nodes searched" | awk '{print $3}') $(echo "$out" | awk '$1 == "cpu" {print $2}') $(echo "$(now) - $t0" | bc -l)"
    }
    for file in presets/*.preset; do
      preset=$(basename "$file" .preset)
      echo "$known" | grep -qx "$preset" || continue
      read -r depth _ < <(setup_depth "$preset" "$budget") || continue
      out=$(cpu "$herald" perft "$preset" "$depth")
      read -r hn hw < <(echo "$out" | grep '^perft' | awk '{print $4, $6}')
      hs=$(echo "$out" | awk '$1 == "cpu" {print $2}')
      hb=$(cpu "$herald" perft "$preset" 1 | awk '$1 == "cpu" {print $2}')
      read -r _ bs bw < <(fs_variant_perft "$preset" 1)
      read -r pn pc pw < <(fs_variant_perft "$preset" "$depth")
      ps=$(echo "p = $pc - $bs; if (p < 0.001) p = 0.001; p" | bc -l)
      pw=$(echo "p = $pw - $bw; if (p < 0.001) p = 0.001; p" | bc -l)
      hs=$(echo "h = $hs - $hb; if (h < 0.001) h = 0.001; h" | bc -l)
      hw=$(echo "h = $hw; if (h < 0.001) h = 0.001; h" | bc -l)
      ratio=$(echo "$ps / $hs" | bc -l); wratio=$(echo "$pw / $hw" | bc -l)
      flag=""; [ "$pn" = "$hn" ] || flag="  NODE COUNT DIFFERS: fairy-stockfish $pn, herald $hn"
      printf '%-20s %5s %12s %9.3f %9.3f %7.2f %7.2f%s\n' "$preset" "$depth" "$hn" "$hs" "$ps" "$ratio" "$wratio" "$flag"
      if echo " $scripted " | grep -q " $preset "; then
        logsum=$(echo "$logsum + l($ratio)" | bc -l); wlogsum=$(echo "$wlogsum + l($wratio)" | bc -l); count=$((count + 1))
      fi
    done
    [ "$count" -gt 0 ] && printf 'geometric mean over the %d scripted and drop variants (%s): %.2f (by wall time %.2f)\n' \
      "$count" "$scripted" "$(echo "e($logsum / $count)" | bc -l)" "$(echo "e($wlogsum / $count)" | bc -l)"
  fi
fi

if [ "$selfplay" = 1 ]; then
  echo
  echo "self-play: herald selfplay P --games 2 --seed 3 (default 20000 nodes a turn): the whole run's wall"
  echo "seconds and CPU seconds (user+system), the nodes searched, and nodes per CPU second against chess's;"
  echo "on a machine shared with other work the wall time says little. The issue asks every preset to"
  echo "finish within 120 s (judged here by CPU time; a run is stopped at 600 s of wall time)"
  echo "($(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d ' ' -f 1-3 /proc/loadavg), $(nproc) cores)"
  printf '%-22s %9s %9s %12s %12s %9s\n' preset wall-s cpu-s nodes nodes/s vs-chess
  chess_nps=""
  for preset in chess $(ls presets/*.preset | xargs -n 1 basename | sed 's/\.preset$//' | grep -vx chess); do
    t0=$(now)
    out=$(cpu timeout 600 "$herald" selfplay "$preset" --games 2 --seed 3 2>&1 || true)
    secs=$(echo "$(now) - $t0" | bc -l)
    cpu=$(echo "$out" | awk '$1 == "cpu" {print $2}' | tail -n 1)
    # each game line ends "(N nodes, S s, R nodes/s)": sum the nodes
    nodes=$(echo "$out" | sed -n 's/.*(\([0-9]*\) nodes, [0-9.]* s, [0-9]* nodes\/s).*/\1/p' | awk '{n += $1} END {print n + 0}')
    nps=$(echo "$nodes / (${cpu:-$secs} + 0.001)" | bc -l)
    [ -n "$chess_nps" ] || chess_nps=$nps
    flag=""; [ "$(echo "${cpu:-$secs} > 120" | bc)" = 1 ] && flag="  OVER 120 s"
    echo "$out" | grep -q "^2 games" || flag="$flag  DID NOT FINISH: $(echo "$out" | grep -v '^cpu ' | tail -n 1)"
    printf '%-22s %9.1f %9.1f %12s %12.0f %9.3f%s\n' "$preset" "$secs" "${cpu:-0}" "$nodes" "$nps" "$(echo "$nps / ($chess_nps + 0.001)" | bc -l)" "$flag"
  done
fi
