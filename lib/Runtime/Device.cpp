//===- Device.cpp - Devices and device memory -----------------------------===//
//
// Destructors release through TILE_CU_QUIET and never throw.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"
#include "tile/Runtime/Device.h"
#include "tile/Runtime/Float.h"

#include <map>
#include <mutex>

using namespace tile::rt;
using namespace tile::rt::detail;

namespace {
/// The Devices open on each primary context: the embedded modules loaded in
/// one are unloaded when its last Device closes, not before (another
/// Device's launches still use them).
struct OpenDevices {
  std::mutex mutex;
  std::map<CUcontext, int> count;
};
OpenDevices &openDevices() {
  static OpenDevices *open = new OpenDevices;
  return *open;
}
} // namespace

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

Device Device::open(int ordinal) {
  int count = 0;
  TILE_CU(cuDeviceGetCount, &count);
  if (ordinal < 0 || ordinal >= count)
    throw Error("Device::open: no device with ordinal " +
                std::to_string(ordinal) + " (" + std::to_string(count) +
                " present)");
  Device device;
  device.ordinal_ = ordinal;
  TILE_CU(cuDeviceGet, &device.device_, ordinal);
  TILE_CU(cuDevicePrimaryCtxRetain, &device.context_, device.device_);
  {
    OpenDevices &open = openDevices();
    std::lock_guard<std::mutex> lock(open.mutex);
    ++open.count[device.context_];
  }
  // From here on `device` releases the context if anything throws.
  device.makeCurrent();
  return device;
}

Device::Device(Device &&other) noexcept
    : ordinal_(other.ordinal_), device_(other.device_),
      context_(other.context_) {
  other.context_ = nullptr;
}

Device &Device::operator=(Device &&other) noexcept {
  if (this != &other) {
    reset();
    ordinal_ = other.ordinal_;
    device_ = other.device_;
    context_ = other.context_;
    other.context_ = nullptr;
  }
  return *this;
}

Device::~Device() { reset(); }

void Device::reset() noexcept {
  if (!context_)
    return;
  bool last = false;
  {
    OpenDevices &open = openDevices();
    std::lock_guard<std::mutex> lock(open.mutex);
    last = --open.count[context_] <= 0;
    if (last)
      open.count.erase(context_);
  }
  if (last)
    detail::unloadEmbeddedModules(context_);
  TILE_CU_QUIET(cuDevicePrimaryCtxRelease, device_);
  context_ = nullptr;
}

void Device::makeCurrent() const { TILE_CU(cuCtxSetCurrent, context_); }

std::string Device::name() const {
  char buffer[256] = {};
  TILE_CU(cuDeviceGetName, buffer, int(sizeof(buffer) - 1), device_);
  return buffer;
}

int Device::attribute(CUdevice_attribute attr) const {
  int value = 0;
  TILE_CU_CTX("(attribute " + std::to_string(int(attr)) + ")",
              cuDeviceGetAttribute, &value, attr, device_);
  return value;
}

int Device::computeCapability() const {
  return attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) * 10 +
         attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
}

int Device::smCount() const {
  return attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
}

size_t Device::maxSharedPerBlockOptin() const {
  return size_t(
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
}

//===----------------------------------------------------------------------===//
// DeviceMemory
//===----------------------------------------------------------------------===//

DeviceMemory::DeviceMemory(DeviceMemory &&other) noexcept
    : allocator_(other.allocator_), ptr_(other.ptr_), bytes_(other.bytes_) {
  other.ptr_ = 0;
  other.bytes_ = 0;
}

DeviceMemory &DeviceMemory::operator=(DeviceMemory &&other) noexcept {
  if (this != &other) {
    reset();
    allocator_ = other.allocator_;
    ptr_ = other.ptr_;
    bytes_ = other.bytes_;
    other.ptr_ = 0;
    other.bytes_ = 0;
  }
  return *this;
}

DeviceMemory::~DeviceMemory() { reset(); }

void DeviceMemory::reset() noexcept {
  if (!ptr_)
    return;
  allocator_->release(ptr_);
  ptr_ = 0;
  bytes_ = 0;
}

std::string DeviceMemory::where(const char *method) const {
  return std::string(allocator_->name) + "::" + method;
}

static void checkTransfer(const std::string &where, const void *host,
                          size_t bytes, size_t capacity) {
  if (bytes > capacity)
    throw Error(where + ": " + std::to_string(bytes) +
                " bytes do not fit in a buffer of " + std::to_string(capacity) +
                " bytes");
  if (bytes && !host)
    throw Error(where + ": null host pointer");
}

void DeviceMemory::upload(const void *src, size_t bytes) {
  checkTransfer(where("upload"), src, bytes, bytes_);
  if (bytes)
    TILE_CU(cuMemcpyHtoD, ptr_, src, bytes);
}

void DeviceMemory::download(void *dst, size_t bytes, size_t offset) const {
  if (offset > bytes_)
    throw Error(where("download") + ": offset " + std::to_string(offset) +
                " is past the end of a buffer of " + std::to_string(bytes_) +
                " bytes");
  checkTransfer(where("download"), dst, bytes, bytes_ - offset);
  if (bytes)
    TILE_CU(cuMemcpyDtoH, dst, ptr_ + offset, bytes);
}

std::vector<float> DeviceMemory::downloadBf16(size_t count) const {
  if (count > bytes_ / 2)
    throw Error(where("downloadBf16") + ": " + std::to_string(count) +
                " bf16 elements do not fit in a buffer of " +
                std::to_string(bytes_) + " bytes");
  std::vector<uint16_t> bits(count);
  download(bits);
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = bf16ToFloat(bits[i]);
  return values;
}

void DeviceMemory::fillBytes(uint8_t value) {
  if (bytes_)
    TILE_CU(cuMemsetD8, ptr_, value, bytes_);
}

void DeviceMemory::fillWords(uint32_t value) {
  if (bytes_ % 4)
    throw Error(where("fillWords") + ": buffer size " +
                std::to_string(bytes_) + " is not a multiple of 4");
  if (bytes_)
    TILE_CU(cuMemsetD32, ptr_, value, bytes_ / 4);
}

//===----------------------------------------------------------------------===//
// DeviceBuffer
//===----------------------------------------------------------------------===//

static void releaseDeviceMemory(CUdeviceptr ptr) noexcept {
  TILE_CU_QUIET(cuMemFree, ptr);
}

static const DeviceMemory::Allocator kDeviceAllocator = {"DeviceBuffer",
                                                         releaseDeviceMemory};

DeviceBuffer::DeviceBuffer() : DeviceMemory(kDeviceAllocator) {}

DeviceBuffer::DeviceBuffer(size_t bytes) : DeviceMemory(kDeviceAllocator) {
  // cuMemAlloc rejects zero sizes; an empty buffer simply owns nothing.
  if (bytes == 0)
    return;
  CUdeviceptr ptr = 0;
  TILE_CU_CTX("(" + std::to_string(bytes) + " bytes)", cuMemAlloc, &ptr,
              bytes);
  adopt(ptr, bytes);
}

void DeviceBuffer::copyFrom(const DeviceBuffer &src, size_t bytes) {
  if (bytes > src.size() || bytes > size())
    throw Error("DeviceBuffer::copyFrom: cannot copy " + std::to_string(bytes) +
                " bytes from a buffer of " + std::to_string(src.size()) +
                " bytes into one of " + std::to_string(size()) + " bytes");
  if (bytes)
    TILE_CU(cuMemcpyDtoD, ptr(), src.ptr(), bytes);
}
