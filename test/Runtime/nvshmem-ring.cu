// The kernel tile-nvshmem-pe launches, written against NVSHMEM's headers.
// Compiled where NVSHMEM is installed (nvcc -rdc=true -cubin: a relocatable
// cubin whose only undefined symbols are NVSHMEM's device state), it is
// linked at load time by the runtime, as the kinfo beside it asks (link ring
// nvshmem):
//   nvcc -std=c++17 -rdc=true -cubin -arch=sm_90a -I$NVSHMEM/include \
//        nvshmem-ring.cu -o nvshmem-ring.cubin
#include <nvshmem.h>
#include <nvshmemx.h>

#include <cstdint>

// This PE's `src` goes to the next PE's `dst`, completing with a signal the
// next PE waits for.
extern "C" __global__ void ring(int *dst, const int *src, uint64_t *signal,
                                uint64_t count, int *peInfo) {
  int me = nvshmem_my_pe();
  int numPes = nvshmem_n_pes();
  if (threadIdx.x == 0) {
    peInfo[0] = me;
    peInfo[1] = numPes;
  }
  nvshmemx_putmem_signal_nbi_block(dst, src, count * sizeof(int), signal, 1,
                                   NVSHMEM_SIGNAL_SET, (me + 1) % numPes);
  if (threadIdx.x == 0)
    nvshmem_signal_wait_until(signal, NVSHMEM_CMP_EQ, 1);
  __syncthreads();
}
