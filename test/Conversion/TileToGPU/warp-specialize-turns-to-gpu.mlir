// Warpgroups taking turns, lowered with the warp split. The consumers (two
// warpgroups, threads 128-383) get named barriers 1 and 2, one per
// warpgroup (the producer has no CTA barrier, so no id). Warpgroup 0
// ((tid - 128) / 128 == 0) arrives on barrier 1 once at the start, so that
// it holds the first turn; a take is bar.sync on the warpgroup's own
// barrier (1 + warpgroup) of 256 threads (its 128 and the passing
// warpgroup's), a pass bar.arrive on the next one's
// (1 + (warpgroup + 1) mod 2).
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --convert-tile-to-gpu --canonicalize --cse | sed -n '/gpu.func @turns/,/gpu.return/p' | grep -E 'nvvm.barrier|subi .thread_id_x|divui|remui|addi [^ ]+, .c1_i32|cmpi eq|scf.for|scf.if' | sed -E 's/^ +//; s/ : (index|i32)$//; s/ : index to i32$//'

tile.kernel @turns(%n: index) threads(384) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.warp_specialize {
    role "producer" warps(1) registers(40) {
      tile.yield
    }
    role "consumers" warpgroups(2) registers(232) {
      tile.take_turn
      scf.for %i = %c0 to %n step %c1 {
        tile.pass_turn
        tile.take_turn
      }
      tile.pass_turn
    }
  }
}
