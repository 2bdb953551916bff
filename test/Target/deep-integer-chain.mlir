// Compile time stays bounded on long straight-line integer chains (the
// hardening issue, class 8): time in NVPTX's straight-line strength
// reduction grows with the square of the chain's depth (1,000 dependent
// multiply-add-xors took 5.8 s in llc, the issue's 5,000-op chain 86 s); a
// kernel whose chain is that deep now skips that pass
// (lib/Target/Translate.cpp). The 5,000 below compile in well under a
// second; the 60-second limit is far above that and below the old time.
// RUN: awk -v n=5000 -f %S/Inputs/integer-chain.awk > %t.mlir
// RUN: timeout 60 tile-translate --tile-to-ptx %t.mlir -o %t.ptx
// RUN: grep -E '^\.visible \.entry' %t.ptx
// Every multiply-add but the first (folded) is one PTX instruction.
// RUN: grep -cE '^\s*mad\.lo\.s32' %t.ptx
