// Three roles of different warp counts, lowered: "load" (one warp,
// registers(40), so padded to warpgroup 0: threads 0-127, of which 0-31
// work), "mma" (one warp, threads 128-159; 160-255 are idle, since the
// next role sets registers and starts on a warpgroup boundary) and
// "epilogue" (two warpgroups, threads 256-511, registers(168), two teams
// of 128). The roles are a chain of scf.if on the thread id (< 128, < 256,
// else); each sets its own budget (decrease 40, increase 168; mma keeps the
// kernel's), reads its thread ids from 0 (tid, tid - 128, (tid - 256) mod
// 128 in a team) and synchronises on its own named barrier, allocated in
// role order: load 1 (32 threads), mma 2 (32 threads), the epilogue's
// teams 3 + team (128 threads each).
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --convert-tile-to-gpu --canonicalize --cse | sed -n '/gpu.func @roles/,/gpu.return/p' | grep -E 'gpu.thread_id|cmpi ult, .thread_id_x|subi .thread_id_x|(divui|remui) [^ ]+, .c128 :|addi [^ ]+, .c[0-9]_i32|setmaxregister|nvvm.barrier' | sed -E 's/^ +//; s/ : (index|i32)$//; s/ : index to i32$//' | uniq

tile.kernel @roles(%A: memref<?x?xf32>) threads(512) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %a = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %e = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  tile.warp_specialize {
    role "load" warps(1) registers(40) {
      tile.copy %A[%c0, %c0] to %a[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    }
    role "mma" warps(1) {
      tile.copy %A[%c0, %c0] to %b[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    }
    role "epilogue" warpgroups(2) registers(168) teams(2) as %half {
      %x = tile.alloc_fragment : !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>
      tile.fill %x, %zero : !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>, f32
      tile.copy %x[] to %e[] : !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>, memref<8x32xf32, #gpu.address_space<workgroup>>
    }
  }
}
