//===- KernelInfo.h - The kernel description ("kinfo") ----------*- C++ -*-===//
//
// What a compiled kernel needs from its host to be loaded and launched: block
// and cluster shape, dynamic shared memory, the TMA tensor maps it takes as
// extra parameters and the libraries its cubin must be linked with.
// tile-translate --kernel-info writes it (lib/Target) and the runtime reads
// it, both through this header, so the two cannot drift.
// It depends on neither MLIR (the runtime does not link it) nor CUDA (the
// compiler builds without it).
//
// Format, one record per line ('#' starts a comment):
//   kernel <name> block <x> <y> <z> cluster <x> <y> <z> smem <bytes>
//   tma <kernel> param <i> arg <j> type <elt> box <b0>x<b1>[x...]
//       swizzle <0|32|64|128>
//   link <kernel> nvshmem
//   launch <kernel> dependent           (it waits for the kernel before it
//                                        at its entry: a dependent launch)
//   launch <kernel> collective          (it calls NVSHMEM's synchronising
//                                        or collective device functions: a
//                                        collective launch)
//   params <kernel> <bytes>...
//   args <kernel> <name>:<type>...      (type: a scalar type, or
//                                        memref:<element type>:<rank>)
//   config <kernel> <family> <NAME>=<value>...  (an integer, or for an
//                                              element-type parameter a
//                                              type such as bf16)
//   grid <kernel> <x> <y> <z>           (grid expressions, see GridRule)
//   zero <kernel> <arg>...              (memref arguments the launcher
//                                        zeroes before each launch)
//   compiler tile <version>             (the tile that wrote it)
// tma, link, launch, params, args, config, grid and zero records may come
// before or after their kernel's record. args gives the kernel's arguments as written in
// the tile.kernel (names and types: the generated launchers' parameters);
// config the family and parameter values a specialised kernel was made
// from. A
// link record says that the cubin is relocatable (ptxas -c) and calls
// NVSHMEM's device functions: the runtime links it with NVSHMEM and
// initialises NVSHMEM before the module is used (Launch.h, Nvshmem.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_KERNELINFO_H
#define TILE_RUNTIME_KERNELINFO_H

#include "tile/Runtime/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tile {
namespace rt {

/// The words of the format, spelled once for the writer and the parser.
namespace kinfo {
/// The first line of every description the compiler writes.
inline constexpr char kHeader[] =
    "# tile kernel description: launch shape, shared memory, TMA maps";
inline constexpr char kComment = '#';
inline constexpr char kBoxSeparator = 'x';
// Records.
inline constexpr char kKernel[] = "kernel";
inline constexpr char kTma[] = "tma";
inline constexpr char kLink[] = "link";
inline constexpr char kParams[] = "params";
inline constexpr char kArgs[] = "args";
inline constexpr char kConfig[] = "config";
inline constexpr char kGrid[] = "grid";
inline constexpr char kZero[] = "zero";
inline constexpr char kLaunch[] = "launch";
inline constexpr char kCompiler[] = "compiler";
inline constexpr char kCompilerName[] = "tile";
// An args entry: <name>:<scalar type>, or <name>:memref:<element>:<rank>.
inline constexpr char kArgSeparator = ':';
inline constexpr char kMemref[] = "memref";
// A config entry: <NAME>=<value>.
inline constexpr char kValueSeparator = '=';
// Fields of a kernel record.
inline constexpr char kBlock[] = "block";
inline constexpr char kCluster[] = "cluster";
inline constexpr char kSmem[] = "smem";
// Fields of a tma record; also the keys of the compiler's tile.tma entries.
inline constexpr char kParam[] = "param";
inline constexpr char kArg[] = "arg";
inline constexpr char kType[] = "type";
inline constexpr char kBox[] = "box";
inline constexpr char kSwizzle[] = "swizzle";
// Libraries a link record names.
inline constexpr char kNvshmem[] = "nvshmem";
// What a launch record says: the kernel may be launched as a dependent
// launch (it waits for the kernel before it at its entry).
inline constexpr char kDependent[] = "dependent";
// ... or must be launched as NVSHMEM requires of kernels that synchronise
// PEs inside (every CTA resident at once, a cooperative launch).
inline constexpr char kCollective[] = "collective";
} // namespace kinfo

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

/// A kernel's grid rule, as tile-record-grid writes it: for x, y and z an
/// expression, without spaces, over what the host knows at launch:
///   <integer> | sms | arg(I) | dim(I,D) | OP(E,E)
/// `sms` is the device's SM count, `arg(I)` the value of integer argument
/// I, `dim(I,D)` size D of memref argument I, and OP one of add, sub, mul,
/// div, ceildiv, rem, min, max.
struct GridRule {
  std::string x = "1", y = "1", z = "1";
};

/// The values a grid rule reads at launch: per argument, a memref's sizes
/// (empty for a scalar) and a scalar's value (0 for a memref); the
/// device's SM count.
struct GridInputs {
  std::vector<std::vector<int64_t>> sizes;
  std::vector<int64_t> scalars;
  int64_t sms = 0;
};

struct TensorMapSpec {
  /// One of "bf16", "f16", "f32", "tf32", "f64", "i8", "u8", "i16", "u16",
  /// "i32", "u32", "i64", "u64".
  std::string elementType;
  /// Box (tile) shape, outermost dimension first as in MLIR memref shapes.
  std::vector<uint32_t> box;
  /// 0 (none), 32, 64 or 128.
  unsigned swizzleBytes = 0;
  /// Out-of-bounds elements read as zero; if false, floating-point types get
  /// the special NaN fill (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA).
  /// Not part of the kinfo format: descriptions always read back true.
  bool oobZeroFill = true;
};

/// An element type a tensor map can hold.
struct ElementTypeInfo {
  const char *name;
  unsigned bytes;
  bool isFloat;
};

/// The element type of that name, or nullptr.
const ElementTypeInfo *findElementType(const std::string &name);
/// The known names, comma-separated, for error messages.
std::string knownElementTypes();
/// Size in bytes of a TensorMapSpec element type; throws on unknown names.
unsigned elementTypeBytes(const std::string &elementType);

struct TmaInfo {
  /// Index of the CUtensorMap parameter of the compiled kernel.
  int param = 0;
  /// Index of the tile kernel argument the descriptor describes.
  int arg = 0;
  TensorMapSpec spec;
};

/// One argument of a tile.kernel as written: a global memref (element type
/// and rank) or a scalar. Types are MLIR's spellings: i1, i8, i16, i32,
/// i64, index, f16, bf16, f32, f64.
struct ArgInfo {
  std::string name;
  bool isMemRef = false;
  /// The scalar's type, or the memref's element type.
  std::string type;
  /// The memref's rank (0 for a scalar).
  unsigned rank = 0;
};

/// Why `expression` is not a grid expression over `args` (when known: an
/// arg() must name an integer scalar, a dim() a memref dimension), or
/// empty. The kinfo parser and the compiler's writer check with it.
std::string checkGridExpression(const std::string &expression,
                                const std::optional<std::vector<ArgInfo>> &args);

/// Whether `text` is a C identifier (letters, digits, '_', not starting
/// with a digit): what names in args and config records must be.
bool isIdentifier(const std::string &text);

/// The size in bytes a kernel parameter of scalar type `type` takes (an i1
/// travels as a byte, index as 64 bits); 0 for an unknown type.
unsigned scalarTypeBytes(const std::string &type);

struct KernelInfo {
  std::string name;
  Dim3 block, cluster;
  unsigned sharedBytes = 0;
  std::vector<TmaInfo> tmas;
  /// The kernel calls NVSHMEM device functions (a `link <name> nvshmem`
  /// record): its cubin is relocatable and must be linked with NVSHMEM's
  /// device library before it is loaded.
  bool linksNvshmem = false;
  /// The kernel waits at its entry for the kernel before it on the stream
  /// to finish (griddepcontrol.wait; a `launch <name> dependent` record),
  /// so that launch() may start it as a dependent launch, overlapping its
  /// launch with the end of that kernel.
  bool dependentLaunch = false;
  /// The kernel calls NVSHMEM's synchronising or collective device
  /// functions (barrier_all, signal_wait_until, ...; a `launch <name>
  /// collective` record), which NVSHMEM allows only in a collective launch
  /// (nvshmemx_collective_launch): launch() refuses a grid whose CTAs
  /// cannot all be resident at once and launches it cooperatively.
  bool collectiveLaunch = false;
  /// Each parameter's size in bytes, as the kernel declares it (a
  /// `params <name> <bytes>...` record; the expanded memrefs, scalars and
  /// the TMA tensor maps at the end): launchConfigFor passes them on and
  /// launch() checks the arguments against them. None when the
  /// description has no such record.
  std::optional<std::vector<uint32_t>> paramBytes;
  /// The tile.kernel's arguments (an args record; none in descriptions
  /// written before it existed).
  std::optional<std::vector<ArgInfo>> args;
  /// For a kernel that tile-specialize made from a family: the family and
  /// every parameter's value (a config record).
  std::string family;
  std::vector<std::pair<std::string, int64_t>> config;
  /// Its element-type parameters' values ("T", "bf16"), in the same record.
  std::vector<std::pair<std::string, std::string>> configTypes;
  /// The grid the kernel states (its tile.grid; a grid record): for x, y
  /// and z an expression evaluateGrid computes at launch.
  std::optional<GridRule> grid;
  /// The memref arguments (by index, ascending) that a launch zeroes on its
  /// stream before the kernel runs (tile.zero_before_launch; a zero
  /// record): BoundLaunch does it.
  std::vector<unsigned> zeroedArgs;
};

/// The value of one host expression (the grid rule's notation) over
/// `inputs`, its arguments checked against `args` when known. Throws Error
/// saying what is wrong with it.
int64_t evaluateHostExpression(const std::string &expression,
                               const std::optional<std::vector<ArgInfo>> &args,
                               const GridInputs &inputs);

/// The grid `info`'s rule gives for `inputs`. Throws Error naming the
/// kernel when it has no rule, or on an overflow, a division by zero, a
/// negative value, an argument the rule reads that `inputs` lacks, or a
/// dimension outside CUDA's limits (x in [1, 2^31 - 1], y and z in
/// [1, 65535]).
Dim3 evaluateGrid(const KernelInfo &info, const GridInputs &inputs);

/// True if any kernel of `infos` needs NVSHMEM (the module holding them is
/// then linked with it: Module::loadCubinFile(path, infos)).
bool needsNvshmem(const std::vector<KernelInfo> &infos);
/// The first kernel of `infos` that needs NVSHMEM, or null.
const KernelInfo *firstNeedingNvshmem(const std::vector<KernelInfo> &infos);

/// Writes the kinfo text of `kernels`: kinfo::kHeader, then each kernel's
/// record followed by its tma records in order, if linksNvshmem is set its
/// link record, and if paramBytes is set its params record. Does not
/// validate: values that parseKernelInfo rejects are written as given.
std::string serializeKernelInfo(const std::vector<KernelInfo> &kernels);

/// The version of tile that wrote kinfo `text` (its compiler record), or ""
/// when it has none (written before descriptions carried one).
std::string kernelInfoWriter(const std::string &text);

/// Parses kinfo text (tma, link and params records may come before their
/// kernel).
/// Malformed input throws Error("kinfo:<line>: <problem>"), followed by the
/// version of tile that wrote it and this runtime's, so that a description
/// from another release says so.
std::vector<KernelInfo> parseKernelInfo(const std::string &text);
/// Reads and parses a kinfo file; errors are prefixed with the path.
std::vector<KernelInfo> loadKernelInfo(const std::string &path);
/// Throws if no kernel of that name is listed.
const KernelInfo &findKernel(const std::vector<KernelInfo> &infos,
                             const std::string &name);
/// Same; spares GCC 13+ a -Wdangling-reference false positive when the name
/// is a string literal.
const KernelInfo &findKernel(const std::vector<KernelInfo> &infos,
                             const char *name);

} // namespace rt
} // namespace tile

#endif // TILE_RUNTIME_KERNELINFO_H
