# Prints a kernel of n dependent integer multiply-add-xors in one straight line
# (deep-integer-chain.mlir): awk -v n=5000 -f integer-chain.awk
BEGIN {
  print "module attributes {tile.target = #tile.target<\"sm_90a\">} {"
  print "tile.kernel @chain(%o: memref<?xi32>) threads(128) {"
  print "  %t = gpu.thread_id x"
  print "  %v0 = arith.index_cast %t : index to i32"
  for (i = 1; i <= n; i++) {
    printf "  %%k%d = arith.constant %d : i32\n", i, 2 * i + 3
    printf "  %%m%d = arith.muli %%v%d, %%k%d : i32\n", i, i - 1, i
    printf "  %%a%d = arith.addi %%m%d, %%v0 : i32\n", i, i
    printf "  %%v%d = arith.xori %%a%d, %%k%d : i32\n", i, i, i
  }
  printf "  memref.store %%v%d, %%o[%%t] : memref<?xi32>\n", n
  print "}"
  print "}"
}
