//===- tile-tune.cpp - tuning a kernel family ahead of time ---------------===//
//
// tile-tune compiles the candidate configurations of a kernel family (a
// search space file: variants x configurations x sweeps), runs each on the
// GPU at every problem shape, checks it against the reference, times the
// survivors interleaved with the reference and writes a tuning table
// (include/tile/Runtime/Tuning.h) and a plot. tile-translate
// --tuning-table then compiles the table into the family's launcher, whose
// <family>_tuned() dispatches by shape.
//
//   tile-tune compile FAMILY.mlir --space SPACE -o DIR [--chip C]
//                     [--tile-translate PATH]
//   tile-tune measure DIR [--shapes SHAPES] [--table FILE] [--svg FILE]
//                     [--check-only: run and check each candidate once,
//                      time nothing, write no table (for the sanitizers)]
//   tile-tune run FAMILY.mlir --space SPACE -o DIR [--shapes SHAPES] ...
//
// `compile` needs the compiler (tile-translate), `measure` a GPU and the
// reference's library, `run` both: on a machine with only one, compile
// there and carry DIR. The problems it knows (the reference each is
// checked and timed against) are listed in problemFor().
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Float.h"
#include "tile/Runtime/Launcher.h"
#include "tile/Runtime/Runtime.h"
#include "tile/Runtime/Tuning.h"
#include "tile/Version.h"

#include <cublas_v2.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tile;

namespace {

[[noreturn]] void usage(const std::string &why) {
  std::fprintf(
      stderr,
      "tile-tune: %s\n"
      "usage:\n"
      "  tile-tune compile FAMILY.mlir --space SPACE -o DIR [--chip CHIP]\n"
      "                    [--tile-translate PATH]\n"
      "  tile-tune measure DIR [--shapes SHAPES] [--table FILE] [--svg FILE]\n"
      "                    [--check-only]\n"
      "  tile-tune run FAMILY.mlir --space SPACE -o DIR [--shapes SHAPES]\n"
      "                [--table FILE] [--svg FILE]\n"
      "SHAPES: a shape file (lines 'M N K  # what') or MxNxK,...; every\n"
      "variant's shapes (default: each variant's file in the space)\n",
      why.c_str());
  std::exit(2);
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw rt::Error(path + ": cannot read it");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeFile(const std::string &path, const std::string &text) {
  // Written whole or not at all: a partial table must not be compiled.
  std::string temporary = path + ".partial";
  bool written;
  {
    std::ofstream out(temporary, std::ios::binary);
    out << text;
    written = bool(out.flush());
  }
  if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw rt::Error(path + ": cannot write it");
  }
}

/// Fails now, before any GPU time is spent, when `path` cannot be written
/// (its folder missing, say); leaves no file behind.
void checkWritable(const std::string &path) {
  std::string probe = path + ".partial";
  {
    std::ofstream out(probe, std::ios::binary);
    if (!out)
      throw rt::Error(path + ": cannot write it (does its folder exist?)");
  }
  std::remove(probe.c_str());
}

//===----------------------------------------------------------------------===//
// The search space
//===----------------------------------------------------------------------===//

/// A search space file:
///   family NAME
///   variant NAME=V,... [SHAPES]  (the values that change what is
///                                 computed, '-' for none;
///                                 measured at SHAPES, a shape
///                                 file beside the space, else --shapes)
///   config NAME=V,...            (a configuration to try)
///   sweep NAME=V1|V2|...         (every config at each of these values)
/// The candidates are every variant x config x sweep value combination.
struct Space {
  std::string family;
  std::vector<rt::ParamValues> variants, configs;
  std::vector<std::string> variantShapes; // a path, or empty
  std::vector<std::pair<std::string, std::vector<std::string>>> sweeps;
};

Space parseSpace(const std::string &path) {
  Space space;
  std::string folder = path.substr(0, path.rfind('/') + 1);
  std::istringstream lines(readFile(path));
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream in(line);
    std::string record, value, shapes, extra;
    if (!(in >> record))
      continue;
    auto fail = [&](const std::string &why) {
      throw rt::Error(path + ":" + std::to_string(number) + ": " + why);
    };
    if (!(in >> value) || (in >> shapes && record != "variant") ||
        in >> extra)
      fail("expected '" + record + " VALUE" +
           (record == "variant" ? " [SHAPES]" : "") +
           "' (no spaces in the value)");
    try {
      if (record == "family")
        space.family = value;
      else if (record == "variant") {
        space.variants.push_back(value == "-" ? rt::ParamValues{}
                                              : rt::parseParamValues(value));
        space.variantShapes.push_back(shapes.empty() ? "" : folder + shapes);
      } else if (record == "config")
        space.configs.push_back(rt::parseParamValues(value));
      else if (record == "sweep") {
        rt::ParamValues one = rt::parseParamValues(value, ';');
        if (one.size() != 1)
          fail("a sweep is NAME=V1|V2|...");
        std::vector<std::string> values;
        std::stringstream list(one[0].value);
        std::string v;
        while (std::getline(list, v, '|'))
          values.push_back(v);
        space.sweeps.emplace_back(one[0].name, values);
      } else
        fail("unknown record '" + record +
             "' (family, variant, config, sweep)");
    } catch (const rt::Error &e) {
      if (std::string(e.what()).rfind(path, 0) == 0)
        throw;
      fail(e.what());
    }
  }
  if (space.family.empty() || space.variants.empty() || space.configs.empty())
    throw rt::Error(path + ": a space names its family and at least one "
                           "variant and one config");
  return space;
}

/// Every candidate: variant values first, then the configuration's.
std::vector<rt::ParamValues> candidates(const Space &space) {
  std::vector<rt::ParamValues> swept = space.configs;
  for (const auto &[name, values] : space.sweeps) {
    std::vector<rt::ParamValues> next;
    for (const rt::ParamValues &config : swept)
      for (const std::string &value : values) {
        rt::ParamValues one;
        for (const rt::ParamValue &v : config)
          if (v.name != name)
            one.push_back(v);
        one.emplace_back(name, value);
        next.push_back(one);
      }
    swept = next;
  }
  std::vector<rt::ParamValues> all;
  for (const rt::ParamValues &variant : space.variants)
    for (const rt::ParamValues &config : swept) {
      rt::ParamValues values = variant;
      for (const rt::ParamValue &v : config)
        if (std::none_of(variant.begin(), variant.end(),
                         [&](const rt::ParamValue &f) {
                           return f.name == v.name;
                         }))
          values.push_back(v);
      if (std::find(all.begin(), all.end(), values) == all.end())
        all.push_back(values);
    }
  return all;
}

//===----------------------------------------------------------------------===//
// compile
//===----------------------------------------------------------------------===//

/// tile-translate: --tile-translate, else $TILE_TRANSLATE, else beside this
/// program, else on PATH.
std::string findTranslate(const std::string &given, const char *argv0) {
  if (!given.empty())
    return given;
  if (const char *env = std::getenv("TILE_TRANSLATE"))
    return env;
  std::string self = argv0;
  size_t slash = self.rfind('/');
  if (slash != std::string::npos) {
    std::string beside = self.substr(0, slash + 1) + "tile-translate";
    if (access(beside.c_str(), X_OK) == 0)
      return beside;
  }
  return "tile-translate";
}

/// Starts `argv` with its output to `log`; its process id.
pid_t startLogged(const std::vector<std::string> &argv,
                  const std::string &log) {
  pid_t pid = fork();
  if (pid < 0)
    throw rt::Error("cannot start " + argv[0]);
  if (pid == 0) {
    FILE *out = std::fopen(log.c_str(), "w");
    if (out) {
      dup2(fileno(out), 1);
      dup2(fileno(out), 2);
    }
    std::vector<char *> args;
    for (const std::string &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "tile-tune: cannot run %s\n", argv[0].c_str());
    _exit(127);
  }
  return pid;
}

int waitExit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/// tile-translate compiling the configurations in `configs` (a
/// --tile-configs file) into `out`.cubin and `out`.kinfo.
std::vector<std::string> translateCommand(const std::string &translate,
                                          const std::string &source,
                                          const std::string &chip,
                                          const std::string &configs,
                                          const std::string &out) {
  return {translate, "--tile-to-cubin", source, "--chip=" + chip,
          "--tile-configs=" + configs, "--skip-failing-configs",
          "--max-spill-bytes=0", "--kernel-info=" + out + ".kinfo", "-o",
          out + ".cubin"};
}

/// The candidates that compile alone, each in its own tile-translate, as
/// many at once as the machine has cores: what remains when one fails in a
/// later stage than those --skip-failing-configs leaves out.
std::vector<rt::ParamValues>
compilingAlone(const std::vector<rt::ParamValues> &all,
               const std::string &family, const std::string &translate,
               const std::string &source, const std::string &chip,
               const std::string &dir) {
  size_t jobs = std::max<long>(1, sysconf(_SC_NPROCESSORS_ONLN));
  std::vector<rt::ParamValues> kept;
  std::vector<std::pair<pid_t, size_t>> running;
  auto finish = [&](std::pair<pid_t, size_t> job) {
    std::string probe = dir + "/probe" + std::to_string(job.second);
    if (waitExit(job.first) == 0) {
      kept.push_back(all[job.second]);
    } else {
      std::string log = readFile(probe + ".log");
      size_t at = log.find("error: ");
      std::printf("  dropped %s: %s\n",
                  rt::formatParamValues(all[job.second]).c_str(),
                  at == std::string::npos
                      ? "tile-translate failed"
                      : log.substr(at + 7, log.find('\n', at) - at - 7)
                            .c_str());
    }
    for (const char *ext : {".configs", ".log", ".cubin", ".kinfo"})
      std::remove((probe + ext).c_str());
  };
  for (size_t i = 0; i < all.size(); ++i) {
    if (running.size() == jobs) {
      finish(running.front());
      running.erase(running.begin());
    }
    std::string probe = dir + "/probe" + std::to_string(i);
    writeFile(probe + ".configs",
              family + " " + rt::formatParamValues(all[i]) + "\n");
    std::vector<std::string> argv = translateCommand(
        translate, source, chip, probe + ".configs", probe);
    argv.insert(argv.begin() + 1,
                {"--codegen-threads=1", "--ptxas-threads=1"});
    running.emplace_back(startLogged(argv, probe + ".log"), i);
  }
  for (const auto &job : running)
    finish(job);
  // In the order of the space, as the batch would have them.
  std::vector<rt::ParamValues> ordered;
  for (const rt::ParamValues &c : all)
    if (std::find(kept.begin(), kept.end(), c) != kept.end())
      ordered.push_back(c);
  return ordered;
}

int compile(const std::string &source, const std::string &spacePath,
            const std::string &dir, const std::string &chip,
            const std::string &translate) {
  Space space = parseSpace(spacePath);
  std::vector<rt::ParamValues> all = candidates(space);
  mkdir(dir.c_str(), 0777);
  auto writeConfigs = [&](const std::vector<rt::ParamValues> &list) {
    std::string configs;
    for (const rt::ParamValues &c : list)
      configs += space.family + " " + rt::formatParamValues(c) + "\n";
    writeFile(dir + "/candidates.configs", configs);
  };
  writeConfigs(all);
  std::string manifest = "# tile-tune " TILE_VERSION "\nfamily " +
                         space.family + "\nchip " + chip + "\n";
  // Each variant's shape file is copied into DIR, which is all that
  // `measure` reads (carry it to the GPU machine).
  for (size_t i = 0; i < space.variants.size(); ++i) {
    manifest += "variant " + (space.variants[i].empty()
                                  ? std::string("-")
                                  : rt::formatParamValues(space.variants[i]));
    if (!space.variantShapes[i].empty()) {
      std::string copy = "variant" + std::to_string(i) + ".shapes";
      writeFile(dir + "/" + copy, readFile(space.variantShapes[i]));
      manifest += " " + copy;
    }
    manifest += "\n";
  }
  writeFile(dir + "/tune.manifest", manifest);
  std::printf("tile-tune: compiling %zu candidate configurations of %s for "
              "%s (tile-translate, in parallel threads)\n",
              all.size(), space.family.c_str(), chip.c_str());
  std::fflush(stdout);
  auto start = std::chrono::steady_clock::now();
  std::string log = dir + "/compile.log";
  std::vector<std::string> batch = translateCommand(
      translate, source, chip, dir + "/candidates.configs",
      dir + "/candidates");
  int status = waitExit(startLogged(batch, log));
  if (status != 0) {
    // A candidate failed past what tile-translate can leave out: find
    // which, one compile each, and compile the others together again.
    std::printf("tile-tune: the batch failed; compiling each candidate "
                "alone to find those that fail\n");
    std::fflush(stdout);
    std::vector<rt::ParamValues> kept = compilingAlone(
        all, space.family, translate, source, chip, dir);
    if (kept.empty()) {
      std::fprintf(stderr, "%s", readFile(log).c_str());
      std::fprintf(stderr, "tile-tune: no candidate compiles; the first "
                           "error is above and in %s\n", log.c_str());
      return 1;
    }
    writeConfigs(kept);
    status = waitExit(startLogged(batch, log));
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  std::string output = readFile(log);
  if (status != 0) {
    std::fprintf(stderr, "%s", output.c_str());
    std::fprintf(stderr, "tile-tune: %s failed (exit %d); its output is "
                 "above and in %s\n", translate.c_str(), status, log.c_str());
    return 1;
  }
  // The configurations tile-translate left out, one warning each.
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line))
    if (line.find("warning:") != std::string::npos) {
      std::printf("  dropped: %s\n",
                  line.substr(line.find("warning:") + 9).c_str());
    }
  std::vector<rt::KernelInfo> compiled =
      rt::loadKernelInfo(dir + "/candidates.kinfo");
  size_t kept = std::count_if(
      compiled.begin(), compiled.end(),
      [&](const rt::KernelInfo &k) { return k.family == space.family; });
  if (kept == all.size())
    std::printf("tile-tune: all %zu candidates compiled in %.1f s; "
                "%s/candidates.cubin\n",
                kept, seconds, dir.c_str());
  else
    std::printf("tile-tune: %zu of %zu candidates compiled in %.1f s (the "
                "others failed, need too much shared memory or spill); "
                "%s/candidates.cubin\n",
                kept, all.size(), seconds, dir.c_str());
  return kept ? 0 : 1;
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

using Shape = rt::ProblemShape;

//===----------------------------------------------------------------------===//
// Problems: how a family is fed, checked and compared
//===----------------------------------------------------------------------===//

void checkCublas(cublasStatus_t status, const char *call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw rt::Error(std::string(call) + " failed: " +
                    cublasGetStatusName(status));
}

std::vector<float> randomFloats(size_t count, uint64_t seed) {
  std::vector<float> values(count);
  for (float &v : values) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    v = float(int64_t(seed >> 40) % 2001 - 1000) / 1000.0f;
  }
  return values;
}

std::vector<uint16_t> toBf16(const std::vector<float> &values) {
  std::vector<uint16_t> bits(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    bits[i] = rt::floatToBf16(values[i]);
  return bits;
}

int64_t paramOr(const rt::KernelInfo &kernel, const std::string &name,
                int64_t otherwise) {
  for (const auto &[n, v] : kernel.config)
    if (n == name)
      return v;
  return otherwise;
}

/// What tile-tune knows of a kind of family: how to make operands for a
/// shape, bind a kernel to them, check its result and run the reference
/// it is timed against.
class Problem {
public:
  virtual ~Problem() = default;
  virtual std::string reference() const = 0;
  virtual std::vector<std::pair<std::string, std::string>> key() const = 0;
  /// Operands for `shape`, and the expected result for `kernel`'s variant.
  virtual void prepare(const Shape &shape, const rt::KernelInfo &kernel) = 0;
  virtual rt::BoundLaunch bind(const rt::Module &module,
                               const rt::KernelInfo &kernel) = 0;
  /// The relative error of `launch`'s result (its output poisoned first).
  virtual double check(rt::BoundLaunch &launch) = 0;
  virtual double tolerance() const = 0;
  virtual void runReference() = 0;
};

rt::MemRefArg rowMajor(CUdeviceptr p, std::vector<int64_t> sizes) {
  std::vector<int64_t> strides(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;)
    strides[i - 1] = strides[i] * sizes[i];
  return rt::MemRefArg{p, sizes, strides};
}

double relativeError(const std::vector<float> &got,
                     const std::vector<float> &want) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double d = double(got[i]) - want[i];
    diff += d * d;
    norm += double(want[i]) * want[i];
  }
  return std::sqrt(diff / std::max(norm, 1e-30));
}

std::vector<float> downloadBf16(const rt::DeviceBuffer &buffer, size_t count) {
  std::vector<uint16_t> bits(count);
  buffer.download(bits);
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = rt::bf16ToFloat(bits[i]);
  return values;
}

/// A GEMM family: C[M, N] = epilogue(A[M, K] B[N, K]^T), arguments (A, B,
/// C, bias, R) as gemm.mlir's; the epilogue from the kernel's BIAS, GELU
/// and RESIDUAL parameters, C's type from its description. The reference
/// is cuBLAS's plain product (cublasGemmEx, bf16 in, fp32 compute, C of
/// the kernel's type), against which the candidates are timed; the
/// epilogue is applied to it on the host for the check.
class GemmProblem : public Problem {
public:
  static bool takes(const rt::KernelInfo &kernel) {
    if (!kernel.args || kernel.args->size() != 5)
      return false;
    const std::vector<rt::ArgInfo> &a = *kernel.args;
    unsigned ranks[] = {2, 2, 2, 1, 2};
    for (size_t i = 0; i < 5; ++i)
      if (!a[i].isMemRef || a[i].rank != ranks[i])
        return false;
    return a[0].type == "bf16" && a[1].type == "bf16" && a[3].type == "bf16" &&
           a[4].type == "bf16" && (a[2].type == "f32" || a[2].type == "bf16");
  }

  GemmProblem() { checkCublas(cublasCreate(&handle), "cublasCreate"); }
  ~GemmProblem() override { cublasDestroy(handle); }

  std::string reference() const override {
    return "cublas (cublasGemmEx: bf16 in, fp32 compute, C of the variant's "
           "type; the plain product)";
  }
  std::vector<std::pair<std::string, std::string>> key() const override {
    return {{"M", "dim(0,0)"}, {"N", "dim(1,0)"}, {"K", "dim(0,1)"}};
  }

  /// Operands for M x N x K, and the reference's result for `kernel`'s
  /// epilogue.
  void prepare(const Shape &shape, const rt::KernelInfo &kernel) override {
    m = shape.sizes[0], n = shape.sizes[1], k = shape.sizes[2];
    bf16Out = (*kernel.args)[2].type == "bf16";
    bias_ = paramOr(kernel, "BIAS", 0), gelu = paramOr(kernel, "GELU", 0),
    residual = paramOr(kernel, "RESIDUAL", 0);
    std::vector<uint16_t> aBits = toBf16(randomFloats(size_t(m) * k, 1));
    std::vector<uint16_t> bBits = toBf16(randomFloats(size_t(n) * k, 2));
    biasBits = toBf16(randomFloats(size_t(n), 3));
    rBits = toBf16(randomFloats(size_t(m) * n, 4));
    a = rt::DeviceBuffer(aBits.size() * 2);
    b = rt::DeviceBuffer(bBits.size() * 2);
    biasBuf = rt::DeviceBuffer(biasBits.size() * 2);
    r = rt::DeviceBuffer(rBits.size() * 2);
    c = rt::DeviceBuffer(size_t(m) * n * 4);
    a.upload(aBits);
    b.upload(bBits);
    biasBuf.upload(biasBits);
    r.upload(rBits);
    runReference(/*fp32=*/true);
    want.resize(size_t(m) * n);
    c.download(want);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float &x = want[size_t(i) * n + j];
        if (bias_)
          x += rt::bf16ToFloat(biasBits[j]);
        if (gelu)
          x = 0.5f * x *
              (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
        if (residual)
          x += rt::bf16ToFloat(rBits[size_t(i) * n + j]);
      }
  }

  rt::BoundLaunch bind(const rt::Module &module,
                       const rt::KernelInfo &kernel) override {
    rt::BoundLaunch launch(module, kernel);
    launch.arg(rowMajor(a.ptr(), {m, k}))
        .arg(rowMajor(b.ptr(), {n, k}))
        .arg(rowMajor(c.ptr(), {m, n}))
        .arg(rowMajor(biasBuf.ptr(), {bias_ ? n : 0}))
        .arg(rowMajor(r.ptr(), {residual ? m : 0, n}))
        .grid();
    return launch;
  }

  double check(rt::BoundLaunch &launch) override {
    c.fillWords(0x7fc00001);
    launch.launch();
    std::vector<float> got(size_t(m) * n);
    if (bf16Out)
      got = downloadBf16(c, got.size());
    else
      c.download(got);
    return relativeError(got, want);
  }
  double tolerance() const override { return 1e-2; }

  void runReference() override { runReference(false); }
  void runReference(bool fp32) {
    float alpha = 1, beta = 0;
    cudaDataType out = fp32 || !bf16Out ? CUDA_R_32F : CUDA_R_16BF;
    checkCublas(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, int(n), int(m),
                             int(k), &alpha, (void *)b.ptr(), CUDA_R_16BF,
                             int(k), (void *)a.ptr(), CUDA_R_16BF, int(k),
                             &beta, (void *)c.ptr(), out, int(n),
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                "cublasGemmEx");
  }

private:
  cublasHandle_t handle = nullptr;
  int64_t m = 0, n = 0, k = 0;
  bool bf16Out = false;
  int64_t bias_ = 0, gelu = 0, residual = 0;
  std::vector<uint16_t> biasBits, rBits;
  std::vector<float> want;
  rt::DeviceBuffer a, b, biasBuf, r, c;
};

/// A row family of gpt/: @layernorm (x, w, b, y, eps) or @softmax (x, y)
/// over the rows of an M x N bf16 matrix, one row per key (M, N). The
/// reference it is timed against is the device-to-device copy of x into
/// y (the memory traffic any such kernel needs at least); the check is
/// against the row function computed on the host.
class RowProblem : public Problem {
public:
  enum Kind { LayerNorm, Softmax };
  static std::optional<Kind> kindOf(const rt::KernelInfo &kernel) {
    if (!kernel.args)
      return std::nullopt;
    const std::vector<rt::ArgInfo> &a = *kernel.args;
    auto matrix = [&](size_t i) {
      return a[i].isMemRef && a[i].rank == 2 && a[i].type == "bf16";
    };
    auto row = [&](size_t i) {
      return a[i].isMemRef && a[i].rank == 1 && a[i].type == "bf16";
    };
    if (a.size() == 5 && matrix(0) && row(1) && row(2) && matrix(3) &&
        !a[4].isMemRef && a[4].type == "f32")
      return LayerNorm;
    if (a.size() == 2 && matrix(0) && matrix(1))
      return Softmax;
    return std::nullopt;
  }
  explicit RowProblem(Kind kind) : kind(kind) {}

  std::string reference() const override {
    return "copy (cuMemcpyDtoD of the M x N bf16 input to the output)";
  }
  std::vector<std::pair<std::string, std::string>> key() const override {
    return {{"M", "dim(0,0)"}, {"N", "dim(0,1)"}};
  }
  void prepare(const Shape &shape, const rt::KernelInfo &) override {
    m = shape.sizes[0], n = shape.sizes[1];
    std::vector<uint16_t> xBits = toBf16(randomFloats(size_t(m) * n, 5));
    std::vector<uint16_t> wBits = toBf16(randomFloats(size_t(n), 6));
    std::vector<uint16_t> bBits = toBf16(randomFloats(size_t(n), 7));
    x = rt::DeviceBuffer(xBits.size() * 2);
    y = rt::DeviceBuffer(xBits.size() * 2);
    w = rt::DeviceBuffer(wBits.size() * 2);
    b = rt::DeviceBuffer(bBits.size() * 2);
    x.upload(xBits);
    w.upload(wBits);
    b.upload(bBits);
    want.assign(size_t(m) * n, 0);
    for (int64_t i = 0; i < m; ++i) {
      const uint16_t *row = &xBits[size_t(i) * n];
      float *out = &want[size_t(i) * n];
      if (kind == LayerNorm) {
        double sum = 0, sq = 0;
        for (int64_t j = 0; j < n; ++j)
          sum += rt::bf16ToFloat(row[j]);
        double mean = sum / double(n);
        for (int64_t j = 0; j < n; ++j) {
          double d = rt::bf16ToFloat(row[j]) - mean;
          sq += d * d;
        }
        double rstd = 1.0 / std::sqrt(sq / double(n) + kEps);
        for (int64_t j = 0; j < n; ++j)
          out[j] = float((rt::bf16ToFloat(row[j]) - mean) * rstd *
                             rt::bf16ToFloat(wBits[j]) +
                         rt::bf16ToFloat(bBits[j]));
      } else {
        double max = -1e30, sum = 0;
        for (int64_t j = 0; j < n; ++j)
          max = std::max(max, double(rt::bf16ToFloat(row[j])));
        for (int64_t j = 0; j < n; ++j)
          sum += std::exp(double(rt::bf16ToFloat(row[j])) - max);
        for (int64_t j = 0; j < n; ++j)
          out[j] = float(std::exp(double(rt::bf16ToFloat(row[j])) - max) /
                         sum);
      }
    }
  }
  rt::BoundLaunch bind(const rt::Module &module,
                       const rt::KernelInfo &kernel) override {
    rt::BoundLaunch launch(module, kernel);
    launch.arg(rowMajor(x.ptr(), {m, n}));
    if (kind == LayerNorm)
      launch.arg(rowMajor(w.ptr(), {n}))
          .arg(rowMajor(b.ptr(), {n}))
          .arg(rowMajor(y.ptr(), {m, n}))
          .arg(kEps);
    else
      launch.arg(rowMajor(y.ptr(), {m, n}));
    launch.grid();
    return launch;
  }
  double check(rt::BoundLaunch &launch) override {
    y.fillWords(0x7fc07fc0);
    launch.launch();
    return relativeError(downloadBf16(y, size_t(m) * n), want);
  }
  double tolerance() const override { return 1e-2; }
  void runReference() override { y.copyFrom(x, size_t(m) * n * 2); }

private:
  static constexpr float kEps = 1e-5f;
  Kind kind;
  int64_t m = 0, n = 0;
  std::vector<float> want;
  rt::DeviceBuffer x, y, w, b;
};

/// `kernel`'s parameters that `fixed` does not set: its configuration
/// within a variant.
rt::ParamValues ownConfig(const rt::KernelInfo &kernel,
                          const rt::ParamValues &fixed) {
  auto isFixed = [&](const std::string &name) {
    return std::any_of(fixed.begin(), fixed.end(),
                       [&](const rt::ParamValue &f) { return f.name == name; });
  };
  rt::ParamValues config;
  for (const auto &[name, value] : kernel.config)
    if (!isFixed(name))
      config.emplace_back(name, value);
  for (const auto &[name, type] : kernel.configTypes)
    if (!isFixed(name))
      config.emplace_back(name, type);
  return config;
}

struct Manifest {
  std::string family, chip;
  std::vector<rt::ParamValues> variants;
  std::vector<std::string> variantShapes; // a path in DIR, or empty
};

Manifest readManifest(const std::string &dir) {
  Manifest manifest;
  std::istringstream lines(readFile(dir + "/tune.manifest"));
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream in(line.substr(0, line.find('#')));
    std::string record, value, shapes;
    if (!(in >> record >> value))
      continue;
    in >> shapes;
    if (record == "family")
      manifest.family = value;
    else if (record == "chip")
      manifest.chip = value;
    else if (record == "variant") {
      manifest.variants.push_back(value == "-" ? rt::ParamValues{}
                                               : rt::parseParamValues(value));
      manifest.variantShapes.push_back(shapes.empty() ? ""
                                                      : dir + "/" + shapes);
    }
  }
  if (manifest.family.empty() || manifest.variants.empty())
    throw rt::Error(dir + "/tune.manifest: no family or variant (write it "
                          "with tile-tune compile)");
  return manifest;
}

/// What `measure` reads from DIR and --shapes, checked before any GPU is
/// touched: the manifest, the family's candidate kernels (the module may
/// hold others) and each variant's shapes.
struct MeasureInputs {
  std::string dir;
  Manifest manifest;
  std::vector<rt::KernelInfo> infos;
  std::vector<std::vector<Shape>> shapesOf;
};

/// The problem `kernel`'s family is, or an error saying which tile-tune
/// knows.
std::unique_ptr<Problem> problemFor(const rt::KernelInfo &kernel) {
  if (GemmProblem::takes(kernel))
    return std::make_unique<GemmProblem>();
  if (std::optional<RowProblem::Kind> kind = RowProblem::kindOf(kernel))
    return std::make_unique<RowProblem>(*kind);
  throw rt::Error("family " + kernel.family +
                  ": tile-tune feeds and checks GEMM families (arguments "
                  "A, B, C, bias, R as gemm.mlir's, against cuBLAS) and row "
                  "families (layernorm's x, w, b, y, eps or softmax's x, y, "
                  "against a device-to-device copy); this one is neither");
}

/// The sizes a problem's shapes have (its key's).
size_t keySize(const rt::KernelInfo &kernel) {
  if (GemmProblem::takes(kernel))
    return 3;
  if (RowProblem::kindOf(kernel))
    return 2;
  problemFor(kernel); // throws, saying which families tile-tune knows
  return 0;
}

/// What `kernel` computes, as far as the check's expected result goes: a
/// GEMM's epilogue flags and C's type (the rows compute one function).
std::string computes(const rt::KernelInfo &kernel) {
  if (!GemmProblem::takes(kernel))
    return "";
  return "BIAS=" + std::to_string(paramOr(kernel, "BIAS", 0)) +
         " GELU=" + std::to_string(paramOr(kernel, "GELU", 0)) +
         " RESIDUAL=" + std::to_string(paramOr(kernel, "RESIDUAL", 0)) +
         " C=" + (*kernel.args)[2].type;
}

MeasureInputs readMeasureInputs(const std::string &dir,
                                const std::string &shapesArg) {
  MeasureInputs in;
  in.dir = dir;
  in.manifest = readManifest(dir);
  in.infos = rt::loadKernelInfo(dir + "/candidates.kinfo");
  in.infos.erase(std::remove_if(in.infos.begin(), in.infos.end(),
                                [&](const rt::KernelInfo &k) {
                                  return k.family != in.manifest.family;
                                }),
                 in.infos.end());
  if (in.infos.empty())
    throw rt::Error(dir + ": no candidate kernel of " + in.manifest.family);
  size_t rank = keySize(in.infos.front());
  // One expected result per variant: its kernels must all compute it.
  for (const rt::ParamValues &fixed : in.manifest.variants) {
    std::string first;
    for (const rt::KernelInfo &kernel : in.infos) {
      if (!rt::kernelHasConfig(kernel, in.manifest.family, fixed))
        continue;
      std::string what = computes(kernel);
      if (first.empty())
        first = what;
      else if (what != first)
        throw rt::Error(
            dir + ": variant " +
            (fixed.empty() ? std::string("-") : rt::formatParamValues(fixed)) +
            " holds kernels that compute different results (" + first +
            "; " + what + "): fix those parameters in the variant");
    }
  }
  // --shapes, when given, is every variant's; else each its own file.
  for (const std::string &file : in.manifest.variantShapes) {
    if (file.empty() && shapesArg.empty())
      throw rt::Error("a variant has no shape file: give --shapes");
    in.shapesOf.push_back(
        rt::loadProblemShapes(shapesArg.empty() ? file : shapesArg, rank));
  }
  return in;
}

//===----------------------------------------------------------------------===//
// measure
//===----------------------------------------------------------------------===//

/// Median milliseconds per call of each contender, in turn over three
/// rounds (drifting clocks spread over all of them), each call repeated
/// until about `budgetMs` per round.
std::vector<float> interleavedMedianMs(
    const std::vector<std::function<void()>> &contenders, float firstMs) {
  int iters = int(std::clamp(2.0f / std::max(firstMs, 1e-3f), 5.0f, 200.0f));
  rt::Timer timer;
  std::vector<std::vector<float>> ms(contenders.size());
  for (int round = 0; round < 3; ++round)
    for (size_t i = 0; i < contenders.size(); ++i)
      ms[i].push_back(timer.timeMs(contenders[i], 2, iters));
  std::vector<float> medians;
  for (std::vector<float> &v : ms) {
    std::sort(v.begin(), v.end());
    medians.push_back(v[1]);
  }
  return medians;
}

void writeSvg(const std::string &path, const rt::TuningTable &table) {
  std::vector<const rt::TunedShape *> shapes;
  for (const rt::TuningVariant &variant : table.variants)
    for (const rt::TunedShape &shape : variant.shapes)
      shapes.push_back(&shape);
  const int barW = 12, top = 40, base = 260;
  int width = 70 + int(shapes.size()) * barW;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
      << "\" height=\"320\" font-family=\"sans-serif\" font-size=\"10\">\n"
      << "<text x=\"10\" y=\"20\" font-size=\"13\">" << table.family
      << ": tuned configuration / "
      << table.reference.substr(0, table.reference.find(' '))
      << " by shape (" << table.device << ", " << table.date << ")</text>\n";
  auto y = [&](double ratio) {
    return base - (base - top) * std::min(ratio, 1.5) / 1.5;
  };
  for (double r : {0.5, 0.9, 1.0, 1.5}) {
    svg << "<line x1=\"50\" x2=\"" << width << "\" y1=\"" << y(r)
        << "\" y2=\"" << y(r) << "\" stroke=\""
        << (r == 1.0 ? "#000" : "#ccc") << "\"/>\n<text x=\"10\" y=\""
        << y(r) + 3 << "\">" << r << "x</text>\n";
  }
  for (size_t i = 0; i < shapes.size(); ++i) {
    const rt::TunedShape &s = *shapes[i];
    double ratio = s.timeUs > 0 ? s.referenceUs / s.timeUs : 0;
    std::string name;
    for (int64_t size : s.key)
      name += (name.empty() ? "" : "x") + std::to_string(size);
    svg << "<rect x=\"" << 55 + int(i) * barW << "\" y=\"" << y(ratio)
        << "\" width=\"" << barW - 3 << "\" height=\"" << base - y(ratio)
        << "\" fill=\""
        << (ratio >= 1.0 ? "#2a7" : ratio >= 0.9 ? "#db3" : "#c33")
        << "\"><title>" << name << " " << s.note << "</title></rect>\n";
  }
  svg << "<text x=\"55\" y=\"" << base + 20
      << "\">shapes in table order (hover for each); green >= 1.0x, yellow "
         ">= 0.9x, red below</text>\n</svg>\n";
  writeFile(path, svg.str());
}

int measure(MeasureInputs inputs, const std::string &tablePath,
            const std::string &svgPath, bool checkOnly) {
  const Manifest &manifest = inputs.manifest;
  const std::vector<rt::KernelInfo> &infos = inputs.infos;
  const std::vector<std::vector<Shape>> &shapesOf = inputs.shapesOf;
  size_t steps = 0;
  for (const std::vector<Shape> &shapes : shapesOf)
    steps += shapes.size();
  rt::Device device = rt::Device::open();
  rt::Module module = rt::Module::loadCubinFile(inputs.dir +
                                                "/candidates.cubin");
  std::unique_ptr<Problem> owned = problemFor(infos.front());
  Problem &problem = *owned;

  rt::TuningTable table;
  table.family = manifest.family;
  table.chip = manifest.chip;
  table.device = device.name();
  table.sms = device.smCount();
  char date[16] = "";
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof(date), "%Y-%m-%d", std::gmtime(&now));
  table.date = date;
  table.reference = problem.reference();
  table.key = problem.key();

  auto start = std::chrono::steady_clock::now();
  size_t step = 0;
  double logSum = 0, worst = 1e30;
  int counted = 0, wins = 0, failedChecks = 0;
  std::vector<std::string> variantTimes;
  for (size_t v = 0; v < manifest.variants.size(); ++v) {
    const rt::ParamValues &fixed = manifest.variants[v];
    const std::vector<Shape> &shapes = shapesOf[v];
    auto variantStart = std::chrono::steady_clock::now();
    rt::TuningVariant variant;
    std::map<std::string, std::vector<std::pair<std::vector<double>, double>>>
        samples;
    variant.fixed = fixed;
    std::vector<const rt::KernelInfo *> kernels;
    for (const rt::KernelInfo &info : infos)
      if (rt::kernelHasConfig(info, manifest.family, fixed))
        kernels.push_back(&info);
    if (kernels.empty()) {
      std::printf("variant %s: no candidate compiled, left out\n",
                  rt::formatParamValues(fixed).c_str());
      continue;
    }
    for (const Shape &shape : shapes) {
      ++step;
      try {
        problem.prepare(shape, *kernels.front());
      } catch (const rt::Error &e) {
        // The reference or the operands failed (out of memory, say): the
        // shape is said and skipped, the others still measured.
        std::printf("[%zu/%zu] %s: skipped: %s\n", step, steps,
                    shape.what.c_str(), e.what());
        continue;
      }
      std::vector<rt::BoundLaunch> survivors;
      int wrong = 0, cannot = 0;
      for (const rt::KernelInfo *kernel : kernels) {
        try {
          rt::BoundLaunch launch = problem.bind(module, *kernel);
          double error = problem.check(launch);
          if (!(error < problem.tolerance())) {
            ++wrong;
            std::printf("  %s: wrong (relative error %.2e), dropped\n",
                        kernel->name.c_str(), error);
            continue;
          }
          survivors.push_back(std::move(launch));
        } catch (const rt::Error &) {
          ++cannot; // cannot take the shape (a TMA row alignment, say)
        }
      }
      if (survivors.empty()) {
        std::printf("[%zu/%zu] %s: no candidate takes this shape\n", step,
                    steps, shape.what.c_str());
        continue;
      }
      if (checkOnly) {
        rt::synchronize();
        std::printf("[%zu/%zu] %s: %zu of %zu candidates right (%d wrong, "
                    "%d cannot take it)\n",
                    step, steps, shape.what.c_str(), survivors.size(),
                    kernels.size(), wrong, cannot);
        failedChecks += wrong;
        continue;
      }
      std::vector<std::function<void()>> contenders;
      for (rt::BoundLaunch &launch : survivors)
        contenders.push_back([&launch] { launch.launch(); });
      contenders.push_back([&] { problem.runReference(); });
      rt::Timer once;
      float firstMs = once.timeMs(contenders.back(), 1, 3);
      std::vector<float> ms = interleavedMedianMs(contenders, firstMs);
      size_t best = 0;
      for (size_t i = 1; i < survivors.size(); ++i)
        if (ms[i] < ms[best])
          best = i;
      // Every survivor's time is a sample for its cost model.
      for (size_t i = 0; i < survivors.size(); ++i)
        if (std::optional<std::vector<double>> features = rt::costFeatures(
                table, survivors[i].info(), shape.sizes))
          samples[survivors[i].info().name].emplace_back(*features,
                                                          ms[i] * 1000.0);
      rt::TunedShape tuned;
      tuned.key = shape.sizes;
      tuned.config = ownConfig(survivors[best].info(), fixed);
      tuned.timeUs = ms[best] * 1000.0;
      tuned.referenceUs = ms.back() * 1000.0;
      double ratio = tuned.referenceUs / tuned.timeUs;
      char note[256];
      std::snprintf(note, sizeof(note), "%.3fx, %s", ratio,
                    shape.what.c_str());
      tuned.note = note;
      variant.shapes.push_back(tuned);
      logSum += std::log(ratio);
      worst = std::min(worst, ratio);
      ++counted;
      wins += ratio >= 1.0;
      std::string sizes;
      for (int64_t s : shape.sizes)
        sizes += (sizes.empty() ? "" : "x") + std::to_string(s);
      std::printf("[%zu/%zu] %s %s: %.1f us against %.1f us (%.3fx), %zu of "
                  "%zu candidates timed (%d wrong, %d cannot take it); %s\n",
                  step, steps, sizes.c_str(), shape.what.c_str(),
                  tuned.timeUs, tuned.referenceUs, ratio, survivors.size(),
                  kernels.size(), wrong, cannot,
                  rt::formatParamValues(tuned.config).c_str());
      std::fflush(stdout);
    }
    // Each candidate's cost model, from its times at every shape.
    for (const rt::KernelInfo *kernel : kernels)
      if (std::optional<rt::CostModel> model =
              rt::fitCostModel(samples[kernel->name])) {
        model->config = ownConfig(*kernel, fixed);
        variant.models.push_back(*model);
      }
    char took[160];
    std::snprintf(took, sizeof(took), "variant %s: %zu shapes in %.0f s",
                  fixed.empty() ? "-" : rt::formatParamValues(fixed).c_str(),
                  variant.shapes.size(),
                  std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - variantStart)
                      .count());
    variantTimes.push_back(took);
    std::printf("%s\n", took);
    table.variants.push_back(std::move(variant));
  }
  if (checkOnly) {
    std::printf("tile-tune: every candidate checked once at each shape; %d "
                "wrong\n", failedChecks);
    return failedChecks ? 1 : 0;
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  double geomean = counted ? std::exp(logSum / counted) : 0;
  char summary[256];
  std::snprintf(summary, sizeof(summary),
                "%d shapes: geometric mean %.3f of the reference, worst "
                "%.3f, %d at or above it; measured in %.0f s",
                counted, geomean, counted ? worst : 0.0, wins, seconds);
  table.comments = {"tile-tune " TILE_VERSION
                    " wrote this table; tile-translate --tuning-table "
                    "compiles it into the family's launcher.",
                    summary};
  table.comments.insert(table.comments.end(), variantTimes.begin(),
                        variantTimes.end());
  writeFile(tablePath, rt::serializeTuningTable(table));
  if (!svgPath.empty())
    writeSvg(svgPath, table);
  std::printf("tile-tune: %s; table %s%s%s\n", summary, tablePath.c_str(),
              svgPath.empty() ? "" : ", plot ", svgPath.c_str());
  return counted ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc >= 2 && (!std::strcmp(argv[1], "--version"))) {
    std::printf("tile-tune (tile) %s\n", TILE_VERSION);
    return 0;
  }
  if (argc < 3)
    usage("expected a command and its input");
  std::string command = argv[1], input = argv[2];
  std::string space, dir, chip = "sm_90a", translate, shapes, table, svg;
  bool checkOnly = false;
  for (int i = 3; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--space")
      space = value();
    else if (arg == "-o")
      dir = value();
    else if (arg == "--chip")
      chip = value();
    else if (arg == "--tile-translate")
      translate = value();
    else if (arg == "--shapes")
      shapes = value();
    else if (arg == "--table")
      table = value();
    else if (arg == "--svg")
      svg = value();
    else if (arg == "--check-only")
      checkOnly = true;
    else
      usage("unknown option '" + arg + "'");
  }
  try {
    if (command == "compile" || command == "run") {
      if (space.empty() || dir.empty())
        usage(command + " needs --space and -o");
      int status = compile(input, space, dir, chip,
                           findTranslate(translate, argv[0]));
      if (status != 0 || command == "compile")
        return status;
      input = dir;
    } else if (command != "measure") {
      usage("unknown command '" + command + "' (compile, measure, run)");
    }
    if (table.empty())
      table = input + "/tuning.txt";
    MeasureInputs inputs = readMeasureInputs(input, shapes);
    checkWritable(table);
    if (!svg.empty())
      checkWritable(svg);
    std::string why;
    if (!rt::driverAvailable(&why)) {
      std::fprintf(stderr, "tile-tune: no GPU here (%s): measure on a "
                           "machine with one\n", why.c_str());
      return 77;
    }
    return measure(std::move(inputs), table, svg, checkOnly);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "tile-tune: %s\n", e.what());
    return 1;
  }
}
