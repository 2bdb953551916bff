//===- Nvshmem.h - NVSHMEM: PEs and symmetric memory ------------*- C++ -*-===//
//
// Kernels that call NVSHMEM's device functions (put/get/signal/wait) run in
// one process per GPU, each an NVSHMEM "PE". This part of the runtime finds
// NVSHMEM, starts it and gives programs its few host operations; nothing
// has to be set by the user:
//
// - NVSHMEM is found at run time (findNvshmem: NVSHMEM_HOME, the usual
//   install prefixes, the dynamic loader's path and the Python package
//   nvidia-nvshmem-cu13) and its host library is opened with dlopen, so
//   programs build and start without it; nvshmemAvailable() says why not.
// - Module::loadCubinFile(path, infos) links kernels whose description has
//   `link <kernel> nvshmem` with NVSHMEM's device library, initialises
//   NVSHMEM if needed and registers the module with it (Launch.h).
// - nvshmemInit() bootstraps from the environment: under tile-run (one
//   process per GPU) from the unique id it passes in TILE_NVSHMEM_UID; with
//   NVSHMEM_BOOTSTRAP set (mpirun, srun) through NVSHMEM's own bootstrap;
//   otherwise as the only PE. Each PE uses device TILE_LOCAL_RANK modulo
//   the device count (nvshmemDeviceOrdinal()).
// - NVSHMEM is finalised at exit, or by nvshmemFinalize(), after which
//   modules and symmetric buffers release nothing more.
//
// Collective calls (nvshmemInit, SymmetricBuffer's constructor and
// destructor, nvshmemBarrierAll, nvshmemFinalize) must be made by every PE
// in the same order. See docs/design.md, "NVSHMEM in the runtime".
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_NVSHMEM_H
#define TILE_RUNTIME_NVSHMEM_H

#include "tile/Runtime/Device.h"
#include "tile/Runtime/Error.h"
#include "tile/Toolchain/Toolchain.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tile {
namespace rt {

//===----------------------------------------------------------------------===//
// Finding NVSHMEM
//===----------------------------------------------------------------------===//

/// An NVSHMEM installation (include/tile/Toolchain/Toolchain.h).
using NvshmemInstall = ::tile::toolchain::NvshmemInstall;

/// toolchain::findNvshmem for the CUDA this runtime was built with: looks
/// for NVSHMEM without loading it. Never throws.
bool findNvshmem(NvshmemInstall &install, std::string *why = nullptr);

/// True when NVSHMEM is installed and its host library loads with every
/// entry point the runtime needs. Otherwise false with a one-line reason,
/// which programs print before exiting 77 (skipped). Never throws. Loads
/// the library once, on the first call, and remembers the answer.
bool nvshmemAvailable(std::string *why = nullptr);

/// The installation the runtime loaded; throws the reason if none.
const NvshmemInstall &nvshmemInstall();

/// NVSHMEM's version, e.g. "3.4.5"; throws if NVSHMEM is not available.
std::string nvshmemVersion();

//===----------------------------------------------------------------------===//
// Bootstrap
//===----------------------------------------------------------------------===//

/// The environment tile-run gives each process it starts.
namespace nvshmemenv {
/// NVSHMEM's unique id (nvshmemx_uniqueid_t) in hex; its bootstrap root is
/// a thread of tile-run.
inline constexpr char kUniqueId[] = "TILE_NVSHMEM_UID";
/// The PE this process is, and how many there are.
inline constexpr char kRank[] = "TILE_RANK";
inline constexpr char kWorldSize[] = "TILE_WORLD_SIZE";
/// The process's index on its node: it picks the device.
inline constexpr char kLocalRank[] = "TILE_LOCAL_RANK";
/// Set by the user or a batch script: NVSHMEM bootstraps itself (PMI, MPI).
inline constexpr char kNvshmemBootstrap[] = "NVSHMEM_BOOTSTRAP";
} // namespace nvshmemenv

/// Creates an NVSHMEM unique id and returns it in hex (256 digits). The
/// calling process hosts the bootstrap's root and must outlive every PE's
/// initialisation. Throws if NVSHMEM is not available.
std::string nvshmemCreateUniqueId();

/// This process's index on its node: TILE_LOCAL_RANK, else the local rank
/// a launcher sets (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID,
/// SLURM_LOCALID), else 0. Throws on a malformed value.
int nvshmemLocalRank();

/// The device this PE runs on: nvshmemLocalRank() modulo the number of
/// devices. Programs open it (Device::open(nvshmemDeviceOrdinal())) before
/// allocating or loading anything.
int nvshmemDeviceOrdinal();

//===----------------------------------------------------------------------===//
// PEs
//===----------------------------------------------------------------------===//

/// Initialises NVSHMEM for this process if not done yet (collective); see
/// the file comment for how it bootstraps. If a context is current it must
/// be on nvshmemDeviceOrdinal(); otherwise that device's primary context is
/// made current. Loading a module that needs NVSHMEM calls this.
void nvshmemInit();
/// True between nvshmemInit() and nvshmemFinalize().
bool nvshmemInitialized();

/// This PE and the number of PEs; initialise first.
int nvshmemMyPe();
int nvshmemNumPes();

/// Waits for every PE to arrive, with all earlier NVSHMEM operations
/// complete (nvshmem_barrier_all on NVSHMEM's internal stream).
void nvshmemBarrierAll();

/// Whether this PE reaches PE `pe`'s copy of the symmetric address
/// `symmetric` by load/store (nvshmem_ptr is not null: a GPU of the same
/// node over NVLink or PCIe, or this PE itself).
bool nvshmemPeerMapped(CUdeviceptr symmetric, int pe);

/// Enqueues on `stream` a barrier of every PE's stream, earlier NVSHMEM
/// operations complete (nvshmemx_barrier_all_on_stream: a kernel of one
/// CTA, which needs an SM free).
void nvshmemBarrierAllOnStream(CUstream stream);

/// Enqueues on `stream` a put of `bytes` bytes from this PE's `source` to
/// `dest` on PE `pe` (a symmetric address: this PE's address of the same
/// symmetric buffer), then the setting of PE `pe`'s signal word `signal`
/// (symmetric, u64) to `value` (nvshmemx_putmem_signal_on_stream). Between
/// GPUs that map each other's memory (NVLink, PCIe on one node) the copy
/// engine moves the bytes and the stream writes the word: no SM is used, so
/// a kernel that waits for the word (tile.wait) may run beside it.
void nvshmemPutSignalOnStream(CUdeviceptr dest, CUdeviceptr source,
                              size_t bytes, CUdeviceptr signal, uint64_t value,
                              int pe, CUstream stream);

/// Enqueues on `stream` a wait until this PE's signal word `signal`
/// (symmetric, u64) holds at least `value`
/// (nvshmemx_signal_wait_until_on_stream with NVSHMEM_CMP_GE: the stream
/// waits on the word, no kernel). Work enqueued after it, such as a put that
/// forwards what the signal announced, starts once a peer's put has set it.
void nvshmemSignalWaitOnStream(CUdeviceptr signal, uint64_t value,
                               CUstream stream);

/// Finalises NVSHMEM (collective). Also runs at exit; afterwards modules and
/// symmetric buffers still alive release nothing through NVSHMEM, and NVSHMEM
/// cannot be initialised again in this process.
void nvshmemFinalize();

//===----------------------------------------------------------------------===//
// Symmetric memory
//===----------------------------------------------------------------------===//

/// An allocation on NVSHMEM's symmetric heap (nvshmem_malloc): every PE
/// holds one of the same size at the same heap offset, so kernels pass
/// ptr() to put/get/signal with a peer's PE number. Construction and
/// destruction are collective. Transfers and fills (DeviceMemory, Device.h)
/// are synchronous and local. The heap is NVSHMEM_SYMMETRIC_SIZE bytes per
/// PE (1 GiB unless set).
class SymmetricBuffer : public DeviceMemory {
public:
  SymmetricBuffer();
  /// Initialises NVSHMEM if needed.
  explicit SymmetricBuffer(size_t bytes);
  SymmetricBuffer(SymmetricBuffer &&other) noexcept = default;
  SymmetricBuffer &operator=(SymmetricBuffer &&other) noexcept = default;
};

} // namespace rt
} // namespace tile

#endif // TILE_RUNTIME_NVSHMEM_H
