#!/usr/bin/env bash
# Runs tile-fuzz (a libFuzzer build, .ci/fuzz) for a bounded time, seeded
# with every test and example kernel (split at `// -----`), with tile's
# dictionary. Exits non-zero when libFuzzer finds a crash, an abort, a leak,
# an input slower than the timeout or one that needs more than the memory
# limit; the input is left in <workdir>/artifacts/ (replay it with
# `tile-fuzz <file>`; fixed ones go to test/Fuzz/regressions/).
# Usage: fuzz.sh <tile-fuzz> <source dir> <workdir> [seconds]
# (seconds: default $TILE_FUZZ_SECONDS, else 60; more libFuzzer flags in
# $TILE_FUZZ_ARGS, e.g. -fork=2 for two processes)
set -euo pipefail
fuzzer=$1 src=$2 work=$3 seconds=${4:-${TILE_FUZZ_SECONDS:-60}}
mkdir -p "$work/seeds" "$work/corpus" "$work/artifacts"
rm -f "$work/seeds/"*
n=0
while IFS= read -r -d '' file; do
  # One seed per split-input chunk, as the tests run them.
  awk -v out="$work/seeds/$n" '
    /^\/\/ -----/ { close(out "-" part+0 ".mlir"); part++; next }
    { print > (out "-" part+0 ".mlir") }' "$file"
  n=$((n + 1))
done < <(find "$src/test" "$src/python-free-examples" -name '*.mlir' -print0 | sort -z)
echo "fuzz.sh: $(ls "$work/seeds" | wc -l) seeds from $n files; ${seconds}s"
# libMLIR.so and libLLVM.so are not instrumented (see .ci/sanitize).
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0}
read -r -a extra <<<"${TILE_FUZZ_ARGS:-}"
exec "$fuzzer" "$work/corpus" "$work/seeds" \
  -dict="$src/test/Fuzz/tile.dict" -max_total_time="$seconds" \
  -timeout=60 -rss_limit_mb=4096 -malloc_limit_mb=4096 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 ${extra[@]+"${extra[@]}"}
