//===- Launcher.cpp - typed C++ launchers generated from kernels ----------===//
//
// The text of a generated launcher (include/tile/Target/Launcher.h). What it
// calls lives in the runtime (include/tile/Runtime/Launcher.h), so the
// generated code stays short: one function per kernel that binds its typed
// arguments, one table and dispatcher per family.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Launcher.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

using namespace tile;

namespace {
/// Words an argument name must not be in C++.
const std::set<std::string> kReserved = {
    "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case",
    "catch", "char", "class", "const", "constexpr", "continue", "default",
    "delete", "do", "double", "else", "enum", "explicit", "export", "extern",
    "false", "float", "for", "friend", "goto", "if", "inline", "int", "long",
    "mutable", "namespace", "new", "noexcept", "not", "nullptr", "operator",
    "or", "private", "protected", "public", "register", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "template", "this",
    "throw", "true", "try", "typedef", "typename", "union", "unsigned", "using",
    "virtual", "void", "volatile", "while", "xor",
    // The parameters every launcher takes.
    "grid", "stream", "config", "choose", "fixed"};

/// The C++ type of a scalar or element of MLIR type `type`.
std::string cppType(const std::string &type) {
  static const std::map<std::string, std::string> kTypes = {
      {"i1", "bool"},           {"i8", "int8_t"},
      {"i16", "int16_t"},       {"i32", "int32_t"},
      {"i64", "int64_t"},       {"index", "int64_t"},
      {"f16", "tile::rt::f16"}, {"bf16", "tile::rt::bf16"},
      {"f32", "float"},         {"f64", "double"}};
  auto it = kTypes.find(type);
  return it == kTypes.end() ? std::string() : it->second;
}

std::string argumentType(const rt::ArgInfo &arg) {
  std::string element = cppType(arg.type);
  if (!arg.isMemRef)
    return element;
  return "tile::rt::MemRef<" + element + ", " + std::to_string(arg.rank) + ">";
}

std::string argumentName(const rt::ArgInfo &arg) {
  return kReserved.count(arg.name) ? arg.name + "_" : arg.name;
}

/// "tile::rt::Dim3 grid, T a, ..., CUstream stream" (with a default stream
/// in declarations); without `grid` for the functions that launch with the
/// grid the kernel states.
std::string parameters(const rt::KernelInfo &kernel, bool declaration,
                       bool grid = true) {
  std::string text = grid ? "tile::rt::Dim3 grid" : "";
  for (const rt::ArgInfo &arg : *kernel.args)
    text += (text.empty() ? "" : ", ") + argumentType(arg) + " " +
            argumentName(arg);
  text += text.empty() ? "" : ", ";
  text += declaration ? "CUstream stream = nullptr" : "CUstream stream";
  return text;
}

std::string argumentNames(const rt::KernelInfo &kernel, bool grid = true) {
  std::string text = grid ? "grid" : "";
  for (const rt::ArgInfo &arg : *kernel.args)
    text += (text.empty() ? "" : ", ") + argumentName(arg);
  return text + (text.empty() ? "" : ", ") + "stream";
}

/// The C++ types of a kernel's arguments, "T, U, ...": kernels with the
/// same list share a dispatcher (an i64 and an index argument are both
/// int64_t).
std::string cppSignature(const rt::KernelInfo &kernel) {
  std::string text;
  for (const rt::ArgInfo &arg : *kernel.args)
    text += (text.empty() ? "" : ", ") + argumentType(arg);
  return text;
}

std::string summary(const rt::KernelInfo &kernel) {
  std::ostringstream os;
  os << kernel.block.x * kernel.block.y * kernel.block.z << " threads";
  if (kernel.cluster.x * kernel.cluster.y * kernel.cluster.z > 1)
    os << " in clusters of " << kernel.cluster.x << "x" << kernel.cluster.y
       << "x" << kernel.cluster.z;
  os << ", " << kernel.sharedBytes << " bytes of shared memory";
  if (!kernel.tmas.empty())
    os << ", " << kernel.tmas.size() << " TMA tensor map"
       << (kernel.tmas.size() > 1 ? "s" : "");
  if (!kernel.family.empty()) {
    os << "; family " << kernel.family << ":";
    for (const auto &[name, value] : kernel.config)
      os << " " << name << "=" << value;
    for (const auto &[name, type] : kernel.configTypes)
      os << " " << name << "=" << type;
  }
  return os.str();
}

/// A family's kernels in description order, and the configurations (their
/// indices) of each C++ signature: one dispatcher overload per signature
/// (an element-type parameter of an argument makes several).
struct Family {
  std::string name;
  std::vector<const rt::KernelInfo *> kernels;
  std::vector<std::vector<size_t>> bySignature;
};

/// Every configuration of `group` states its grid: the dispatcher has an
/// overload without `grid`.
bool statesGrid(const Family &family, const std::vector<size_t> &group) {
  return std::all_of(group.begin(), group.end(),
                     [&](size_t i) { return bool(family.kernels[i]->grid); });
}

/// <family>_tuning() and, per C++ signature, <family>_tuned(): the table
/// embedded, and the configuration it gives the operands' shape launched
/// with the grid it states (the next one tunedKernels lists where a
/// configuration cannot take the operands). The generated locals start
/// with tile_ so that no argument name hides them.
void writeTuned(const rt::TuningTable &table, const Family &family,
                std::ostream &h, std::ostream &c) {
  const std::string &name = family.name;
  std::string key;
  for (const auto &[size, expression] : table.key)
    key += (key.empty() ? "" : ", ") + size + " = " + expression;
  size_t shapes = 0;
  for (const rt::TuningVariant &variant : table.variants)
    shapes += variant.shapes.size();
  h << "/// " << name << "'s tuning table, parsed at first use: tuned on "
    << (table.device.empty() ? "an unnamed device" : table.device) << " ("
    << table.sms << " SMs, " << table.chip << ", " << table.date << "), "
    << shapes << " shapes in " << table.variants.size() << " variant"
    << (table.variants.size() == 1 ? "" : "s") << ", keyed by " << key
    << ".\nconst tile::rt::TuningTable &" << name << "_tuning();\n";
  c << "\nnamespace {\nconst char k" << name << "Tuning[] = R\"tuning("
    << rt::serializeTuningTable(table) << ")tuning\";\n} // namespace\n\n"
    << "const tile::rt::TuningTable &" << name << "_tuning() {\n"
    << "  static const tile::rt::TuningTable table = "
       "tile::rt::parseTuningTable(k"
    << name << "Tuning);\n  return table;\n}\n";
  for (const std::vector<size_t> &group : family.bySignature) {
    const rt::KernelInfo &first = *family.kernels[group.front()];
    std::string args;
    for (const rt::ArgInfo &arg : *first.args)
      args += (args.empty() ? "" : ", ") + argumentName(arg);
    h << "/// The configuration of " << name
      << " that its tuning table gives these operands, bound with the grid\n"
         "/// it states: within the table's variant that `fixed` picks (the\n"
         "/// values of parameters it fixes; element types follow the\n"
         "/// arguments), the one measured at this shape, else the fastest\n"
         "/// by the table's cost models, else by near shapes; the next one\n"
         "/// where one cannot take the operands (tile::rt::tunedKernels).\n"
         "/// launch.info().name says which.\n"
      << "tile::rt::BoundLaunch " << name
      << "_tuned(const tile::rt::ParamValues &fixed, "
      << parameters(first, true, false) << ");\n\n";
    c << "\ntile::rt::BoundLaunch " << name
      << "_tuned(const tile::rt::ParamValues &fixed, "
      << parameters(first, false, false) << ") {\n"
      << "  static const std::vector<std::string> tile_eligible = {";
    for (size_t i : group)
      c << "\n      \"" << family.kernels[i]->name << "\",";
    c << "};\n"
      << "  const tile::rt::TuningTable &tile_table = " << name
      << "_tuning();\n"
      << "  std::vector<int64_t> tile_key = tile::rt::tuningKey(\n"
      << "      tile_table, module().info(tile_eligible.front()).args,\n"
      << "      tile::rt::gridInputsOf(" << args << "));\n"
      << "  std::string tile_why;\n"
      << "  for (const tile::rt::KernelInfo *tile_kernel :\n"
      << "       tile::rt::tunedKernels(tile_table, module().infos(),\n"
      << "                              tile_eligible, fixed, tile_key))\n"
      << "    for (std::size_t tile_i = 0; tile_i < " << name
      << "_config_count; ++tile_i) {\n"
      << "      if (tile_kernel->name != " << name
      << "_configs[tile_i].kernel)\n"
      << "        continue;\n"
      << "      try {\n"
      << "        return " << name << "(tile_i, "
      << argumentNames(first, false) << ");\n"
      << "      } catch (const tile::rt::Error &tile_error) {\n"
      << "        tile_why += std::string(\"\\n  \") + tile_error.what();\n"
      << "      }\n"
      << "    }\n"
      << "  throw tile::rt::Error(\"family " << name
      << ": no tuned configuration takes these operands:\" + tile_why);\n}\n";
  }
}
} // namespace

std::string tile::toIdentifier(const std::string &text) {
  std::string id;
  for (char c : text)
    id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0])))
    id = "_" + id;
  return id;
}

// One function, longer than the rest, on purpose: it writes the header and
// the source top to bottom, in the order a reader meets them in the
// generated files, each part a few lines of text around the helpers above;
// split, the order of the output would be spread over several functions.
std::optional<std::string> tile::generateLauncher(
    const std::vector<rt::KernelInfo> &kernels, const std::string &image,
    const std::string &kernelInfoText, const std::string &cppNamespace,
    const std::string &headerName, const std::vector<rt::TuningTable> &tables,
    LauncherSources &out) {
  // What cannot get a typed function is refused before anything is written.
  std::vector<Family> families;
  for (const rt::KernelInfo &kernel : kernels) {
    if (!rt::isIdentifier(kernel.name))
      return "kernel '" + kernel.name + "' is not a C++ identifier";
    if (!kernel.args)
      return "kernel '" + kernel.name +
             "' has no argument names and types in its description (an "
             "'args' record): compile it from tile IR";
    for (const rt::ArgInfo &arg : *kernel.args)
      if (!rt::isIdentifier(arg.name) || cppType(arg.type).empty())
        return "kernel '" + kernel.name + "' argument '" + arg.name +
               "' has no C++ name or type";
    if (kernel.family.empty())
      continue;
    auto it =
        std::find_if(families.begin(), families.end(),
                     [&](const Family &f) { return f.name == kernel.family; });
    if (it == families.end()) {
      families.push_back({kernel.family, {}});
      it = std::prev(families.end());
    }
    auto group = std::find_if(it->bySignature.begin(), it->bySignature.end(),
                              [&](const std::vector<size_t> &g) {
                                return cppSignature(*it->kernels[g.front()]) ==
                                       cppSignature(kernel);
                              });
    if (group == it->bySignature.end())
      group = it->bySignature.insert(group, std::vector<size_t>{});
    group->push_back(it->kernels.size());
    it->kernels.push_back(&kernel);
  }
  for (const Family &family : families) {
    if (!rt::isIdentifier(family.name))
      return "family '" + family.name + "' is not a C++ identifier";
    for (const rt::KernelInfo &kernel : kernels)
      if (kernel.name == family.name)
        return "family " + family.name + " is also the name of a kernel";
  }

  for (const rt::TuningTable &table : tables) {
    auto family =
        std::find_if(families.begin(), families.end(),
                     [&](const Family &f) { return f.name == table.family; });
    if (family == families.end())
      return "the tuning table of " + table.family +
             " names no family among the kernels";
    std::vector<size_t> all(family->kernels.size());
    for (size_t i = 0; i < all.size(); ++i)
      all[i] = i;
    if (!statesGrid(*family, all))
      return "family " + table.family +
             " has configurations that state no grid (tile.grid): its tuned "
             "launcher could not size their launch";
    for (const auto &[name, expression] : table.key)
      for (const std::vector<size_t> &group : family->bySignature)
        if (std::string why = rt::checkGridExpression(
                expression, family->kernels[group.front()]->args);
            !why.empty())
          return "the tuning table of " + table.family + ": key " + name +
                 " = " + expression + ": " + why;
    // The table is embedded as a raw string literal.
    if (rt::serializeTuningTable(table).find(")tuning\"") != std::string::npos)
      return "the tuning table of " + table.family +
             " contains ')tuning\"', which would end its embedded text";
  }

  std::string guard = "TILE_GENERATED_" + toIdentifier(cppNamespace) + "_H";
  std::transform(guard.begin(), guard.end(), guard.begin(),
                 [](unsigned char c) { return std::toupper(c); });

  std::ostringstream h;
  h << "// Generated by tile-translate --launcher: do not edit.\n"
    << "//\n"
    << "// Typed launchers for the kernels of one compiled tile module. Each\n"
    << "// function binds its kernel's arguments (checked against the\n"
    << "// kernel description), builds the TMA tensor maps it takes and\n"
    << "// returns a tile::rt::BoundLaunch; call launch() on it, and keep it\n"
    << "// until the kernel is done. Open a tile::rt::Device first: the\n"
    << "// embedded image is loaded on the current context at first use.\n\n"
    << "#ifndef " << guard << "\n#define " << guard << "\n\n"
    << "#include \"tile/Runtime/Launcher.h\"\n\n"
    << "#include <cstddef>\n#include <cstdint>\n\n"
    << "namespace " << cppNamespace << " {\n\n"
    << "/// The embedded image and kernel descriptions.\n"
    << "tile::rt::EmbeddedModule &module();\n"
    << "/// Loads the image now (else at the first launch) / releases it.\n"
    << "inline void load() { module().module(); }\n"
    << "inline void unload() { module().unload(); }\n\n";
  std::ostringstream c;
  c << "// Generated by tile-translate --launcher: do not edit.\n\n"
    << "#include \"" << headerName << "\"\n\n"
    << "namespace " << cppNamespace << " {\n\n"
    << "namespace {\n"
    << "// The image tile-translate compiled (" << image.size() << " bytes).\n"
    << "const unsigned char kImage[] = {";
  for (size_t i = 0; i < image.size(); ++i) {
    if (i % 16 == 0)
      c << "\n   ";
    c << " " << unsigned(static_cast<unsigned char>(image[i])) << ",";
  }
  // The description as a string literal; its text has no ')kinfo"'.
  c << "\n};\n\nconst char kKernelInfo[] = R\"kinfo(" << kernelInfoText
    << ")kinfo\";\n} // namespace\n\n"
    << "tile::rt::EmbeddedModule &module() {\n"
    << "  static tile::rt::EmbeddedModule embedded(kImage, sizeof(kImage), "
       "kKernelInfo);\n"
    << "  return embedded;\n}\n";

  for (const rt::KernelInfo &kernel : kernels) {
    // With a grid rule, a second function launches with the grid it gives.
    for (bool grid : {true, false}) {
      if (!grid && !kernel.grid)
        continue;
      if (grid)
        h << "/// @" << kernel.name << ": " << summary(kernel) << ".\n";
      else
        h << "/// @" << kernel.name
          << " with the grid it states: x = " << kernel.grid->x
          << ", y = " << kernel.grid->y << ", z = " << kernel.grid->z << ".\n";
      h << "tile::rt::BoundLaunch " << kernel.name << "("
        << parameters(kernel, true, grid) << ");\n\n";
      c << "\ntile::rt::BoundLaunch " << kernel.name << "("
        << parameters(kernel, false, grid) << ") {\n"
        << "  tile::rt::EmbeddedModule &m = module();\n"
        << "  tile::rt::BoundLaunch launch(m.module(), m.info(\"" << kernel.name
        << "\"));\n";
      for (const rt::ArgInfo &arg : *kernel.args)
        c << "  launch.arg(" << argumentName(arg) << ");\n";
      c << "  launch.grid(" << (grid ? "grid, " : "")
        << "stream);\n  return launch;\n}\n";
    }
  }

  for (const Family &family : families) {
    const rt::KernelInfo &first = *family.kernels.front();
    std::string config = family.name + "_config";
    h << "/// Family " << family.name << ": " << family.kernels.size()
      << " configuration" << (family.kernels.size() > 1 ? "s" : "")
      << ", each a kernel above.\n"
      << "struct " << config << " {\n  const char *kernel;\n";
    for (const auto &[name, value] : first.config)
      h << "  int64_t " << name << ";\n";
    for (const auto &[name, type] : first.configTypes)
      h << "  const char *" << name << "; // an element type\n";
    h << "};\n"
      << "inline constexpr std::size_t " << family.name
      << "_config_count = " << family.kernels.size() << ";\n"
      << "extern const " << config << " " << family.name << "_configs["
      << family.kernels.size() << "];\n";
    for (const std::vector<size_t> &group : family.bySignature) {
      const rt::KernelInfo &first = *family.kernels[group.front()];
      for (bool grid : {true, false}) {
        if (!grid && !statesGrid(family, group))
          continue;
        std::string which =
            family.bySignature.size() == 1
                ? std::string()
                : " (for the " + std::to_string(group.size()) + " of " +
                      std::to_string(family.kernels.size()) +
                      " configurations that take these argument types; any "
                      "other throws)";
        h << "/// The kernel of configuration `config` (an index into "
          << family.name << "_configs), bound" << which
          << (grid ? "" : ", with the grid it states") << ".\n"
          << "tile::rt::BoundLaunch " << family.name << "(std::size_t config, "
          << parameters(first, true, grid) << ");\n"
          << "/// The configuration `choose(" << family.name << "_configs, "
          << family.name << "_config_count)` picks (an index), bound.\n"
          << "template <typename Chooser>\n"
          << "tile::rt::BoundLaunch " << family.name
          << "_choose(Chooser &&choose, " << parameters(first, true, grid)
          << ") {\n"
          << "  return " << family.name << "(static_cast<std::size_t>(choose("
          << family.name << "_configs, " << family.name << "_config_count)), "
          << argumentNames(first, grid) << ");\n}\n\n";
      }
    }

    c << "\nconst " << config << " " << family.name << "_configs["
      << family.kernels.size() << "] = {\n";
    for (const rt::KernelInfo *kernel : family.kernels) {
      c << "    {\"" << kernel->name << "\"";
      for (const auto &[name, value] : kernel->config)
        c << ", " << value;
      for (const auto &[name, type] : kernel->configTypes)
        c << ", \"" << type << "\"";
      c << "},\n";
    }
    c << "};\n";
    for (const std::vector<size_t> &group : family.bySignature) {
      const rt::KernelInfo &first = *family.kernels[group.front()];
      for (bool grid : {true, false}) {
        if (!grid && !statesGrid(family, group))
          continue;
        c << "\ntile::rt::BoundLaunch " << family.name
          << "(std::size_t config, " << parameters(first, false, grid)
          << ") {\n"
          << "  switch (config) {\n";
        for (size_t i : group)
          c << "  case " << i << ":\n    return " << family.kernels[i]->name
            << "(" << argumentNames(first, grid) << ");\n";
        c << "  }\n";
        if (group.size() != family.kernels.size())
          c << "  if (config < " << family.kernels.size()
            << ")\n    throw tile::rt::Error(\"family " << family.name
            << ": configuration \" + std::to_string(config) + \" (\" + "
            << family.name << "_configs[config].kernel + \") takes other "
            << "argument types than (" << cppSignature(first) << ")\");\n";
        c << "  throw tile::rt::Error(\"family " << family.name
          << ": no configuration \" + std::to_string(config) + \" (it has "
          << family.kernels.size() << ")\");\n}\n";
      }
    }
  }
  for (const rt::TuningTable &table : tables)
    writeTuned(table,
               *std::find_if(families.begin(), families.end(),
                             [&](const Family &f) {
                               return f.name == table.family;
                             }),
               h, c);
  h << "} // namespace " << cppNamespace << "\n\n#endif // " << guard << "\n";
  c << "\n} // namespace " << cppNamespace << "\n";
  out.header = h.str();
  out.source = c.str();
  return std::nullopt;
}
