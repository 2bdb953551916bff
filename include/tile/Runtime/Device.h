//===- Device.h - Devices and device memory ---------------------*- C++ -*-===//
//
// Lifetime rules: keep the Device alive for as long as any buffer, module or
// event exists (they live in its primary context).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_DEVICE_H
#define TILE_RUNTIME_DEVICE_H

#include "tile/Runtime/Error.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tile {
namespace rt {

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

/// A device together with its retained primary context, which is made
/// current on the calling thread. Move-only; releases the context on
/// destruction.
class Device {
public:
  static Device open(int ordinal = 0);

  Device(Device &&other) noexcept;
  Device &operator=(Device &&other) noexcept;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;
  ~Device();

  /// Makes the primary context current on the calling thread again.
  void makeCurrent() const;

  int ordinal() const { return ordinal_; }
  CUdevice handle() const { return device_; }
  CUcontext context() const { return context_; }

  std::string name() const;
  /// major * 10 + minor, e.g. 90 for sm_90.
  int computeCapability() const;
  int smCount() const;
  size_t maxSharedPerBlockOptin() const;
  int attribute(CUdevice_attribute attr) const;

private:
  Device() = default;
  void reset() noexcept;

  int ordinal_ = -1;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
};

//===----------------------------------------------------------------------===//
// Device memory
//===----------------------------------------------------------------------===//

/// An owned linear device allocation: what DeviceBuffer (cuMemAlloc) and
/// SymmetricBuffer (nvshmem_malloc, Nvshmem.h) share. They differ only in how
/// they allocate, in their constructors, and in how they free, which their
/// Allocator names. Transfers are synchronous; errors name the derived class.
class DeviceMemory {
public:
  /// How a kind of allocation is named in errors and released. `release`
  /// gets a non-null pointer and must not throw.
  struct Allocator {
    const char *name;
    void (*release)(CUdeviceptr ptr) noexcept;
  };

  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;

  CUdeviceptr ptr() const { return ptr_; }
  size_t size() const { return bytes_; }

  /// Copies `bytes` bytes from host memory to the start of the buffer.
  void upload(const void *src, size_t bytes);
  /// Copies `bytes` bytes from the start of the buffer to host memory.
  void download(void *dst, size_t bytes) const { download(dst, bytes, 0); }
  /// Copies `bytes` bytes from byte `offset` of the buffer to host memory.
  void download(void *dst, size_t bytes, size_t offset) const;

  template <typename T> void upload(const std::vector<T> &src) {
    upload(src.data(), src.size() * sizeof(T));
  }
  template <typename T> void download(std::vector<T> &dst) const {
    download(dst.data(), dst.size() * sizeof(T));
  }
  /// The first `count` bf16 elements of the buffer, widened to float (what
  /// a host check compares with its reference).
  std::vector<float> downloadBf16(size_t count) const;

  /// Sets every byte to `value`.
  void fillBytes(uint8_t value);
  /// Sets every 32-bit word to `value` (e.g. a NaN pattern to poison
  /// outputs). The size must be a multiple of 4.
  void fillWords(uint32_t value);

protected:
  explicit DeviceMemory(const Allocator &allocator) : allocator_(&allocator) {}
  DeviceMemory(DeviceMemory &&other) noexcept;
  DeviceMemory &operator=(DeviceMemory &&other) noexcept;
  ~DeviceMemory();

  /// Takes ownership of `bytes` bytes at `ptr`, just allocated.
  void adopt(CUdeviceptr ptr, size_t bytes) {
    ptr_ = ptr;
    bytes_ = bytes;
  }
  /// "<name>::<method>", for errors.
  std::string where(const char *method) const;

private:
  void reset() noexcept;

  const Allocator *allocator_;
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

/// An owned linear device allocation (cuMemAlloc). Transfers are synchronous.
class DeviceBuffer : public DeviceMemory {
public:
  DeviceBuffer();
  explicit DeviceBuffer(size_t bytes);
  DeviceBuffer(DeviceBuffer &&other) noexcept = default;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept = default;

  /// Copies `bytes` bytes from the start of `src` (device to device).
  void copyFrom(const DeviceBuffer &src, size_t bytes);
};

} // namespace rt
} // namespace tile

#endif // TILE_RUNTIME_DEVICE_H
