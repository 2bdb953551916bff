// Input nested deeper than 1000 regions or brackets is refused with one
// located error and a non-zero exit, before the parser's, verifier's and
// passes' recursion could overflow the stack (3000 nested loops crashed
// both tools before this check). No output file is written. The input is
// made here: 5000 nested scf.for, and 20000 nested brackets in an
// attribute.
// RUN: rm -f %t.out %t.ptx
// RUN: (echo 'tile.kernel @k() threads(128) {'; seq 5000 | sed 's/.*/scf.for %i = %c0 to %c0 step %c0 {/'; seq 5001 | sed 's/.*/}/') > %t.loops.mlir
// RUN: not tile-opt %t.loops.mlir -o %t.out 2>&1 | sed -E 's|^.*\.mlir:|input:|'
// RUN: test ! -e %t.out && echo 'no output written'
// RUN: not tile-translate --tile-to-ptx --chip=sm_90a %t.loops.mlir -o %t.ptx 2>&1 | grep -c 'nest deeper than 1000'
// RUN: test ! -e %t.ptx && echo 'no output written'
// RUN: (printf 'module attributes {x.a = '; head -c 20000 /dev/zero | tr '\0' '['; head -c 20000 /dev/zero | tr '\0' ']'; echo '} {}') > %t.brackets.mlir
// RUN: not tile-opt %t.brackets.mlir -o %t.out 2>&1 | grep -c 'nest deeper than 1000'
// Strings and comments do not count: this file's own brackets in them do
// not trip the check ({{{{ (((( [[[[ ).
// RUN: tile-opt %s -o %t.out && echo 'parsed'
tile.kernel @shallow() threads(32) {
}
