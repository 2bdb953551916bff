//===- Tuning.cpp - tuning tables: reading, writing, choosing -------------===//
//
// Linked into the compiler, tile-tune and the runtime (KernelInfo.cmake), so
// it uses nothing but the C++ standard library.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Tuning.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <locale>
#include <sstream>

using namespace tile::rt;

std::string tile::rt::formatParamValues(const ParamValues &values, char sep) {
  std::string text;
  for (const ParamValue &v : values)
    text += (text.empty() ? "" : std::string(1, sep)) + v.name + "=" + v.value;
  return text;
}

ParamValues tile::rt::parseParamValues(const std::string &text, char sep) {
  ParamValues values;
  std::stringstream list(text);
  std::string item;
  while (std::getline(list, item, sep)) {
    if (item.empty())
      continue;
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq + 1 == item.size())
      throw Error("'" + item + "' is not NAME=VALUE");
    std::string name = item.substr(0, eq);
    if (!isIdentifier(name))
      throw Error("'" + name + "' is not a parameter name");
    for (const ParamValue &v : values)
      if (v.name == name)
        throw Error("parameter " + name + " is given twice");
    values.emplace_back(name, item.substr(eq + 1));
  }
  return values;
}

//===----------------------------------------------------------------------===//
// Reading and writing
//===----------------------------------------------------------------------===//

namespace {
[[noreturn]] void fail(int line, const std::string &what) {
  throw Error("tuning:" + std::to_string(line) + ": " + what);
}

/// A decimal number read the same in any locale (the C one), or none.
std::optional<double> readNumber(const std::string &word) {
  std::istringstream in(word);
  in.imbue(std::locale::classic());
  double value = 0;
  char extra = 0;
  if (word.empty() || !(in >> value) || in >> extra || !std::isfinite(value))
    return std::nullopt;
  return value;
}

/// A time in microseconds: non-negative, at most 10^12 (11.6 days).
double readTime(const std::string &word, int line) {
  std::optional<double> value = readNumber(word);
  if (!value || *value < 0 || *value > 1e12)
    fail(line, "'" + word + "' is not a time in microseconds (0 to 1e12)");
  return *value;
}

/// A size: a decimal integer in [0, 2^40].
int64_t readSize(const std::string &word, int line) {
  if (word.empty() || word.size() > 13 ||
      word.find_first_not_of("0123456789") != std::string::npos ||
      std::stoll(word) > (int64_t(1) << 40))
    fail(line, "'" + word + "' is not a size (an integer in [0, 2^40])");
  return std::stoll(word);
}

/// Two variants' fixed values as sets: equal, or the first's within the
/// second's.
bool sameValues(const ParamValues &a, const ParamValues &b) {
  return a.size() == b.size() &&
         std::all_of(a.begin(), a.end(), [&](const ParamValue &v) {
           return std::find(b.begin(), b.end(), v) != b.end();
         });
}
bool withinValues(const ParamValues &a, const ParamValues &b) {
  return std::all_of(a.begin(), a.end(), [&](const ParamValue &v) {
    return std::find(b.begin(), b.end(), v) != b.end();
  });
}

/// Refuses `config` (a shape's or a model's) setting a value `variant`
/// fixes.
void checkOwnValues(const TuningVariant &variant, const ParamValues &config,
                    int line) {
  for (const ParamValue &v : config)
    for (const ParamValue &f : variant.fixed)
      if (v.name == f.name)
        fail(line, "the configuration sets " + v.name +
                       ", which its variant fixes");
}

std::string restOf(std::istringstream &in) {
  std::string rest;
  std::getline(in >> std::ws, rest);
  while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.back())))
    rest.pop_back();
  return rest;
}
} // namespace

TuningTable tile::rt::parseTuningTable(const std::string &text) {
  TuningTable table;
  std::istringstream lines(text);
  std::string raw;
  int line = 0;
  bool seenRecord = false;
  while (std::getline(lines, raw)) {
    ++line;
    std::string note;
    if (size_t hash = raw.find('#'); hash != std::string::npos) {
      note = raw.substr(hash + 1);
      raw = raw.substr(0, hash);
      note.erase(0, note.find_first_not_of(' '));
    }
    std::istringstream in(raw);
    in.imbue(std::locale::classic());
    std::string record;
    if (!(in >> record)) {
      if (!seenRecord && raw.find_first_not_of(" \t\r") == std::string::npos &&
          !note.empty())
        table.comments.push_back(note);
      continue;
    }
    seenRecord = true;
    if (record == "family" || record == "chip" || record == "device" ||
        record == "date" || record == "reference") {
      std::string value = restOf(in);
      if (value.empty())
        fail(line, record + " needs a value");
      std::string &field = record == "family"   ? table.family
                           : record == "chip"   ? table.chip
                           : record == "device" ? table.device
                           : record == "date"   ? table.date
                                                : table.reference;
      if (!field.empty())
        fail(line, "a second " + record + " record");
      if (record == "family" && !isIdentifier(value))
        fail(line, "family '" + value + "' is not an identifier");
      field = value;
    } else if (record == "sms") {
      std::string word;
      in >> word;
      table.sms = readSize(word, line);
      if (table.sms == 0 || !restOf(in).empty())
        fail(line, "sms takes one positive count");
    } else if (record == "key") {
      if (!table.key.empty())
        fail(line, "a second key record");
      std::string item;
      while (in >> item) {
        size_t eq = item.find('=');
        std::string name = item.substr(0, eq);
        if (eq == std::string::npos || !isIdentifier(name))
          fail(line, "key entries are NAME=EXPRESSION, got '" + item + "'");
        std::string expression = item.substr(eq + 1);
        if (std::string why = checkGridExpression(expression, std::nullopt);
            !why.empty())
          fail(line, "key " + name + " = " + expression + ": " + why);
        table.key.emplace_back(name, expression);
      }
      if (table.key.empty())
        fail(line, "key names at least one size");
    } else if (record == "variant") {
      TuningVariant variant;
      std::string item;
      while (in >> item) {
        try {
          ParamValues one = parseParamValues(item);
          for (ParamValue &v : one) {
            for (const ParamValue &had : variant.fixed)
              if (had.name == v.name)
                fail(line, "variant fixes " + v.name + " twice");
            variant.fixed.push_back(std::move(v));
          }
        } catch (const Error &e) {
          if (std::string(e.what()).rfind("tuning:", 0) == 0)
            throw;
          fail(line, e.what());
        }
      }
      // Each variant must be the only one a caller's values can pick: no
      // two alike, none whose values are all another's too.
      for (const TuningVariant &other : table.variants) {
        if (sameValues(other.fixed, variant.fixed))
          fail(line, "variant " + formatParamValues(variant.fixed, ' ') +
                         " is listed twice");
        if (withinValues(other.fixed, variant.fixed) ||
            withinValues(variant.fixed, other.fixed))
          fail(line, "variant " + formatParamValues(variant.fixed, ' ') +
                         " and variant " + formatParamValues(other.fixed, ' ') +
                         " cannot be told apart: one fixes all the other "
                         "fixes");
      }
      table.variants.push_back(std::move(variant));
    } else if (record == "shape") {
      if (table.key.empty())
        fail(line, "a shape before the key record");
      if (table.variants.empty())
        fail(line, "a shape before the first variant record");
      TunedShape shape;
      shape.line = line;
      shape.note = note;
      std::vector<std::string> words;
      std::string word;
      while (in >> word)
        words.push_back(word);
      if (words.size() != table.key.size() + 3)
        fail(line, "a shape is " + std::to_string(table.key.size()) +
                       " key sizes, a configuration and two times; got " +
                       std::to_string(words.size()) + " fields");
      for (size_t i = 0; i < table.key.size(); ++i)
        shape.key.push_back(readSize(words[i], line));
      try {
        shape.config = parseParamValues(words[table.key.size()]);
      } catch (const Error &e) {
        fail(line, e.what());
      }
      TuningVariant &variant = table.variants.back();
      checkOwnValues(variant, shape.config, line);
      shape.timeUs = readTime(words[table.key.size() + 1], line);
      shape.referenceUs = readTime(words[table.key.size() + 2], line);
      for (const TunedShape &other : variant.shapes)
        if (other.key == shape.key)
          fail(line, "this shape is already listed (line " +
                         std::to_string(other.line) + ")");
      variant.shapes.push_back(std::move(shape));
    } else if (record == "model") {
      if (table.variants.empty())
        fail(line, "a model before the first variant record");
      CostModel model;
      model.line = line;
      std::string config, a, b, c, extra;
      if (!(in >> config >> a >> b >> c) || in >> extra)
        fail(line, "a model is a configuration and three coefficients");
      try {
        model.config = parseParamValues(config);
      } catch (const Error &e) {
        fail(line, e.what());
      }
      double *coefficients[] = {&model.a, &model.b, &model.c};
      const std::string *words[] = {&a, &b, &c};
      for (int i = 0; i < 3; ++i) {
        std::optional<double> value = readNumber(*words[i]);
        if (!value || *value < 0)
          fail(line, "'" + *words[i] + "' is not a non-negative coefficient");
        *coefficients[i] = *value;
      }
      TuningVariant &variant = table.variants.back();
      checkOwnValues(variant, model.config, line);
      for (const CostModel &other : variant.models)
        if (other.config == model.config)
          fail(line, "this configuration's model is already listed (line " +
                         std::to_string(other.line) + ")");
      variant.models.push_back(std::move(model));
    } else {
      fail(line, "unknown record '" + record +
                     "' (family, chip, device, sms, date, reference, key, "
                     "variant, shape, model)");
    }
  }
  if (table.family.empty())
    fail(line, "the table names no family");
  if (table.key.empty())
    fail(line, "the table has no key record");
  return table;
}

TuningTable tile::rt::loadTuningTable(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(path + ": cannot read the tuning table");
  std::stringstream text;
  text << in.rdbuf();
  try {
    return parseTuningTable(text.str());
  } catch (const Error &e) {
    throw Error(path + ": " + e.what());
  }
}

std::optional<ParamValues>
tile::rt::parseParamValues(const std::string &text, std::string &error) {
  try {
    return parseParamValues(text);
  } catch (const Error &e) {
    error = e.what();
    return std::nullopt;
  }
}

std::optional<TuningTable> tile::rt::loadTuningTable(const std::string &path,
                                                     std::string &error) {
  try {
    return loadTuningTable(path);
  } catch (const Error &e) {
    error = e.what();
    return std::nullopt;
  }
}

std::string tile::rt::serializeTuningTable(const TuningTable &table) {
  std::ostringstream os;
  os.imbue(std::locale::classic());
  for (const std::string &comment : table.comments)
    os << "# " << comment << '\n';
  os << "family " << table.family << '\n';
  if (!table.chip.empty())
    os << "chip " << table.chip << '\n';
  if (!table.device.empty())
    os << "device " << table.device << '\n';
  if (table.sms)
    os << "sms " << table.sms << '\n';
  if (!table.date.empty())
    os << "date " << table.date << '\n';
  if (!table.reference.empty())
    os << "reference " << table.reference << '\n';
  os << "key";
  for (const auto &[name, expression] : table.key)
    os << ' ' << name << '=' << expression;
  os << '\n';
  for (const TuningVariant &variant : table.variants) {
    os << "variant";
    if (!variant.fixed.empty())
      os << ' ' << formatParamValues(variant.fixed, ' ');
    os << '\n';
    for (const TunedShape &shape : variant.shapes) {
      os << "shape";
      for (int64_t size : shape.key)
        os << ' ' << size;
      os << ' ' << formatParamValues(shape.config) << std::fixed
         << std::setprecision(1) << ' ' << shape.timeUs << ' '
         << shape.referenceUs << std::defaultfloat;
      if (!shape.note.empty())
        os << "  # " << shape.note;
      os << '\n';
    }
    for (const CostModel &model : variant.models) {
      os << "model " << formatParamValues(model.config)
         << std::setprecision(4) << ' ' << model.a << ' ' << model.b << ' '
         << model.c << '\n';
    }
  }
  return os.str();
}

//===----------------------------------------------------------------------===//
// Choosing
//===----------------------------------------------------------------------===//

namespace {
/// A configuration within a variant, as the family's whole configuration:
/// the variant's values, then its own.
ParamValues withFixed(const TuningVariant &variant, const ParamValues &config) {
  ParamValues values = variant.fixed;
  values.insert(values.end(), config.begin(), config.end());
  return values;
}

/// A parameter's value as an integer where it is one (a flag as true or
/// false, 0x.. and 0.. as the compiler reads them), or none (a type).
std::optional<int64_t> integerValue(const std::string &text) {
  if (text == "true" || text == "false")
    return text == "true";
  if (text.empty())
    return std::nullopt;
  errno = 0;
  char *end = nullptr;
  long long value = std::strtoll(text.c_str(), &end, 0);
  if (*end || errno)
    return std::nullopt;
  return value;
}

/// The same parameter at the same value (integers compared as numbers).
bool sameValue(const ParamValue &a, const ParamValue &b) {
  if (a.name != b.name)
    return false;
  std::optional<int64_t> x = integerValue(a.value), y = integerValue(b.value);
  return x && y ? *x == *y : a.value == b.value;
}
} // namespace

std::vector<ParamValues> tile::rt::tunedConfigurations(const TuningTable &table) {
  std::vector<ParamValues> configs;
  auto add = [&](const TuningVariant &variant, const ParamValues &config) {
    ParamValues values = withFixed(variant, config);
    if (std::find(configs.begin(), configs.end(), values) == configs.end())
      configs.push_back(std::move(values));
  };
  for (const TuningVariant &variant : table.variants) {
    for (const TunedShape &shape : variant.shapes)
      add(variant, shape.config);
    for (const CostModel &model : variant.models)
      add(variant, model.config);
  }
  return configs;
}

bool tile::rt::kernelHasConfig(const KernelInfo &kernel,
                               const std::string &family,
                               const ParamValues &values) {
  if (kernel.family != family)
    return false;
  for (const ParamValue &v : values) {
    auto integer = std::find_if(kernel.config.begin(), kernel.config.end(),
                                [&](const auto &c) { return c.first == v.name; });
    if (integer != kernel.config.end()) {
      // As the compiler read it: BIAS=true is BIAS=1, BM=0x80 is 128.
      std::optional<int64_t> value = integerValue(v.value);
      if (!value || *value != integer->second)
        return false;
      continue;
    }
    auto type =
        std::find_if(kernel.configTypes.begin(), kernel.configTypes.end(),
                     [&](const auto &c) { return c.first == v.name; });
    if (type == kernel.configTypes.end() || type->second != v.value)
      return false;
  }
  return true;
}

std::vector<int64_t>
tile::rt::tuningKey(const TuningTable &table,
                    const std::optional<std::vector<ArgInfo>> &args,
                    const GridInputs &inputs) {
  std::vector<int64_t> key;
  for (const auto &[name, expression] : table.key) {
    try {
      key.push_back(evaluateHostExpression(expression, args, inputs));
    } catch (const Error &e) {
      throw Error("tuning table of " + table.family + ": key " + name + " = " +
                  e.what());
    }
  }
  return key;
}

namespace {
double shapeDistance(const std::vector<int64_t> &a,
                     const std::vector<int64_t> &b) {
  double distance = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    distance += std::fabs(std::log(double(std::max<int64_t>(a[i], 1))) -
                          std::log(double(std::max<int64_t>(b[i], 1))));
  return distance;
}

/// The launch inputs a shape gives when every key size is a memref
/// dimension (dim(I,D)); the other sizes are 1. False when a key size is
/// another expression.
bool inputsOfKey(const TuningTable &table, const std::vector<int64_t> &key,
                 GridInputs &inputs, int64_t filler = 1) {
  for (size_t i = 0; i < table.key.size() && i < key.size(); ++i) {
    unsigned arg = 0, dim = 0;
    const std::string &expression = table.key[i].second;
    if (std::sscanf(expression.c_str(), "dim(%u,%u)", &arg, &dim) != 2 ||
        arg > 64 || dim > 8 ||
        expression != "dim(" + std::to_string(arg) + "," +
                          std::to_string(dim) + ")")
      return false;
    if (inputs.sizes.size() <= arg)
      inputs.sizes.resize(arg + 1);
    if (inputs.sizes[arg].size() <= dim)
      inputs.sizes[arg].resize(dim + 1, filler);
    inputs.sizes[arg][dim] = key[i];
  }
  // Every argument a rule may read (dimensions up to 8), unnamed ones at
  // `filler`.
  inputs.sizes.resize(std::max<size_t>(inputs.sizes.size(), 65));
  for (std::vector<int64_t> &sizes : inputs.sizes)
    sizes.resize(8, filler);
  inputs.scalars.assign(inputs.sizes.size(), filler);
  return true;
}

/// How much `kernel` has to do at a shape, in units of its time: the
/// waves of CTAs times each CTA's share of the work (costFeatures); NaN
/// when that cannot be worked out.
double waveWork(const TuningTable &table, const KernelInfo &kernel,
                const std::vector<int64_t> &key) {
  std::optional<std::vector<double>> features =
      costFeatures(table, kernel, key);
  return features ? (*features)[0] : std::nan("");
}

/// `kernel`'s time at `key`, from its time at the measured `shape` scaled
/// by the work in waves each needs (waveWork): a wave left part idle costs
/// as much as a full one. NaN when that cannot be worked out.
double estimatedUs(const TuningTable &table, const KernelInfo &kernel,
                   const TunedShape &shape, const std::vector<int64_t> &key) {
  double there = waveWork(table, kernel, shape.key);
  double here = waveWork(table, kernel, key);
  if (std::isnan(there) || std::isnan(here) || there <= 0)
    return std::nan("");
  return shape.timeUs * here / there;
}

/// The model's time for `features`.
double modelled(const CostModel &model, const std::vector<double> &features) {
  return model.a * features[0] + model.b * features[1] + model.c * features[2];
}

/// Whether `kernel` is among `eligible` and configuration `values` of
/// `family`.
bool isEligible(const KernelInfo &kernel,
                const std::vector<std::string> &eligible,
                const std::string &family, const ParamValues &values) {
  return std::find(eligible.begin(), eligible.end(), kernel.name) !=
             eligible.end() &&
         kernelHasConfig(kernel, family, values);
}

/// The eligible kernel of `family` with configuration `values`, or null.
const KernelInfo *findEligible(const std::vector<KernelInfo> &infos,
                               const std::vector<std::string> &eligible,
                               const std::string &family,
                               const ParamValues &values) {
  for (const KernelInfo &kernel : infos)
    if (isEligible(kernel, eligible, family, values))
      return &kernel;
  return nullptr;
}
} // namespace

std::optional<std::vector<double>>
tile::rt::costFeatures(const TuningTable &table, const KernelInfo &kernel,
                       const std::vector<int64_t> &key) {
  if (!kernel.grid || table.sms <= 0)
    return std::nullopt;
  // The CTAs of `kernel` at `sizes` (0 when the kernel refuses them, none
  // when the rule cannot be evaluated, or reads a size or scalar the key
  // does not name: it then differs with those at 1 and at 2), with
  // unbounded SMs: a persistent kernel's min(tiles, sms) is then its tiles.
  auto ctasAt = [&](const std::vector<int64_t> &sizes) -> std::optional<double> {
    double ctas[2] = {1, 1};
    for (int filler : {1, 2}) {
      GridInputs inputs;
      if (!inputsOfKey(table, sizes, inputs, filler))
        return std::nullopt;
      inputs.sms = int64_t(1) << 40;
      try {
        for (const std::string *rule :
             {&kernel.grid->x, &kernel.grid->y, &kernel.grid->z})
          ctas[filler - 1] *=
              double(evaluateHostExpression(*rule, kernel.args, inputs));
      } catch (const Error &) {
        return std::nullopt;
      }
    }
    if (ctas[0] != ctas[1])
      return std::nullopt;
    return ctas[0];
  };
  std::optional<double> ctas = ctasAt(key);
  if (!ctas || *ctas < 1) // the kernel refuses the shape
    return std::nullopt;
  // A CTA's work with its tile padded: the key's volume over the CTAs at
  // a shape whose tiled sizes (those that change the CTA count when
  // scaled) are 1024 times larger, where partial tiles no longer count.
  std::vector<int64_t> large = key;
  for (size_t i = 0; i < key.size(); ++i) {
    if (key[i] > (int64_t(1) << 40))
      return std::nullopt; // no realistic launch; keeps the scaling exact
    std::vector<int64_t> scaled = key;
    scaled[i] = std::max<int64_t>(key[i], 1) * 1024;
    std::optional<double> more = ctasAt(scaled);
    if (more && *more >= 1 && *more != *ctas)
      large[i] = scaled[i];
  }
  std::optional<double> largeCtas = ctasAt(large);
  if (!largeCtas || *largeCtas < 1)
    return std::nullopt;
  double volume = 1;
  for (int64_t size : large)
    volume *= double(std::max<int64_t>(size, 1));
  double tileWork = volume / *largeCtas;
  double waves = std::ceil(*ctas / double(table.sms));
  return std::vector<double>{waves * tileWork, waves, 1.0};
}

std::optional<CostModel> tile::rt::fitCostModel(
    const std::vector<std::pair<std::vector<double>, double>> &given) {
  std::vector<std::pair<std::vector<double>, double>> samples;
  for (const auto &sample : given)
    if (sample.second > 0 && sample.first.size() == 3 &&
        std::all_of(sample.first.begin(), sample.first.end(),
                    [](double f) { return std::isfinite(f) && f >= 0; }))
      samples.push_back(sample);
  if (samples.size() < 2)
    return std::nullopt;
  std::optional<CostModel> best;
  double bestResidual = 0;
  // Each subset of the three terms (bit i: term i), solved by the normal
  // equations of sum(((f . x) - t) / t)^2; kept when every coefficient is
  // non-negative.
  for (int subset = 1; subset < 8; ++subset) {
    std::vector<int> terms;
    for (int i = 0; i < 3; ++i)
      if (subset & (1 << i))
        terms.push_back(i);
    size_t n = terms.size();
    if (samples.size() < n)
      continue;
    // Each term scaled to at most 1 over the samples, so that the
    // singularity test below compares like with like.
    double scale[3] = {0, 0, 0};
    for (const auto &[features, time] : samples)
      for (size_t i = 0; i < n; ++i)
        scale[i] = std::max(scale[i], features[terms[i]] / time);
    if (std::any_of(scale, scale + n, [](double v) { return v <= 0; }))
      continue;
    double m[3][4] = {};
    for (const auto &[features, time] : samples) {
      for (size_t i = 0; i < n; ++i) {
        double fi = features[terms[i]] / time / scale[i];
        for (size_t j = 0; j < n; ++j)
          m[i][j] += fi * features[terms[j]] / time / scale[j];
        m[i][n] += fi;
      }
    }
    // Gaussian elimination with partial pivoting; a pivot negligible
    // beside the matrix's largest entry is a singular system (collinear
    // terms), whose solution would be arbitrary.
    double largest = 0;
    for (size_t r = 0; r < n; ++r)
      for (size_t k = 0; k < n; ++k)
        largest = std::max(largest, std::fabs(m[r][k]));
    bool singular = largest == 0;
    for (size_t col = 0; col < n && !singular; ++col) {
      size_t pivot = col;
      for (size_t r = col + 1; r < n; ++r)
        if (std::fabs(m[r][col]) > std::fabs(m[pivot][col]))
          pivot = r;
      if (std::fabs(m[pivot][col]) <= 1e-12 * largest) {
        singular = true;
        break;
      }
      std::swap(m[col], m[pivot]);
      for (size_t r = 0; r < n; ++r) {
        if (r == col)
          continue;
        double factor = m[r][col] / m[col][col];
        for (size_t k = col; k <= n; ++k)
          m[r][k] -= factor * m[col][k];
      }
    }
    if (singular)
      continue;
    double x[3] = {0, 0, 0};
    bool negative = false;
    for (size_t i = 0; i < n; ++i) {
      x[terms[i]] = m[i][n] / m[i][i] / scale[i];
      negative |= !(x[terms[i]] >= 0);
    }
    if (negative)
      continue;
    CostModel model;
    model.a = x[0], model.b = x[1], model.c = x[2];
    double residual = 0;
    for (const auto &[features, time] : samples) {
      double r = (modelled(model, features) - time) / time;
      residual += r * r;
    }
    if (!best || residual < bestResidual) {
      best = model;
      bestResidual = residual;
    }
  }
  return best;
}

std::vector<const KernelInfo *>
tile::rt::tunedKernels(const TuningTable &table,
                       const std::vector<KernelInfo> &infos,
                       const std::vector<std::string> &eligible,
                       const ParamValues &fixed,
                       const std::vector<int64_t> &key) {
  // The variants that agree with `fixed` and have a kernel among `eligible`.
  std::vector<const TuningVariant *> matching;
  for (const TuningVariant &variant : table.variants) {
    bool agrees = std::all_of(fixed.begin(), fixed.end(), [&](const auto &v) {
      return std::any_of(variant.fixed.begin(), variant.fixed.end(),
                         [&](const ParamValue &f) { return sameValue(f, v); });
    });
    if (agrees && findEligible(infos, eligible, table.family, variant.fixed))
      matching.push_back(&variant);
  }
  std::string asked = fixed.empty() ? "no fixed values"
                                    : formatParamValues(fixed, ' ');
  if (matching.empty()) {
    std::string listed;
    for (const TuningVariant &variant : table.variants)
      listed += "\n  " + formatParamValues(variant.fixed, ' ');
    throw Error("tuning table of " + table.family + ": no variant has " +
                asked + " and takes these argument types; it lists:" +
                listed);
  }
  if (matching.size() > 1) {
    // Name the parameters whose values are not the same in every
    // candidate (set in some only, or set differently).
    std::vector<std::string> differ;
    for (const TuningVariant *one : matching)
      for (const ParamValue &v : one->fixed) {
        bool everywhere = std::all_of(
            matching.begin(), matching.end(), [&](const TuningVariant *other) {
              return std::any_of(other->fixed.begin(), other->fixed.end(),
                                 [&](const ParamValue &f) {
                                   return sameValue(f, v);
                                 });
            });
        if (!everywhere &&
            std::find(differ.begin(), differ.end(), v.name) == differ.end())
          differ.push_back(v.name);
      }
    std::string names;
    for (const std::string &name : differ)
      names += (names.empty() ? "" : ", ") + name;
    throw Error("tuning table of " + table.family + ": " +
                std::to_string(matching.size()) + " variants have " + asked +
                " and take these argument types: give " + names);
  }
  const TuningVariant &variant = *matching.front();
  // Each shape's kernel, with its time at `key` estimated from the
  // measured one (estimatedUs), and its distance from `key`.
  struct Candidate {
    const KernelInfo *kernel;
    double distance, estimate;
  };
  std::vector<Candidate> candidates;
  for (const TunedShape &shape : variant.shapes) {
    const KernelInfo *kernel = findEligible(infos, eligible, table.family,
                                            withFixed(variant, shape.config));
    if (!kernel)
      continue;
    double distance = shapeDistance(shape.key, key);
    double estimate = distance == 0
                          ? -1.0 // measured at this very shape: first
                          : estimatedUs(table, *kernel, shape, key);
    candidates.push_back({kernel, distance, estimate});
  }
  // A configuration's nearest measured shape speaks for it.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate &a, const Candidate &b) {
                     return a.distance < b.distance;
                   });
  std::vector<Candidate> nearest;
  for (const Candidate &c : candidates)
    if (std::none_of(nearest.begin(), nearest.end(), [&](const Candidate &n) {
          return n.kernel == c.kernel;
        }))
      nearest.push_back(c);
  // Estimates from shapes far from `key` (more than twice the nearest
  // one's distance in size ratio) are not trusted: those follow, nearest
  // first, as do those no estimate could be made for (NaN); the trusted
  // ones lead, fastest estimate first.
  double trusted = nearest.empty() ? 0 : nearest.front().distance + std::log(2.0);
  for (Candidate &c : nearest)
    if (c.distance > trusted)
      c.estimate = std::nan("");
  std::stable_sort(nearest.begin(), nearest.end(),
                   [](const Candidate &a, const Candidate &b) {
                     bool aKnown = !std::isnan(a.estimate);
                     bool bKnown = !std::isnan(b.estimate);
                     if (aKnown != bKnown)
                       return aKnown;
                     return aKnown && a.estimate < b.estimate;
                   });
  std::vector<const KernelInfo *> kernels;
  auto add = [&](const KernelInfo *kernel) {
    if (kernel && std::find(kernels.begin(), kernels.end(), kernel) ==
                      kernels.end())
      kernels.push_back(kernel);
  };
  // A shape measured at `key` itself keeps its measured configuration.
  if (!nearest.empty() && nearest.front().estimate < 0)
    add(nearest.front().kernel);
  // The modelled configurations, by modelled time.
  std::vector<std::pair<double, const KernelInfo *>> byModel;
  for (const CostModel &model : variant.models) {
    const KernelInfo *kernel = findEligible(infos, eligible, table.family,
                                            withFixed(variant, model.config));
    if (!kernel)
      continue;
    if (std::optional<std::vector<double>> features =
            costFeatures(table, *kernel, key))
      byModel.emplace_back(modelled(model, *features), kernel);
  }
  std::stable_sort(byModel.begin(), byModel.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  for (const auto &[time, kernel] : byModel)
    add(kernel);
  for (const Candidate &c : nearest)
    add(c.kernel);
  for (const KernelInfo &kernel : infos)
    if (isEligible(kernel, eligible, table.family, variant.fixed))
      add(&kernel);
  return kernels;
}

//===----------------------------------------------------------------------===//
// Problem shapes
//===----------------------------------------------------------------------===//

std::vector<ProblemShape> tile::rt::loadProblemShapes(const std::string &source,
                                                      size_t rank) {
  std::vector<ProblemShape> shapes;
  auto add = [&](std::vector<int64_t> sizes, std::string what,
                 const std::string &where) {
    if (sizes.size() != rank ||
        std::any_of(sizes.begin(), sizes.end(), [](int64_t s) {
          return s <= 0 || s > (int64_t(1) << 20);
        }))
      throw Error(where + ": a shape is " + std::to_string(rank) +
                  " sizes in [1, 2^20]");
    for (const ProblemShape &other : shapes)
      if (other.sizes == sizes)
        throw Error(where + ": this shape is listed twice");
    shapes.push_back({std::move(sizes), std::move(what)});
  };
  bool isList = !source.empty() &&
                source.find_first_not_of("0123456789x,") == std::string::npos;
  if (!isList) {
    std::ifstream in(source);
    if (!in)
      throw Error(source + ": cannot read the shape file (or write shapes "
                           "as AxBxC,...)");
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::string what;
      if (size_t hash = line.find('#'); hash != std::string::npos) {
        what = line.substr(hash + 1);
        what.erase(0, what.find_first_not_of(' '));
        line = line.substr(0, hash);
      }
      std::istringstream words(line);
      std::vector<int64_t> sizes;
      std::string word;
      while (words >> word) {
        if (word.size() > 9 ||
            word.find_first_not_of("0123456789") != std::string::npos)
          throw Error(source + ":" + std::to_string(number) + ": '" + word +
                      "' is not a size");
        sizes.push_back(std::stoll(word));
      }
      if (!sizes.empty())
        add(std::move(sizes), what, source + ":" + std::to_string(number));
    }
    if (shapes.empty())
      throw Error(source + ": lists no shape");
    return shapes;
  }
  std::stringstream list(source);
  std::string item;
  while (std::getline(list, item, ',')) {
    std::vector<int64_t> sizes;
    if (item.empty() || item.back() == 'x')
      throw Error("'" + item + "' is not a shape AxBxC");
    std::stringstream dims(item);
    std::string dim;
    while (std::getline(dims, dim, 'x')) {
      if (dim.empty() || dim.size() > 9)
        throw Error("'" + item + "' is not a shape AxBxC");
      sizes.push_back(std::stoll(dim));
    }
    add(std::move(sizes), "given", "'" + item + "'");
  }
  return shapes;
}
