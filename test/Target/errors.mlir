// tile-translate's failures: each exits non-zero with one clear error and
// writes no output file.
// RUN: rm -f %t.cubin
// Unknown chip, for tile-level input (tile-to-nvvm refuses it) and for
// LLVM+NVVM input (the PTX stage does).
// RUN: not tile-translate --tile-to-cubin --chip=sm_999 %s -o %t.cubin
// RUN: not echo 'llvm.func @k() attributes {nvvm.kernel} { llvm.return }' | tile-translate --tile-to-ptx --chip=sm_999
// No ptxas under an explicit --cuda-root (no fallback to another toolkit).
// RUN: not tile-translate --tile-to-cubin --cuda-root=/nonexistent %s -o %t.cubin
// ptxas's own error is passed through.
// RUN: not tile-translate --tile-to-cubin --ptxas-options=--bogus-flag %s -o %t.cubin
// RUN: test ! -e %t.cubin && echo 'no cubin written'
// An input file that cannot be read.
// RUN: not tile-translate --tile-to-ptx /nonexistent.mlir
// Neither tile kernels nor LLVM+NVVM kernels.
// RUN: not echo 'func.func @f() { return }' | tile-translate --tile-to-ptx
// An LLVM pass pipeline that does not parse.
// RUN: not tile-translate --tile-to-ptx --llvm-passes='function(no-such-pass)' %s -o %t.ptx
// Tile-level input the pipeline refuses (a fragment of more registers than
// a thread has).
// RUN: not echo 'tile.kernel @k() threads(128) { %m = tile.alloc_fragment : !tile.fragment<256x256xf32> }' | tile-translate --tile-to-ptx
// Malformed IR.
// RUN: not echo 'func.func @f( {' | tile-translate --tile-to-ptx
// --ptx-features takes PTX ISA versions only ('+ptxNN'); an SM feature is
// refused (it made LLVM abort), and so is an ISA too old for the chip.
// RUN: not tile-translate --tile-to-ptx --ptx-features=+sm_100a %s -o %t.ptx
// RUN: not tile-translate --tile-to-ptx --ptx-features=+ptx88,+sm_90a %s -o %t.ptx
// RUN: not tile-translate --tile-to-ptx --chip=sm_90a --ptx-features=+ptx70 %s -o %t.ptx
// --kernel-info naming the output file (directly, through another spelling,
// or stdout for both).
// RUN: not tile-translate --tile-to-ptx %s -o %t.ptx --kernel-info=%t.ptx
// RUN: rm -f %t.ptx %t.link && touch %t.ptx && ln -s %t.ptx %t.link
// RUN: not tile-translate --tile-to-ptx %s -o %t.ptx --kernel-info=%t.link
// RUN: not tile-translate --tile-to-ptx %s --kernel-info=-
// ptxas options that make it assemble nothing (exit 0, no ELF file).
// (ptxas's banner varies with CUDA: only the error line is kept.)
// RUN: ! tile-translate --tile-to-cubin --ptxas-options=--version %s -o %t.cubin 2>%t.err
// RUN: grep -o 'error: .*' %t.err
// RUN: test ! -e %t.cubin && echo 'no cubin written'
// A failed compile leaves the previous output as it was (written through a
// temporary renamed over it only on success).
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx && cp %t.ptx %t.good
// RUN: not tile-translate --tile-to-ptx --chip=sm_999 %s -o %t.ptx
// RUN: cmp %t.ptx %t.good && echo 'previous output kept'
// Inline PTX whose template LLVM's printer would abort on (found by the
// fuzzer): a '$' that is no reference, an operand past the last, an
// operand modifier, an unknown special, nested variants.
// RUN: not echo 'llvm.func @k() attributes {nvvm.kernel} { %v = llvm.inline_asm has_side_effects "mov.u32 $,id;", "=r" : () -> i32 llvm.return }' | tile-translate --tile-to-ptx --chip=sm_90a
// RUN: not echo 'llvm.func @k() attributes {nvvm.kernel} { %v = llvm.inline_asm has_side_effects "mov.u32 $1, 0;", "=r,~{memory}" : () -> i32 llvm.return }' | tile-translate --tile-to-ptx --chip=sm_90a
// RUN: not echo 'llvm.func @k() attributes {nvvm.kernel} { %v = llvm.inline_asm has_side_effects "mov.u32 ${0:c}, 0;", "=r" : () -> i32 llvm.return }' | tile-translate --tile-to-ptx --chip=sm_90a
// RUN: not echo 'llvm.func @k() attributes {nvvm.kernel} { llvm.inline_asm has_side_effects "${:foo}", "" : () -> () llvm.return }' | tile-translate --tile-to-ptx --chip=sm_90a
// RUN: not echo 'llvm.func @k() attributes {nvvm.kernel} { llvm.inline_asm has_side_effects "$( $( $) $)", "" : () -> () llvm.return }' | tile-translate --tile-to-ptx --chip=sm_90a
// Well-formed references pass: $$, ${0}, ${:uid}.
// RUN: echo 'llvm.func @k() attributes {nvvm.kernel} { %v = llvm.inline_asm has_side_effects "// $$ ${:uid}\n mov.u32 ${0}, 1;", "=r" : () -> i32 llvm.return }' | tile-translate --tile-to-ptx --chip=sm_90a | grep -c 'mov.u32'

tile.kernel @copy(%a: memref<?xf32>, %b: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.copy %a[%c0] to %x[] : memref<?xf32>, !tile.fragment<512xf32>
  tile.copy %x[] to %b[%c0] : !tile.fragment<512xf32>, memref<?xf32>
}
