#!/usr/bin/env bash
# Rebuilds the fifteen hostile inputs of issue 26 in a temporary folder and runs each through the
# release binary under /usr/bin/time: one line per hole with its exit status, seconds and peak RSS.
# Each must end within a few seconds, under 2 GB, with exit 0 (legal input) or a clear error
# (1 for `check`, 2 elsewhere; a failed sample game is 1), and never panic, abort, overflow the
# stack or print the secret line of a file that is not a preset.
# Usage: bench/hostile.sh [path/to/herald]   (default target/release/herald; build it first)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
herald=${1:-$root/target/release/herald}
[ -x "$herald" ] || { echo "no $herald: cargo build --release first" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
secret='machine example.com login bob password hunter2'
bad=0

# run N NAME STDIN-FILE ARGS...: one line: hole, exit, seconds, MB, first error line.
run() {
  local n=$1 name=$2 input=$3; shift 3
  /usr/bin/time -f '%x %e %M' -o time.txt timeout 120 "$herald" "$@" <"$input" >out.txt 2>err.txt
  read -r code secs kb < <(tail -n 1 time.txt)
  local first
  first=$(grep -m1 -E 'error|legal|nodes|nest|ok \(' err.txt out.txt | cut -d: -f2- | cut -c1-110)
  printf '%2s %-34s exit %3s %6.2f s %6.1f MB  %s\n' "$n" "$name" "$code" "$secs" "$(echo "$kb/1024" | bc -l)" "$first"
  if grep -q -E 'panicked|stack overflow|hunter2' out.txt err.txt || [ "$code" -gt 2 ] || [ "$kb" -gt 2097152 ]; then
    echo "   ^ FAILS: $(grep -m1 -E 'panicked|overflow|hunter2' out.txt err.txt)"
    bad=1
  fi
}

base='board 4 x 4
piece King K royal moves "K"
piece Rook R moves "R"
setup "k3/4/4/R2K w"'
: >empty
printf '%s\n' "$secret" >netrc

# 1. Multi-leg Betza: twenty sideways legs, 2^20 paths from each square.
legs=$(python3 -c 'print("-".join(["sW"] * 20))')
printf 'board 8 x 8\npiece King K royal moves "K"\npiece X X moves "[W-%s]"\nsetup "k7/8/8/8/8/8/8/K6X w"\n' "$legs" >h1.preset
run 1 "multi-leg Betza, 20 legs" empty check h1.preset

# 2. extends fan-out through paths that grow at each level, three times per file.
mkdir -p ext
printf 'extends "../ext/c3.preset"\nextends "../ext/c3.preset"\nextends "../ext/c3.preset"\n' >ext/c3.preset
run 2 "extends fan-out, growing paths" empty check ext/c3.preset

# 3. extends naming a FIFO and a link to a secret.
mkfifo f.preset
ln -s netrc x.preset
printf 'extends "f.preset"\n' >h3a.preset
printf 'extends "x.preset"\n' >h3b.preset
run 3a "extends a FIFO" empty check h3a.preset
run 3b "extends a link to a secret" empty check h3b.preset

# 4. A megabyte of Betza in one string.
python3 -c 'print("board 8 x 8\npiece King K royal moves \"K\"\npiece X X moves \"" + "W" * 1040000 + "\"\nsetup \"k7/8/8/8/8/8/8/K6X w\"")' >h4.preset
run 4 "1 MiB Betza string" empty check h4.preset

# 5. A long list read in a loop, one step each before.
printf '%s\non turn_start {\n  let l = range(0, 1900000)\n  while true { let b = 5 in l }\n}\n' "$base" >h5.preset
run 5 "x in l over 1.9M items, in a loop" empty moves h5.preset

# 6. say of a large list in a loop, kept by on announce.
printf '%s\non announce {\n  let l = [piece_of(Rook, white)]\n  for i in 17 { l = l + l }\n  while true { say l }\n}\n' "$base" >h6.preset
printf 'R a1-b1\nquit\n' >h6.in
run 6 "say l in a loop (announce)" h6.in play h6.preset

# 7. Recursion at every documented limit at once, on the main thread and perft's workers.
python3 - <<'EOF' >h7.preset
d, b, n = 62, 98, 197
body = "if n > 0 { return %sf(n - 1) }\nreturn 0" % ("- " * n)
for _ in range(1, b):
    body = "if true { %s }" % body
print('board 4 x 4\npiece King K royal moves "K"\npiece Rook R moves "R"\nsetup "k3/4/4/R2K w"')
print("fn f(n) { %s }\non turn_start { let x = f(%d) }" % (body, d))
EOF
run 7a "recursion at all limits: moves" empty moves h7.preset
run 7b "recursion at all limits: perft -t2" empty perft h7.preset 3 --threads 2
printf 'R a1-a2\ngo 300ms\nquit\n' >h7.in
run 7c "recursion at all limits: REPL go" h7.in play h7.preset

# 8. A sample game whose preset is a secret file.
printf 'preset: netrc\nsteps: []\n' >h8.yaml
run 8 "sample game naming a netrc file" empty test h8.yaml

# 9. YAML alias amplification: one 4000-item list aliased 32,000 times.
python3 -c '
items = ",".join(["e4"] * 4000)
print("preset: chess\nx: &a [" + items + "]\nsteps:\n  - check: {legal_includes: [" + ",".join(["*a"] * 32000) + "]}")' >h9.yaml
run 9 "YAML aliases, 128M strings" empty test h9.yaml
python3 -c 'print("preset: chess\nsteps: " + "[" * 100000 + "]" * 100000)' >h9b.yaml
run 9b "YAML of 100,000 nested brackets" empty test h9b.yaml

# 10. REPL open of a device and of a FIFO.
mkfifo pipe.yaml
printf 'open /dev/zero\nopen pipe.yaml\ne4\nquit\n' >h10.in
run 10 "REPL open /dev/zero, a FIFO" h10.in play chess

# 11. REPL save through a planted link and over a FIFO.
printf 'keep me\n' >victim.txt
ln -s victim.txt link.yaml
mkfifo save.fifo
printf 'e4\nsave link.yaml\nsave save.fifo\nquit\n' >h11.in
run 11 "REPL save over a link, a FIFO" h11.in play chess
[ "$(cat victim.txt)" = "keep me" ] && [ -p save.fifo ] || { echo "   ^ FAILS: a file was replaced"; bad=1; }

# 12. A line of invalid UTF-8 in a piped REPL.
printf 'e4\n\xff\xfe\ne5\nfen\nquit\n' >h12.in
run 12 "invalid UTF-8 line, piped REPL" h12.in play chess
grep -q 'rnbqkbnr/pppp1ppp/8/4p3/4P3' out.txt || { echo "   ^ FAILS: the lines after it did not run"; bad=1; }

# 13. Sixty ranged queens naming one slow function.
python3 - <<'EOF' >h13.preset
print('board 8 x 8\npiece King K royal moves "K"')
for i in range(60):
    print('piece Q%d Q%s%s moves "Q" range slow' % (i, chr(97 + i % 26), chr(97 + i // 26)))
print("fn slow(n) {\n  let t = 0\n  for i in 190000 { t = t + 1 }\n  return n\n}")
print('setup "k7/8/8/8/8/8/8/K7 w"')
EOF
run 13 "sixty ranged queens, slow range" empty check h13.preset

# 14. Four construct parts on a 26x64 board of 1659 holes.
holes() { # side extra
  python3 - "$1" "$2" <<'EOF'
import sys
side, extra = sys.argv[1], sys.argv[2].replace("\\n", "\n")
rows = ["kR" + "*" * 24] + ["*" * 26] * 62 + ["K" + "*" * 25]
print('board 26 x 64\npiece King K royal moves "K"\npiece Rook R moves "R"\nsetup "%s %s - - 0 1"' % ("/".join(rows), side))
print("turn {\n    construct\n    construct\n    construct\n    construct\n}\n" + extra)
EOF
}
holes b '' >h14a.preset
holes w 'on validate construct {\n    if len(this_turn()) == 4 { reject "never" }\n}' >h14b.preset
run 14a "4 constructs, 1659 holes, in check" empty moves h14a.preset
run 14b "4 constructs, validate rejects" empty perft h14b.preset 2

# 15. The fuzz targets on their committed corpora (each binary, when built by fuzz/run-all.sh).
fuzzbin=$root/fuzz/target/x86_64-unknown-linux-gnu/release
for t in preset fen notation games mutate; do
  if [ -x "$fuzzbin/$t" ]; then
    /usr/bin/time -f '%x %e %M' -o time.txt "$fuzzbin/$t" -runs=0 "$root/fuzz/corpus/$t" >out.txt 2>err.txt
    read -r code secs kb < <(tail -n 1 time.txt)
    printf '%2s %-34s exit %3s %6.2f s %6.1f MB  %s\n' 15 "fuzz $t: its corpus" "$code" "$secs" "$(echo "$kb/1024" | bc -l)" \
      "$(grep -c . <(ls "$root/fuzz/corpus/$t")) inputs"
    [ "$code" = 0 ] || { echo "   ^ FAILS: $(grep -m1 -E 'panicked|ERROR' err.txt)"; bad=1; }
  else
    echo "15 fuzz $t: not built (fuzz/run-all.sh builds it); tests/fuzz_corpus.rs replays the corpus"
  fi
done
exit $bad
