//===- NvshmemLink.cpp - Linking kernels with NVSHMEM ---------------------===//
//
// A kernel compiled by tile calls NVSHMEM's device functions (nvshmem_my_pe,
// nvshmemx_putmem_signal_nbi_block, ...) as external functions, so its cubin
// is relocatable. NVSHMEM ships those functions as header code only: its
// device library libnvshmem_device.a defines NVSHMEM's device state and
// internal helpers, not the public functions (nvcc users inline them from
// the headers). So at load time the runtime
//  1. lists the nvshmem* functions the cubin leaves undefined (its ELF
//     symbol table),
//  2. compiles, with NVRTC, a small translation unit that includes NVSHMEM's
//     headers and takes the address of each, which makes NVRTC emit them as
//     out-of-line (weak) functions; their internal helpers are inlined too
//     (NVSHMEM_ENABLE_ALL_DEVICE_INLINING, as in NVSHMEM's own bitcode
//     library) so that nothing depends on how nvcc mangled the archive's
//     templates,
//  3. links the cubin, that object and libnvshmem_device.a (for the device
//     state) with the driver's linker for the current context's device.
// NVRTC (libnvrtc.so.13 or .12) and CUDA's headers are found in the CUDA
// toolkits tile's one search order gives (include/tile/Toolchain), then the
// Python packages beside NVSHMEM's and the dynamic loader's path. Each set
// of functions is compiled once per process, and once for all processes
// where the disk cache (DiskCache.h) can keep it.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"
#include "NvshmemApi.h"
#include "tile/Runtime/DiskCache.h"
#include "tile/Runtime/Driver.h"
#include "tile/Runtime/Nvshmem.h"
#include "tile/Toolchain/Toolchain.h"

#include <dlfcn.h>
#include <elf.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

using namespace tile::rt;
namespace toolchain = tile::toolchain;
using namespace tile::rt::detail;

namespace {

//===----------------------------------------------------------------------===//
// What the kernel calls
//===----------------------------------------------------------------------===//

bool isIdentifier(const std::string &name) {
  return !name.empty() &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9') || c == '_';
         });
}

bool isNvshmemName(const std::string &name) {
  return name.rfind("nvshmem", 0) == 0 && isIdentifier(name);
}

/// Undefined global functions of a 64-bit ELF (cubin), bounds-checked: a
/// damaged image yields what could be read.
void undefinedElfFunctions(const unsigned char *data, size_t bytes,
                           std::vector<std::string> &names) {
  if (bytes < sizeof(Elf64_Ehdr) || data[EI_CLASS] != ELFCLASS64)
    return;
  Elf64_Ehdr header;
  std::memcpy(&header, data, sizeof(header));
  if (header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shoff > bytes ||
      (bytes - header.e_shoff) / sizeof(Elf64_Shdr) < header.e_shnum)
    return;
  auto section = [&](size_t i) {
    Elf64_Shdr shdr;
    std::memcpy(&shdr, data + header.e_shoff + i * sizeof(Elf64_Shdr),
                sizeof(shdr));
    return shdr;
  };
  auto inBounds = [&](const Elf64_Shdr &s) {
    return s.sh_offset <= bytes && s.sh_size <= bytes - s.sh_offset;
  };
  for (size_t i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr symtab = section(i);
    if (symtab.sh_type != SHT_SYMTAB || symtab.sh_link >= header.e_shnum ||
        symtab.sh_entsize != sizeof(Elf64_Sym) || !inBounds(symtab))
      continue;
    Elf64_Shdr strtab = section(symtab.sh_link);
    if (!inBounds(strtab))
      continue;
    const char *strings = reinterpret_cast<const char *>(data) +
                          strtab.sh_offset;
    for (size_t j = 0; j < symtab.sh_size / sizeof(Elf64_Sym); ++j) {
      Elf64_Sym sym;
      std::memcpy(&sym, data + symtab.sh_offset + j * sizeof(Elf64_Sym),
                  sizeof(sym));
      if (sym.st_shndx != SHN_UNDEF ||
          ELF64_ST_BIND(sym.st_info) != STB_GLOBAL ||
          ELF64_ST_TYPE(sym.st_info) != STT_FUNC ||
          sym.st_name >= strtab.sh_size)
        continue;
      const char *name = strings + sym.st_name;
      size_t length = strnlen(name, strtab.sh_size - sym.st_name);
      names.emplace_back(name, length);
    }
  }
}

/// `.extern .func ... nvshmem_x` declarations of PTX text.
void externPtxFunctions(const char *text, size_t bytes,
                        std::vector<std::string> &names) {
  std::istringstream stream(std::string(text, strnlen(text, bytes)));
  std::string line;
  while (std::getline(stream, line)) {
    if (line.find(".extern") == std::string::npos ||
        line.find(".func") == std::string::npos)
      continue;
    std::istringstream tokens(line);
    std::string token;
    while (tokens >> token) {
      token = token.substr(0, token.find_first_of("(;"));
      if (isNvshmemName(token))
        names.push_back(token);
    }
  }
}

//===----------------------------------------------------------------------===//
// NVRTC and CUDA's headers
//===----------------------------------------------------------------------===//

// The part of NVRTC's C API used here (nvrtc.h of CUDA 12 and 13), declared
// so that building tile needs no nvrtc.h. nvrtcResult is an int-sized enum,
// NVRTC_SUCCESS being 0.
using NvrtcProgram = struct NvrtcProgramImpl *;
#define TILE_NVRTC_FUNCTIONS(X)                                                \
  X(nvrtcGetErrorString, const char *(*)(int))                                 \
  X(nvrtcVersion, int (*)(int *, int *))                                       \
  X(nvrtcCreateProgram,                                                        \
    int (*)(NvrtcProgram *, const char *, const char *, int,                   \
            const char *const *, const char *const *))                         \
  X(nvrtcDestroyProgram, int (*)(NvrtcProgram *))                              \
  X(nvrtcCompileProgram, int (*)(NvrtcProgram, int, const char *const *))      \
  X(nvrtcGetProgramLogSize, int (*)(NvrtcProgram, size_t *))                   \
  X(nvrtcGetProgramLog, int (*)(NvrtcProgram, char *))                         \
  X(nvrtcGetCUBINSize, int (*)(NvrtcProgram, size_t *))                        \
  X(nvrtcGetCUBIN, int (*)(NvrtcProgram, char *))

struct Nvrtc {
  // Empty when loaded; otherwise why not.
  std::string failure;
  std::string path;
#define TILE_DECLARE_NVRTC_FN(name, type) NvshmemFn<type> name = nullptr;
  TILE_NVRTC_FUNCTIONS(TILE_DECLARE_NVRTC_FN)
#undef TILE_DECLARE_NVRTC_FN
};

/// Where the Python package of NVSHMEM lies among NVIDIA's others
/// (site-packages/nvidia/nvshmem/lib): their parent, or "".
std::string pythonNvidiaRoot() {
  std::string dir = nvshmemInstall().libraryDir;
  const std::string tail = "/nvidia/nvshmem/lib";
  if (dir.size() < tail.size() ||
      dir.compare(dir.size() - tail.size(), tail.size(), tail) != 0)
    return "";
  return dir.substr(0, dir.size() - tail.size()) + "/nvidia";
}

Nvrtc loadNvrtc() {
  Nvrtc nvrtc;
  std::vector<std::string> candidates =
      toolchain::nvrtcCandidates(pythonNvidiaRoot());

  for (const std::string &candidate : candidates) {
    if (candidate.find('/') != std::string::npos && !isRegularFile(candidate))
      continue;
    void *lib = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      continue;
    nvrtc.path = candidate;
#define TILE_LOOKUP_NVRTC_FN(name, type)                                       \
  nvrtc.name = reinterpret_cast<NvshmemFn<type>>(dlsym(lib, #name));           \
  if (!nvrtc.name) {                                                           \
    nvrtc.failure = candidate + " does not export " #name;                     \
    return nvrtc;                                                              \
  }
    TILE_NVRTC_FUNCTIONS(TILE_LOOKUP_NVRTC_FN)
#undef TILE_LOOKUP_NVRTC_FN
    return nvrtc;
  }
  nvrtc.failure = "no NVRTC (libnvrtc.so.13 or .12) in " +
                  toolchain::describeCudaSearch() +
                  ", the Python packages beside NVSHMEM's or the dynamic "
                  "loader's path: install the CUDA toolkit or pip install "
                  "nvidia-cuda-nvrtc";
  return nvrtc;
}

const Nvrtc &nvrtc() {
  static const Nvrtc loaded = loadNvrtc();
  return loaded;
}

/// The include folders NVSHMEM's device headers need under NVRTC: one with
/// cuda_runtime.h and one with libcu++ (cuda/std/...). Throws if missing.
std::vector<std::string> cudaIncludeDirs() {
  std::vector<std::string> roots;
  for (const std::string &root : toolchain::cudaRoots())
    roots.push_back(root + "/include");
  if (std::string nvidia = pythonNvidiaRoot(); !nvidia.empty()) {
    roots.push_back(nvidia + "/cu13/include");
    roots.push_back(nvidia + "/cuda_runtime/include");
  }
  std::string runtime, cccl;
  for (const std::string &dir : roots) {
    if (runtime.empty() && isRegularFile(dir + "/cuda_runtime.h"))
      runtime = dir;
    for (const std::string &sub : {dir + "/cccl", dir})
      if (cccl.empty() && isRegularFile(sub + "/cuda/std/cstdint"))
        cccl = sub;
  }
  if (runtime.empty() || cccl.empty())
    throw Error(std::string("compiling NVSHMEM's device functions needs "
                            "CUDA's headers (") +
                (runtime.empty() ? "cuda_runtime.h" : "") +
                (runtime.empty() && cccl.empty() ? " and " : "") +
                (cccl.empty() ? "cuda/std/cstdint" : "") +
                "), found in none of " + toolchain::describeCudaSearch() +
                " or the Python packages beside NVSHMEM's: install the CUDA "
                "toolkit or set CUDA_HOME");
  return runtime == cccl ? std::vector<std::string>{runtime}
                         : std::vector<std::string>{runtime, cccl};
}

/// NVSHMEM's functions that its headers define `static` (the device
/// barriers: NVSHMEMI_STATIC in device/nvshmemx_coll_defines.cuh), whose
/// address would give a local copy, not the external definition a kernel's
/// call needs: the unit renames NVSHMEM's definition and defines the name
/// itself, with C linkage, around it. Each with its signature.
struct StaticFunction {
  const char *name, *result, *parameters, *arguments;
};
constexpr StaticFunction kStaticFunctions[] = {
    // tile.barrier_all level world.
    {"nvshmemx_barrier_all_block", "void", "()", "()"},
};

const StaticFunction *staticFunction(const std::string &name) {
  for (const StaticFunction &function : kStaticFunctions)
    if (name == function.name)
      return &function;
  return nullptr;
}

/// The translation unit that makes NVRTC emit `names`.
std::string deviceFunctionsSource(const std::vector<std::string> &names) {
  std::string renames;
  for (const std::string &name : names)
    if (staticFunction(name))
      renames += "#define " + name + " tile_nvshmem_static_" + name + "\n";
  std::string source =
      renames +
      // Inline NVSHMEM's transfer helpers instead of calling the archive's
      // (whose template names depend on nvcc's uint64_t), without the
      // InfiniBand (IBGDA) transport, whose headers are rdma-core's: as
      // NVSHMEM builds its own bitcode library.
      "#include <non_abi/nvshmem_build_options.h>\n"
      "#undef NVSHMEM_IBGDA_SUPPORT\n"
      "#undef NVSHMEM_IBGDA_SUPPORT_GPUMEM_ONLY\n"
      "#ifndef NVSHMEM_ENABLE_ALL_DEVICE_INLINING\n"
      "#define NVSHMEM_ENABLE_ALL_DEVICE_INLINING\n"
      "#endif\n"
      // NVSHMEM 3.4's collectives use std:: traits NVRTC lacks.
      "#include <cuda/std/type_traits>\n"
      "namespace std {\n"
      "using cuda::std::is_integral;\n"
      "using cuda::std::is_signed;\n"
      "using cuda::std::is_unsigned;\n"
      "}\n"
      "#include <nvshmem.h>\n"
      "#include <nvshmemx.h>\n"
      // Taking each function's address makes it an out-of-line definition
      // the kernel's calls link against.
      ;
  for (size_t i = 0; i < names.size(); ++i) {
    if (const StaticFunction *function = staticFunction(names[i])) {
      source += std::string("#undef ") + function->name + "\n" +
                "extern \"C\" __device__ " + function->result + " " +
                function->name + function->parameters + " { return " +
                "tile_nvshmem_static_" + function->name + function->arguments +
                "; }\n";
      continue;
    }
    source += "__device__ decltype(&" + names[i] + ") tile_nvshmem_export_" +
              std::to_string(i) + " = &" + names[i] + ";\n";
  }
  return source;
}

/// What identifies the installed NVSHMEM for the disk cache: its version
/// header, and the size and time of its device library (the functions
/// must match the library they are linked with).
std::string nvshmemVersionText(const NvshmemInstall &install) {
  std::string text;
  std::ifstream header(install.includeDir + "/non_abi/nvshmem_version.h");
  if (header) {
    std::ostringstream contents;
    contents << header.rdbuf();
    text = contents.str();
  }
  struct stat library;
  if (::stat(install.deviceLibrary.c_str(), &library) == 0)
    text += "\n" + install.deviceLibrary + " " +
            std::to_string(library.st_size) + " " +
            std::to_string(library.st_mtime);
  return text;
}

/// The functions compiled for `arch`, as a relocatable cubin: from the disk
/// cache when an intact entry has the same key, else by NVRTC (then
/// stored).
std::string compileDeviceFunctions(const std::vector<std::string> &names,
                                   const std::string &arch) {
  const NvshmemInstall &install = nvshmemInstall();
  std::string list;
  for (const std::string &name : names)
    list += (list.empty() ? "" : ", ") + name;
  std::string context = "the kernel calls " + list +
                        ", which the runtime compiles from NVSHMEM's headers";
  if (install.includeDir.empty())
    throw Error(context + ", but " + install.libraryDir +
                "/../include/nvshmem.h is missing: reinstall NVSHMEM with its "
                "headers (pip install nvidia-nvshmem-cu13 has them)");
  const Nvrtc &rtc = nvrtc();
  if (!rtc.failure.empty())
    throw Error(context + " with NVRTC: " + rtc.failure);
  std::vector<std::string> options = {"-rdc=true", "-arch=" + arch,
                                      "-std=c++17", "-default-device",
                                      "-I" + install.includeDir};
  for (const std::string &dir : cudaIncludeDirs())
    options.push_back("-I" + dir);
  int major = 0, minor = 0;
  rtc.nvrtcVersion(&major, &minor);
  std::string key = detail::nvshmemFunctionsKey(
      names, options,
      rtc.path + " " + std::to_string(major) + "." + std::to_string(minor),
      nvshmemVersionText(install));
  DiskCache disk(DiskCache::defaultFolder());
  if (std::optional<std::string> cubin = disk.load("nvshmem-functions", key))
    return *cubin;
  std::vector<const char *> optionPointers;
  for (const std::string &option : options)
    optionPointers.push_back(option.c_str());

  std::string source = deviceFunctionsSource(names);
  NvrtcProgram program = nullptr;
  if (int r = rtc.nvrtcCreateProgram(&program, source.c_str(),
                                     "tile_nvshmem_functions.cu", 0, nullptr,
                                     nullptr))
    throw Error(context + ": nvrtcCreateProgram failed: " +
                rtc.nvrtcGetErrorString(r));
  struct Destroy {
    const Nvrtc &rtc;
    NvrtcProgram &program;
    ~Destroy() { rtc.nvrtcDestroyProgram(&program); }
  } destroy{rtc, program};

  int result = rtc.nvrtcCompileProgram(program, int(optionPointers.size()),
                                       optionPointers.data());
  if (result) {
    size_t logBytes = 0;
    std::string log;
    if (!rtc.nvrtcGetProgramLogSize(program, &logBytes) && logBytes) {
      log.resize(logBytes);
      rtc.nvrtcGetProgramLog(program, log.data());
      log.resize(strnlen(log.data(), log.size()));
    }
    // The first errors say what is wrong (often a function NVSHMEM's
    // headers do not declare); the rest follow from them.
    if (log.size() > 4000)
      log = log.substr(0, 4000) + "\n...";
    throw Error(context + ": NVRTC (" + rtc.path + ", " + arch + ") failed: " +
                rtc.nvrtcGetErrorString(result) + "\n" + log);
  }
  size_t cubinBytes = 0;
  std::string cubin;
  if (!rtc.nvrtcGetCUBINSize(program, &cubinBytes) && cubinBytes) {
    cubin.resize(cubinBytes);
    if (rtc.nvrtcGetCUBIN(program, cubin.data()))
      cubin.clear();
  }
  if (cubin.empty())
    throw Error(context + ": NVRTC (" + rtc.path + ") returned no cubin for " +
                arch);
  disk.store("nvshmem-functions", key, cubin);
  return cubin;
}

} // namespace

std::string tile::rt::detail::nvshmemFunctionsKey(
    const std::vector<std::string> &names,
    const std::vector<std::string> &options, const std::string &nvrtcVersion,
    const std::string &nvshmemVersion) {
  std::string key = "nvshmem device functions\nnvrtc " + nvrtcVersion +
                    "\nnvshmem " + nvshmemVersion + "\noptions";
  for (const std::string &option : options)
    key += " " + option;
  return key + "\nsource\n" + deviceFunctionsSource(names);
}

const std::string &
tile::rt::detail::nvshmemDeviceFunctions(const std::vector<std::string> &names,
                                         const std::string &arch) {
  static std::mutex mutex;
  static std::map<std::string, std::string> cache;
  std::string key = arch;
  for (const std::string &name : names)
    key += " " + name;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, compileDeviceFunctions(names, arch)).first;
  return it->second;
}

namespace {

//===----------------------------------------------------------------------===//
// The link
//===----------------------------------------------------------------------===//

/// Link options: the logs, returned in the errors.
struct LinkLogs {
  static constexpr size_t kBytes = 16384;
  char error[kBytes] = {};
  char info[kBytes] = {};
  CUjit_option options[4] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[4] = {error, reinterpret_cast<void *>(uintptr_t(kBytes)), info,
                     reinterpret_cast<void *>(uintptr_t(kBytes))};

  std::string text() const {
    std::string log = std::string(error) + std::string(info);
    while (!log.empty() && log.back() == '\n')
      log.pop_back();
    return log.empty() ? "" : "; the linker said:\n" + log;
  }
};

/// The link input type of a kernel image, from its first bytes.
CUjitInputType imageType(const void *image, size_t bytes) {
  const auto *b = static_cast<const unsigned char *>(image);
  if (bytes >= 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F')
    return CU_JIT_INPUT_CUBIN;
  // Fatbin magic 0xBA55ED50, little endian.
  if (bytes >= 4 && b[0] == 0x50 && b[1] == 0xed && b[2] == 0x55 &&
      b[3] == 0xba)
    return CU_JIT_INPUT_FATBINARY;
  return CU_JIT_INPUT_PTX;
}

} // namespace

std::vector<std::string>
tile::rt::detail::undefinedNvshmemFunctions(const void *image, size_t bytes) {
  std::vector<std::string> names;
  if (!image)
    return names;
  const auto *data = static_cast<const unsigned char *>(image);
  if (imageType(image, bytes) == CU_JIT_INPUT_CUBIN)
    undefinedElfFunctions(data, bytes, names);
  else if (imageType(image, bytes) == CU_JIT_INPUT_PTX)
    externPtxFunctions(static_cast<const char *>(image), bytes, names);
  names.erase(std::remove_if(names.begin(), names.end(),
                             [](const std::string &name) {
                               return !isNvshmemName(name);
                             }),
              names.end());
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::string tile::rt::detail::linkWithNvshmem(const void *image,
                                              size_t bytes) {
  const NvshmemInstall &install = nvshmemInstall();
  std::vector<std::string> calls = undefinedNvshmemFunctions(image, bytes);
  const std::string *functions =
      calls.empty() ? nullptr : &nvshmemDeviceFunctions(
                         calls, detail::chipName(detail::currentComputeCapability()));

  // The target is the current context's device (the linker's default).
  LinkLogs logs;
  CUlinkState link = nullptr;
  TILE_CU(cuLinkCreate, 4, logs.options, logs.values, &link);
  struct Destroy {
    CUlinkState link;
    ~Destroy() { TILE_CU_QUIET(cuLinkDestroy, link); }
  } destroy{link};

  const DriverApi &driver = api("cuLinkAddData");
  auto addData = require(driver.cuLinkAddData, "cuLinkAddData",
                         TILE_STRINGIFY(cuLinkAddData));
  CUresult result =
      addData(link, imageType(image, bytes), const_cast<void *>(image), bytes,
              "tile kernel", 0, nullptr, nullptr);
  if (result != CUDA_SUCCESS)
    throw Error(formatError("cuLinkAddData", result) +
                " adding the kernel image" + logs.text());
  if (functions) {
    result = addData(link, CU_JIT_INPUT_CUBIN,
                     const_cast<char *>(functions->data()), functions->size(),
                     "NVSHMEM device functions", 0, nullptr, nullptr);
    if (result != CUDA_SUCCESS)
      throw Error(formatError("cuLinkAddData", result) +
                  " adding NVSHMEM's device functions (compiled by NVRTC)" +
                  logs.text());
  }
  result = require(driver.cuLinkAddFile, "cuLinkAddFile",
                   TILE_STRINGIFY(cuLinkAddFile))(
      link, CU_JIT_INPUT_LIBRARY, install.deviceLibrary.c_str(), 0, nullptr,
      nullptr);
  if (result != CUDA_SUCCESS)
    throw Error(formatError("cuLinkAddFile", result) + " adding " +
                install.deviceLibrary + logs.text());
  void *linked = nullptr;
  size_t linkedBytes = 0;
  result = require(driver.cuLinkComplete, "cuLinkComplete",
                   TILE_STRINGIFY(cuLinkComplete))(link, &linked,
                                                   &linkedBytes);
  if (result != CUDA_SUCCESS)
    throw Error(formatError("cuLinkComplete", result) +
                " linking the kernel with " + install.deviceLibrary +
                logs.text());
  // The linked image belongs to the link state.
  return std::string(static_cast<const char *>(linked), linkedBytes);
}
