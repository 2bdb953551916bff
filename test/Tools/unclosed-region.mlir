// A region left open at the end of the input: both tools point at the
// '{' that is never closed (MLIR's parser said "expected operation name in
// quotes" at the last line). An open '(' keeps the parser's own error.
// RUN: printf 'tile.kernel @k() threads(128) {\n  %%x = tile.alloc_fragment : !tile.fragment<4x1024xf32>\n' > %t.open.mlir
// RUN: not tile-opt %t.open.mlir 2>&1 | sed -E 's|^.*\.mlir:|input:|'
// RUN: not tile-translate --tile-to-ptx --chip=sm_90a %t.open.mlir -o %t.ptx 2>&1 | sed -E 's|^.*\.mlir:|input:|'
// RUN: test ! -e %t.ptx && echo 'no PTX written'
// RUN: printf 'func.func @f( {\n' > %t.paren.mlir
// RUN: not tile-opt %t.paren.mlir 2>&1 | sed -E 's|^.*\.mlir:|input:|'
