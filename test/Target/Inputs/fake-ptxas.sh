#!/bin/sh
# A stand-in for ptxas (test/Target/spill-limit.mlir): writes a small ELF
# file to -o and, like `ptxas -v`, reports each .entry of the PTX, with 64
# bytes of spills for the kernels whose name holds "TILE16384" (for every
# kernel when FAKE_PTXAS_SPILL_ALL is set).
# With FAKE_PTXAS_ARGS set it also prints the options it was given; with
# FAKE_PTXAS_ERROR=<regex> it fails as ptxas does on a bad PTX line, naming
# the first line that matches (test/Target/ptxas-error-location.mlir).
[ -n "$FAKE_PTXAS_ARGS" ] && echo "ptxas options: $*"
out=""
ptx=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift ;;
    *.ptx) ptx="$1" ;;
  esac
  shift
done
if [ -n "$FAKE_PTXAS_ERROR" ]; then
  line=$(grep -nE -m1 "$FAKE_PTXAS_ERROR" "$ptx" | cut -d: -f1)
  echo "ptxas $ptx, line $line; error   : Feature not supported here (fake)"
  echo "ptxas fatal   : Ptx assembly aborted due to errors"
  exit 255
fi
printf '\177ELF' > "$out"
for name in $(grep -oE '^\.visible \.entry [A-Za-z0-9_]+' "$ptx" | awk '{print $3}'); do
  case "$name" in
    *TILE16384*) bytes=64 ;;
    *) bytes=0 ;;
  esac
  [ -n "$FAKE_PTXAS_SPILL_ALL" ] && bytes=64
  echo "ptxas info    : Function properties for $name"
  echo "    0 bytes stack frame, $bytes bytes spill stores, $bytes bytes spill loads"
done
