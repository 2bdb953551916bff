// The chip is IR: each op a chip cannot do is refused, located, before LLVM
// (a warp-specialised split with registers(...) on sm_90, which has no
// setmaxnreg: LLVM would abort with "Cannot select"); and --chip may not
// disagree with the chip a module already names.
// RUN: not tile-translate --tile-to-ptx --chip=sm_90 %s
// RUN: tile-opt %s --tile-attach-target=chip=sm_90a -o %t.mlir
// RUN: not tile-translate --tile-to-ptx --chip=sm_80 %t.mlir
// The module's own chip is used when --chip is not given (.target sm_90a).
// RUN: tile-translate --tile-to-ptx %t.mlir

tile.kernel @split() threads(384) {
  tile.warp_specialize {
    role "producer" warps(1) registers(40) {
    }
    role "consumers" warpgroups(2) registers(232) {
    }
  }
}
