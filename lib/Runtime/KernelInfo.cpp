//===- KernelInfo.cpp - Writing and reading the kernel description --------===//
//
// Linked into both the compiler and the runtime (see KernelInfo.cmake), so
// it uses nothing but the C++ standard library.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/KernelInfo.h"
#include "tile/Version.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <locale>
#include <map>
#include <sstream>

using namespace tile::rt;

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

namespace {
const ElementTypeInfo kElementTypes[] = {
    {"bf16", 2, true}, {"f16", 2, true}, {"f32", 4, true}, {"tf32", 4, true},
    {"f64", 8, true},  {"i8", 1, false}, {"u8", 1, false}, {"i16", 2, false},
    {"u16", 2, false}, {"i32", 4, false}, {"u32", 4, false},
    {"i64", 8, false}, {"u64", 8, false},
};
} // namespace

const ElementTypeInfo *tile::rt::findElementType(const std::string &name) {
  for (const ElementTypeInfo &info : kElementTypes)
    if (name == info.name)
      return &info;
  return nullptr;
}

std::string tile::rt::knownElementTypes() {
  std::string list;
  for (const ElementTypeInfo &info : kElementTypes)
    list += (list.empty() ? "" : ", ") + std::string(info.name);
  return list;
}

unsigned tile::rt::elementTypeBytes(const std::string &elementType) {
  if (const ElementTypeInfo *info = findElementType(elementType))
    return info->bytes;
  throw Error("unknown element type '" + elementType + "' (expected one of " +
              knownElementTypes() + ")");
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static void writeDims(std::ostream &os, const Dim3 &d) {
  os << d.x << ' ' << d.y << ' ' << d.z;
}

std::string
tile::rt::serializeKernelInfo(const std::vector<KernelInfo> &kernels) {
  using namespace kinfo;
  std::ostringstream os;
  // Numbers must not pick up a global locale's digit grouping.
  os.imbue(std::locale::classic());
  os << kHeader << '\n';
  os << kCompiler << ' ' << kCompilerName << ' ' << TILE_VERSION << '\n';
  for (const KernelInfo &k : kernels) {
    os << kKernel << ' ' << k.name << ' ' << kBlock << ' ';
    writeDims(os, k.block);
    os << ' ' << kCluster << ' ';
    writeDims(os, k.cluster);
    os << ' ' << kSmem << ' ' << k.sharedBytes << '\n';
    for (const TmaInfo &t : k.tmas) {
      os << kTma << ' ' << k.name << ' ' << kParam << ' ' << t.param << ' '
         << kArg << ' ' << t.arg << ' ' << kType << ' ' << t.spec.elementType
         << ' ' << kBox << ' ';
      for (size_t i = 0; i < t.spec.box.size(); ++i) {
        if (i)
          os << kBoxSeparator;
        os << t.spec.box[i];
      }
      os << ' ' << kSwizzle << ' ' << t.spec.swizzleBytes << '\n';
    }
    if (k.linksNvshmem)
      os << kLink << ' ' << k.name << ' ' << kNvshmem << '\n';
    if (k.dependentLaunch)
      os << kLaunch << ' ' << k.name << ' ' << kDependent << '\n';
    if (k.collectiveLaunch)
      os << kLaunch << ' ' << k.name << ' ' << kCollective << '\n';
    if (k.paramBytes) {
      os << kParams << ' ' << k.name;
      for (uint32_t bytes : *k.paramBytes)
        os << ' ' << bytes;
      os << '\n';
    }
    if (k.args) {
      os << kArgs << ' ' << k.name;
      for (const ArgInfo &arg : *k.args) {
        os << ' ' << arg.name << kArgSeparator;
        if (arg.isMemRef)
          os << kMemref << kArgSeparator << arg.type << kArgSeparator
             << arg.rank;
        else
          os << arg.type;
      }
      os << '\n';
    }
    if (!k.family.empty()) {
      os << kConfig << ' ' << k.name << ' ' << k.family;
      for (const auto &[name, value] : k.config)
        os << ' ' << name << kValueSeparator << value;
      for (const auto &[name, type] : k.configTypes)
        os << ' ' << name << kValueSeparator << type;
      os << '\n';
    }
    if (k.grid)
      os << kGrid << ' ' << k.name << ' ' << k.grid->x << ' ' << k.grid->y
         << ' ' << k.grid->z << '\n';
    if (!k.zeroedArgs.empty()) {
      os << kZero << ' ' << k.name;
      for (unsigned arg : k.zeroedArgs)
        os << ' ' << arg;
      os << '\n';
    }
  }
  return os.str();
}

bool tile::rt::isIdentifier(const std::string &text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0])))
    return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

unsigned tile::rt::scalarTypeBytes(const std::string &type) {
  static const std::pair<const char *, unsigned> kTypes[] = {
      {"i1", 1},    {"i8", 1},  {"i16", 2},  {"i32", 4}, {"i64", 8},
      {"index", 8}, {"f16", 2}, {"bf16", 2}, {"f32", 4}, {"f64", 8}};
  for (const auto &[name, bytes] : kTypes)
    if (type == name)
      return bytes;
  return 0;
}

const tile::rt::KernelInfo *
tile::rt::firstNeedingNvshmem(const std::vector<KernelInfo> &infos) {
  auto it = std::find_if(infos.begin(), infos.end(),
                         [](const KernelInfo &k) { return k.linksNvshmem; });
  return it == infos.end() ? nullptr : &*it;
}

bool tile::rt::needsNvshmem(const std::vector<KernelInfo> &infos) {
  return firstNeedingNvshmem(infos) != nullptr;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
/// Tokens of one kinfo line, consumed left to right.
class LineParser {
public:
  LineParser(std::vector<std::string> tokens, unsigned line)
      : tokens(std::move(tokens)), line(line) {}

  [[noreturn]] void fail(const std::string &what) const {
    throw Error("kinfo:" + std::to_string(line) + ": " + what);
  }

  const std::string &next(const std::string &what) {
    if (pos >= tokens.size())
      fail("expected " + what + " but the line ends");
    return tokens[pos++];
  }

  void keyword(const char *word) {
    const std::string &token = next(std::string("'") + word + "'");
    if (token != word)
      fail(std::string("expected '") + word + "' but found '" + token + "'");
  }

  uint64_t number(const std::string &what, uint64_t min, uint64_t max) {
    return parseNumber(next(what), what, min, max);
  }

  uint64_t parseNumber(const std::string &token, const std::string &what,
                       uint64_t min, uint64_t max) const {
    uint64_t value = 0;
    bool ok = !token.empty();
    for (char c : token) {
      if (!std::isdigit(static_cast<unsigned char>(c)) ||
          value > (std::numeric_limits<uint64_t>::max() - 9) / 10) {
        ok = false;
        break;
      }
      value = value * 10 + uint64_t(c - '0');
    }
    if (!ok)
      fail("expected " + what + " but found '" + token + "'");
    if (value < min || value > max)
      fail(what + " must be " + std::to_string(min) + " to " +
           std::to_string(max) + ", got " + token);
    return value;
  }

  Dim3 dims(const std::string &what) {
    Dim3 d;
    d.x = unsigned(number(what + " x", 1, UINT32_MAX));
    d.y = unsigned(number(what + " y", 1, UINT32_MAX));
    d.z = unsigned(number(what + " z", 1, UINT32_MAX));
    return d;
  }

  bool atEnd() const { return pos >= tokens.size(); }

  void end() const {
    if (pos < tokens.size())
      fail("unexpected '" + tokens[pos] + "' at the end of the line");
  }

private:
  std::vector<std::string> tokens;
  unsigned line;
  size_t pos = 0;
};

std::vector<std::string> tokenize(const std::string &line) {
  std::vector<std::string> tokens;
  std::istringstream stream(line.substr(0, line.find(kinfo::kComment)));
  std::string token;
  while (stream >> token)
    tokens.push_back(token);
  return tokens;
}

/// The rest of a kernel record, after its record name.
KernelInfo parseKernelRecord(LineParser &p) {
  KernelInfo info;
  info.name = p.next("a kernel name");
  p.keyword(kinfo::kBlock);
  info.block = p.dims("block");
  p.keyword(kinfo::kCluster);
  info.cluster = p.dims("cluster");
  p.keyword(kinfo::kSmem);
  info.sharedBytes = unsigned(p.number("shared memory bytes", 0, UINT32_MAX));
  p.end();
  return info;
}

/// "64x64" and the like.
std::vector<uint32_t> parseBox(LineParser &p, const std::string &box) {
  std::vector<uint32_t> dims;
  size_t start = 0;
  while (true) {
    size_t x = box.find(kinfo::kBoxSeparator, start);
    std::string part = box.substr(
        start, x == std::string::npos ? std::string::npos : x - start);
    dims.push_back(
        uint32_t(p.parseNumber(part, "a box dimension", 1, UINT32_MAX)));
    if (x == std::string::npos)
      return dims;
    start = x + 1;
  }
}

/// A tma record waits for the end of the text to find its kernel.
struct PendingTma {
  std::string kernel;
  unsigned line;
  TmaInfo info;
};

/// The rest of a tma record, after its record name.
PendingTma parseTmaRecord(LineParser &p, unsigned line) {
  PendingTma tma;
  tma.line = line;
  tma.kernel = p.next("a kernel name");
  p.keyword(kinfo::kParam);
  tma.info.param = int(p.number("a parameter index", 0, INT32_MAX));
  p.keyword(kinfo::kArg);
  tma.info.arg = int(p.number("an argument index", 0, INT32_MAX));
  p.keyword(kinfo::kType);
  TensorMapSpec &spec = tma.info.spec;
  spec.elementType = p.next("an element type");
  if (!findElementType(spec.elementType))
    p.fail("unknown element type '" + spec.elementType +
           "' (expected one of " + knownElementTypes() + ")");
  p.keyword(kinfo::kBox);
  spec.box = parseBox(p, p.next("a box shape such as 64x64"));
  p.keyword(kinfo::kSwizzle);
  uint64_t swizzle = p.number("a swizzle size", 0, 128);
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    p.fail("swizzle must be 0, 32, 64 or 128, got " + std::to_string(swizzle));
  spec.swizzleBytes = unsigned(swizzle);
  p.end();
  return tma;
}

/// A link or launch record, resolved like a tma record: the kernel it
/// names and its word (one of those the record takes).
struct PendingKernelWord {
  std::string kernel;
  std::string word;
  unsigned line;
};

/// The rest of a link or launch record, after its record name: a kernel
/// and one of the words the record takes (`expected`: NVSHMEM is the only
/// library a kernel can ask for; a launch is dependent or collective).
/// `word` names what the word is, for messages.
PendingKernelWord
parseKernelWordRecord(LineParser &p, unsigned line, const std::string &record,
                      const std::string &word,
                      const std::vector<std::string> &expected) {
  PendingKernelWord link;
  link.line = line;
  link.kernel = p.next("a kernel name");
  link.word = p.next("a " + word);
  if (std::find(expected.begin(), expected.end(), link.word) ==
      expected.end()) {
    std::string choices;
    for (size_t i = 0; i < expected.size(); ++i)
      choices += (i == 0 ? "'" : i + 1 == expected.size() ? " or '" : ", '") +
                 expected[i] + "'";
    p.fail("unknown " + word + " '" + link.word + "' in a " + record +
           " record (expected " + choices + ")");
  }
  p.end();
  return link;
}

/// A record of a kernel and a list of numbers (params: each parameter's
/// size, none for a kernel without parameters; zero: the memref arguments
/// a launch zeroes first, at least one), resolved like a tma record.
struct PendingNumbers {
  std::string kernel;
  unsigned line;
  std::vector<uint32_t> values;
};

/// The rest of such a record, after its record name.
PendingNumbers parseNumbersRecord(LineParser &p, unsigned line,
                                  const std::string &what, uint64_t min,
                                  uint64_t max, bool atLeastOne) {
  PendingNumbers record;
  record.line = line;
  record.kernel = p.next("a kernel name");
  while (atLeastOne || !p.atEnd()) {
    record.values.push_back(uint32_t(p.number(what, min, max)));
    atLeastOne = false;
  }
  return record;
}

/// An args or config record, resolved like a tma record.
struct PendingSignature {
  std::string kernel;
  unsigned line;
  bool isConfig = false;
  std::vector<ArgInfo> args;
  std::string family;
  std::vector<std::pair<std::string, int64_t>> config;
  std::vector<std::pair<std::string, std::string>> configTypes;
};

/// The rest of an args record: <name>:<type> or <name>:memref:<elt>:<rank>.
PendingSignature parseArgsRecord(LineParser &p, unsigned line) {
  PendingSignature record;
  record.line = line;
  record.kernel = p.next("a kernel name");
  while (!p.atEnd()) {
    const std::string &entry = p.next("an argument");
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
      size_t colon = entry.find(kinfo::kArgSeparator, start);
      parts.push_back(entry.substr(start, colon == std::string::npos
                                              ? std::string::npos
                                              : colon - start));
      if (colon == std::string::npos)
        break;
      start = colon + 1;
    }
    ArgInfo arg;
    arg.name = parts[0];
    bool memref = parts.size() == 4 && parts[1] == kinfo::kMemref;
    if (!isIdentifier(arg.name) || (parts.size() != 2 && !memref))
      p.fail("expected an argument as <name>:<type> or "
             "<name>:memref:<element type>:<rank>, got '" + entry + "'");
    arg.isMemRef = memref;
    arg.type = memref ? parts[2] : parts[1];
    if (!scalarTypeBytes(arg.type))
      p.fail("unknown type '" + arg.type + "' of argument '" + arg.name + "'");
    if (memref)
      arg.rank = unsigned(p.parseNumber(parts[3], "a memref rank", 1, 64));
    record.args.push_back(std::move(arg));
  }
  return record;
}

/// The rest of a config record: the family, then <NAME>=<value>...
PendingSignature parseConfigRecord(LineParser &p, unsigned line) {
  PendingSignature record;
  record.line = line;
  record.isConfig = true;
  record.kernel = p.next("a kernel name");
  record.family = p.next("a family name");
  while (!p.atEnd()) {
    const std::string &entry = p.next("a parameter value");
    size_t equals = entry.find(kinfo::kValueSeparator);
    std::string name = entry.substr(0, equals);
    if (equals == std::string::npos || !isIdentifier(name))
      p.fail("expected a parameter value as <NAME>=<integer>, got '" + entry +
             "'");
    std::string digits = entry.substr(equals + 1);
    // An element-type parameter's value: a type.
    if (scalarTypeBytes(digits) && !std::isdigit(static_cast<unsigned char>(
                                       digits[0]))) {
      record.configTypes.push_back({name, digits});
      continue;
    }
    bool negative = !digits.empty() && digits[0] == '-';
    uint64_t magnitude = p.parseNumber(negative ? digits.substr(1) : digits,
                                       "the value of " + name, 0,
                                       uint64_t(INT64_MAX));
    record.config.push_back(
        {name, negative ? -int64_t(magnitude) : int64_t(magnitude)});
  }
  return record;
}

/// A grid record: the kernel and its three expressions.
struct PendingGrid {
  std::string kernel;
  unsigned line;
  GridRule rule;
};

PendingGrid parseGridRecord(LineParser &p, unsigned line) {
  PendingGrid record;
  record.line = line;
  record.kernel = p.next("a kernel name");
  record.rule.x = p.next("the grid's x expression");
  record.rule.y = p.next("the grid's y expression");
  record.rule.z = p.next("the grid's z expression");
  p.end();
  return record;
}

KernelInfo &kernelOfRecord(std::vector<KernelInfo> &kernels,
                           const std::string &kernel, const char *record,
                           unsigned line) {
  auto it =
      std::find_if(kernels.begin(), kernels.end(),
                   [&](const KernelInfo &k) { return k.name == kernel; });
  if (it == kernels.end())
    LineParser({}, line).fail(std::string(record) +
                              " record names unknown kernel '" + kernel + "'");
  return *it;
}

/// Attaches each tma, link, launch, params, args, config, grid and zero
/// record to its kernel.
void resolveRecords(std::vector<KernelInfo> &kernels,
                    std::vector<PendingTma> &tmas,
                    const std::vector<PendingKernelWord> &links,
                    const std::vector<PendingKernelWord> &launches,
                    std::vector<PendingNumbers> &params,
                    std::vector<PendingSignature> &signatures,
                    std::vector<PendingGrid> &grids,
                    std::vector<PendingNumbers> &zeros) {
  for (PendingSignature &record : signatures) {
    const char *name = record.isConfig ? kinfo::kConfig : kinfo::kArgs;
    KernelInfo &kernel =
        kernelOfRecord(kernels, record.kernel, name, record.line);
    bool twice = record.isConfig ? !kernel.family.empty() : bool(kernel.args);
    if (twice)
      LineParser({}, record.line)
          .fail("kernel '" + record.kernel + "' has two '" + name +
                "' records");
    if (record.isConfig) {
      kernel.family = std::move(record.family);
      kernel.config = std::move(record.config);
      kernel.configTypes = std::move(record.configTypes);
    } else {
      kernel.args = std::move(record.args);
    }
  }
  // After the args records: a grid expression names arguments.
  for (PendingGrid &record : grids) {
    KernelInfo &kernel =
        kernelOfRecord(kernels, record.kernel, kinfo::kGrid, record.line);
    LineParser p({}, record.line);
    if (kernel.grid)
      p.fail("kernel '" + record.kernel + "' has two '" + kinfo::kGrid +
             "' records");
    for (const std::string *expression :
         {&record.rule.x, &record.rule.y, &record.rule.z})
      if (std::string why = checkGridExpression(*expression, kernel.args);
          !why.empty())
        p.fail("grid expression '" + *expression + "' of kernel '" +
               record.kernel + "': " + why);
    kernel.grid = std::move(record.rule);
  }
  // After the args records too: a zero record names memref arguments.
  for (PendingNumbers &record : zeros) {
    KernelInfo &kernel =
        kernelOfRecord(kernels, record.kernel, kinfo::kZero, record.line);
    LineParser p({}, record.line);
    if (!kernel.zeroedArgs.empty())
      p.fail("kernel '" + record.kernel + "' has two '" + kinfo::kZero +
             "' records");
    std::vector<unsigned> args(record.values.begin(), record.values.end());
    std::sort(args.begin(), args.end());
    for (size_t i = 0; i < args.size(); ++i) {
      unsigned arg = args[i];
      if (i && args[i - 1] == arg)
        p.fail("zero record of kernel '" + record.kernel +
               "' names argument " + std::to_string(arg) + " twice");
      if (!kernel.args || arg >= kernel.args->size() ||
          !(*kernel.args)[arg].isMemRef)
        p.fail("zero record of kernel '" + record.kernel +
               "' names argument " + std::to_string(arg) +
               ", which is not a memref argument of it (an args record "
               "must say so)");
    }
    kernel.zeroedArgs = std::move(args);
  }
  for (PendingNumbers &record : params) {
    KernelInfo &kernel =
        kernelOfRecord(kernels, record.kernel, kinfo::kParams, record.line);
    if (kernel.paramBytes)
      LineParser({}, record.line)
          .fail("kernel '" + record.kernel + "' has two '" + kinfo::kParams +
                "' records");
    kernel.paramBytes = std::move(record.values);
  }
  for (PendingTma &tma : tmas) {
    KernelInfo &kernel =
        kernelOfRecord(kernels, tma.kernel, kinfo::kTma, tma.line);
    for (const TmaInfo &other : kernel.tmas)
      if (other.param == tma.info.param)
        LineParser({}, tma.line)
            .fail("kernel '" + tma.kernel + "' has two tma records for param " +
                  std::to_string(tma.info.param));
    kernel.tmas.push_back(std::move(tma.info));
  }
  for (const PendingKernelWord &link : links) {
    KernelInfo &kernel =
        kernelOfRecord(kernels, link.kernel, kinfo::kLink, link.line);
    if (kernel.linksNvshmem)
      LineParser({}, link.line)
          .fail("kernel '" + link.kernel + "' has two '" + kinfo::kLink + " " +
                kinfo::kNvshmem + "' records");
    kernel.linksNvshmem = true;
  }
  for (const PendingKernelWord &launch : launches) {
    KernelInfo &kernel =
        kernelOfRecord(kernels, launch.kernel, kinfo::kLaunch, launch.line);
    bool &kind = launch.word == kinfo::kDependent ? kernel.dependentLaunch
                                                  : kernel.collectiveLaunch;
    if (kind)
      LineParser({}, launch.line)
          .fail("kernel '" + launch.kernel + "' has two '" + kinfo::kLaunch +
                " " + launch.word + "' records");
    kind = true;
  }
}
} // namespace

std::string tile::rt::kernelInfoWriter(const std::string &text) {
  std::istringstream stream(text);
  std::string line;
  while (std::getline(stream, line)) {
    std::vector<std::string> tokens = tokenize(line);
    if (tokens.size() == 3 && tokens[0] == kinfo::kCompiler &&
        tokens[1] == kinfo::kCompilerName)
      return tokens[2];
  }
  return "";
}

static std::vector<KernelInfo> parseRecords(const std::string &text);

std::vector<KernelInfo> tile::rt::parseKernelInfo(const std::string &text) {
  try {
    return parseRecords(text);
  } catch (const Error &e) {
    std::string writer = kernelInfoWriter(text);
    throw Error(std::string(e.what()) + " (written by " +
                (writer.empty() ? std::string("a tile that records no version")
                                : "tile " + writer) +
                "; this runtime is tile " + TILE_VERSION + ")");
  }
}

static std::vector<KernelInfo> parseRecords(const std::string &text) {
  std::vector<KernelInfo> kernels;
  std::map<std::string, unsigned> kernelLines;
  std::vector<PendingTma> tmas;
  std::vector<PendingKernelWord> links, launches;
  std::vector<PendingNumbers> params;
  std::vector<PendingSignature> signatures;
  std::vector<PendingGrid> grids;
  std::vector<PendingNumbers> zeros;

  std::istringstream stream(text);
  std::string lineText;
  for (unsigned lineNo = 1; std::getline(stream, lineText); ++lineNo) {
    std::vector<std::string> tokens = tokenize(lineText);
    if (tokens.empty())
      continue;
    LineParser p(tokens, lineNo);
    const std::string &record = p.next("a record");
    if (record == kinfo::kKernel) {
      KernelInfo info = parseKernelRecord(p);
      auto inserted = kernelLines.emplace(info.name, lineNo);
      if (!inserted.second)
        p.fail("duplicate kernel '" + info.name + "' (first on line " +
               std::to_string(inserted.first->second) + ")");
      kernels.push_back(std::move(info));
    } else if (record == kinfo::kTma) {
      tmas.push_back(parseTmaRecord(p, lineNo));
    } else if (record == kinfo::kLink) {
      links.push_back(parseKernelWordRecord(p, lineNo, kinfo::kLink, "library",
                                            {kinfo::kNvshmem}));
    } else if (record == kinfo::kLaunch) {
      launches.push_back(
          parseKernelWordRecord(p, lineNo, kinfo::kLaunch, "kind of launch",
                                {kinfo::kDependent, kinfo::kCollective}));
    } else if (record == kinfo::kParams) {
      params.push_back(parseNumbersRecord(p, lineNo, "a parameter size in bytes",
                                         1, 4096, /*atLeastOne=*/false));
    } else if (record == kinfo::kArgs) {
      signatures.push_back(parseArgsRecord(p, lineNo));
    } else if (record == kinfo::kConfig) {
      signatures.push_back(parseConfigRecord(p, lineNo));
    } else if (record == kinfo::kGrid) {
      grids.push_back(parseGridRecord(p, lineNo));
    } else if (record == kinfo::kZero) {
      zeros.push_back(parseNumbersRecord(p, lineNo, "an argument index", 0,
                                        65535, /*atLeastOne=*/true));
    } else if (record == kinfo::kCompiler) {
      // Which tile wrote it: read by kernelInfoWriter, for messages.
      continue;
    } else {
      p.fail("unknown record '" + record + "' (expected '" + kinfo::kKernel +
             "', '" + kinfo::kTma + "', '" + kinfo::kLink + "', '" +
             kinfo::kLaunch + "', '" +
             kinfo::kParams + "', '" + kinfo::kArgs + "', '" +
             kinfo::kConfig + "', '" + kinfo::kGrid + "', '" + kinfo::kZero +
             "' or '" +
             kinfo::kCompiler + "')");
    }
  }
  resolveRecords(kernels, tmas, links, launches, params, signatures, grids,
                 zeros);
  return kernels;
}

std::vector<KernelInfo> tile::rt::loadKernelInfo(const std::string &path) {
  std::ifstream file(path);
  if (!file)
    throw Error("cannot read kernel info file '" + path + "'");
  std::stringstream text;
  text << file.rdbuf();
  if (file.bad())
    throw Error("error reading kernel info file '" + path + "'");
  try {
    return parseKernelInfo(text.str());
  } catch (const Error &e) {
    throw Error(path + ": " + e.what());
  }
}

const KernelInfo &tile::rt::findKernel(const std::vector<KernelInfo> &infos,
                                       const std::string &name) {
  for (const KernelInfo &info : infos)
    if (info.name == name)
      return info;
  std::string known;
  for (const KernelInfo &info : infos)
    known += (known.empty() ? "" : ", ") + info.name;
  throw Error("kernel '" + name + "' is not described in the kernel info (" +
              (known.empty() ? "no kernels" : "known: " + known) + ")");
}

const KernelInfo &tile::rt::findKernel(const std::vector<KernelInfo> &infos,
                                       const char *name) {
  return findKernel(infos, std::string(name ? name : ""));
}
