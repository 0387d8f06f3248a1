#!/bin/sh
# Run each fuzz target in turn for $SECS seconds (default 600), one at a time, niced.
# Usage: fuzz/run-all.sh [TARGET...]
# Builds the targets first as the README's `cargo fuzz run -O -a` does (optimised, with debug
# assertions and overflow checks), so that what runs is what was built.
cd "$(dirname "$0")" || exit 2
RUSTC_BOOTSTRAP=1 nice cargo fuzz build -O -a || exit 2
SECS=${SECS:-600}
BIN=target/x86_64-unknown-linux-gnu/release
mkdir -p logs artifacts
for t in ${@:-preset fen notation games mutate}; do
    mkdir -p "corpus/$t" "artifacts/$t"
    # seeds/ (not committed) may hold extra starting inputs.
    nice "$BIN/$t" "corpus/$t" $( [ -d "seeds/$t" ] && echo "seeds/$t" ) -max_total_time="$SECS" -rss_limit_mb=2048 -timeout=10 \
        -max_len=65536 -artifact_prefix="artifacts/$t/" -print_final_stats=1 >"logs/$t.log" 2>&1
    echo "$t: exit $?, $(grep -E 'stat::number_of_executed_units' "logs/$t.log")"
done
