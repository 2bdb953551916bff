//===- Toolchain.h - where tile finds CUDA's tools and libraries -*- C++ -*-===//
//
// The one place that says where the compiler and the runtime look for
// CUDA's pieces: ptxas and libdevice (tile-translate), NVRTC and CUDA's
// headers (the runtime, linking kernels with NVSHMEM), and NVSHMEM (its
// installations and Python package; the runtime loads what is found). One
// search order each, no subprocess, and neither MLIR nor CUDA needed to
// build it (both the compiler and the runtime link it). NCCL is found at
// build time only, by CMake, for the examples that time it.
//
// The search order for a CUDA toolkit:
//   1. an explicit root the user gave (tile-translate --cuda-root): the
//      only place looked in, so that a wrong one is an error, not silently
//      another toolkit;
//   2. $CUDA_HOME, then $CUDA_PATH;
//   3. the toolkit tile was built with (CMake's TILE_CUDA_ROOT);
//   4. /usr/local/cuda;
//   5. for programs (ptxas), the directories of $PATH.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLCHAIN_TOOLCHAIN_H
#define TILE_TOOLCHAIN_TOOLCHAIN_H

#include <string>
#include <vector>

namespace tile::toolchain {

/// CUDA toolkit roots to look in, in the search order above (1-4), without
/// duplicates; with `explicitRoot`, only it.
std::vector<std::string> cudaRoots(const std::string &explicitRoot = "");

/// ptxas: <root>/bin/ptxas of the first root that has it, then $PATH
/// (not with an explicit root); "" when there is none.
std::string findPtxas(const std::string &explicitRoot = "");

/// libdevice (the __nv_* math functions):
/// <root>/nvvm/libdevice/libdevice.10.bc of the first root that has it;
/// "" when there is none.
std::string findLibdevice(const std::string &explicitRoot = "");

/// Where NVRTC (libnvrtc.so.13, then .so.12) may be, most specific first:
/// each root's lib64/, lib/ and targets/<arch>-linux/lib/, then NVIDIA's
/// Python packages under `pythonNvidiaDir` (site-packages/nvidia, where the
/// runtime found NVSHMEM's package; "" for none), then the bare names for
/// the dynamic loader ($LD_LIBRARY_PATH, ldconfig's cache).
std::vector<std::string> nvrtcCandidates(const std::string &pythonNvidiaDir);

/// How the search order reads in messages ("$CUDA_HOME, $CUDA_PATH,
/// /usr/local/cuda-13.0, /usr/local/cuda").
std::string describeCudaSearch(const std::string &explicitRoot = "");

//===----------------------------------------------------------------------===//
// NVSHMEM
//===----------------------------------------------------------------------===//

inline constexpr char kNvshmemHostLibrary[] = "libnvshmem_host.so.3";
inline constexpr char kNvshmemDeviceLibrary[] = "libnvshmem_device.a";
inline constexpr char kNvshmemHowToInstall[] =
    "pip install nvidia-nvshmem-cu13 or set NVSHMEM_HOME";

/// An NVSHMEM installation: the host library the runtime loads, the device
/// library kernels are linked with, and the folder holding both and the
/// bootstrap plugins (nvshmem_bootstrap_uid.so.3, ...).
struct NvshmemInstall {
  /// Where it was found, for messages: "NVSHMEM_HOME", a prefix, "the
  /// dynamic loader's path" or "the Python package nvidia-nvshmem-cu13".
  std::string origin;
  std::string libraryDir;
  /// <libraryDir>/libnvshmem_host.so.3
  std::string hostLibrary;
  /// <libraryDir>/libnvshmem_device.a
  std::string deviceLibrary;
  /// The folder holding nvshmem.h, or "" if the headers are not installed;
  /// the device functions kernels call are compiled from them.
  std::string includeDir;
};

/// Looks for NVSHMEM without loading it: NVSHMEM_HOME if set (then only
/// there), else /usr/local/nvshmem, /opt/nvidia/nvshmem, Debian's
/// /usr/lib/<arch>/nvshmem/<cudaMajor> (then its other versions), the
/// dynamic loader's path, then the Python package nvidia-nvshmem-cu13 in
/// the site-packages of $VIRTUAL_ENV, of each python3 on $PATH, of
/// ~/.local, /usr/local and /usr (no Python is run). Returns false and, if
/// `why` is non-null, a one-line reason naming what is missing, where it
/// looked and how to install it. Never throws.
bool findNvshmem(NvshmemInstall &install, int cudaMajor,
                 std::string *why = nullptr);

} // namespace tile::toolchain

#endif // TILE_TOOLCHAIN_TOOLCHAIN_H
