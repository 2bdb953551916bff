// The latency of one put with its signal between two GPUs, as a ping-pong
// inside one kernel (no launch in the loop): in round r, PE 0 puts FLOATS
// floats from the start of its `buf` into PE 1's `buf` after its own
// FLOATS, setting PE 1's signal word 0 to base + r + 1, and waits for word
// 1; PE 1 waits for word 0, then puts its own FLOATS back into PE 0's
// `buf` the same way, setting PE 0's word 1. A round is one round trip:
// half of it is what a put with a signal takes from issue to the peer's
// wait seeing it. Other PEs do nothing.
//
// A family over the message (FLOATS: 8 bytes, 1 KiB, 8 KiB) and how the
// put moves it: NVSHMEM's own call (`nvshmemx_putmem_signal_nbi_block`,
// the mechanism tile-select-instructions records for a contiguous tile),
// or, with P2P, tile's stores through the peer's address, a fence and
// `nvshmemx_signal_op` (mechanism p2p, written by hand here).
//
// `buf` and the signal words are symmetric buffers; the host zeroes the
// words once and passes a larger `base` each launch.
tile.kernel @ping_pong(%buf: memref<?xf32> {tile.symmetric},
                       %flags: memref<?xi64> {tile.symmetric},
                       %base: i64, %rounds: i64)
    params(FLOATS: index = 2, P2P: i1 = false)
    configs([FLOATS = 2], [FLOATS = 256], [FLOATS = 2048],
            [FLOATS = 2, P2P = true], [FLOATS = 256, P2P = true],
            [FLOATS = 2048, P2P = true])
    threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %first = arith.constant 0 : i32
  %second = arith.constant 1 : i32
  %size = tile.param "FLOATS" : index
  %p2p = tile.param "P2P" : i1
  %me = tile.rank level world : i32
  %ping = arith.cmpi eq, %me, %first : i32
  %pong = arith.cmpi eq, %me, %second : i32
  %msg = memref.subview %buf[0] [%size] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
  %n = arith.index_castui %rounds : i64 to index
  scf.for %r = %c0 to %n step %c1 {
    %r64 = arith.index_castui %r : index to i64
    %v0 = arith.addi %base, %r64 : i64
    %v = arith.addi %v0, %one : i64
    // PE 0 sends first and PE 1 answers: the same put, to the other one
    // with the other word.
    %to = arith.select %ping, %second, %first : i32
    %sent = arith.select %ping, %c0, %c1 : index
    %heard = arith.select %ping, %c1, %c0 : index
    %plays = arith.ori %ping, %pong : i1
    scf.if %plays {
      scf.if %pong {
        tile.wait %flags[%heard] ge %v level world : memref<?xi64>
      }
      scf.if %p2p {
        tile.put %msg to %buf[%size] peer %to scope block level world
            signal %flags[%sent] set %v {mechanism = #tile.comm_mechanism<p2p>}
            : memref<?xf32, strided<[1]>>, memref<?xf32>, memref<?xi64>
      } else {
        tile.put %msg to %buf[%size] peer %to scope block level world
            signal %flags[%sent] set %v
            : memref<?xf32, strided<[1]>>, memref<?xf32>, memref<?xi64>
      }
      scf.if %ping {
        tile.wait %flags[%heard] ge %v level world : memref<?xi64>
      }
    }
  }
  tile.quiet level world
}
