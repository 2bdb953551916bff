//===- TunedDispatch.cpp - the configuration a tuning table gives a shape -===//
//
// tunedKernels (the order the generated <family>_tuned tries the
// configurations in), the cost models' features and fit, and the
// configurations a table names (include/tile/Runtime/Tuning.h). Linked
// into the compiler, tile-tune and the runtime (KernelInfo.cmake), so it
// uses nothing but the C++ standard library.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Tuning.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

using namespace tile::rt;

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
/// How far apart two shapes are: the sum of their sizes' log ratios; a
/// zero (a flag off) and a non-zero size count as a factor of 2 apart.
double shapeDistance(const std::vector<int64_t> &a,
                     const std::vector<int64_t> &b) {
  double distance = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    distance += std::fabs(std::log(double(std::max<int64_t>(a[i], 1))) -
                          std::log(double(std::max<int64_t>(b[i], 1))));
    if ((a[i] == 0) != (b[i] == 0))
      distance += std::log(2.0);
  }
  return distance;
}

/// Whether `expression` is exactly dim(I,D) (argument I <= 64, dimension
/// D <= 8), and which.
bool isDimExpression(const std::string &expression, unsigned &arg,
                     unsigned &dim) {
  return std::sscanf(expression.c_str(), "dim(%u,%u)", &arg, &dim) == 2 &&
         arg <= 64 && dim <= 8 &&
         expression ==
             "dim(" + std::to_string(arg) + "," + std::to_string(dim) + ")";
}

/// The launch inputs a shape gives when every key size is a memref
/// dimension (dim(I,D)); the other sizes are 1. False when a key size is
/// another expression.
bool inputsOfKey(const TuningTable &table, const std::vector<int64_t> &key,
                 GridInputs &inputs, int64_t filler = 1) {
  for (size_t i = 0; i < table.key.size() && i < key.size(); ++i) {
    unsigned arg = 0, dim = 0;
    if (!isDimExpression(table.key[i].second, arg, dim))
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
  return model.a * features[0] + model.b * features[1] +
         model.c * features[2] +
         (features.size() > 3 ? model.d * features[3] : 0.0);
}

/// Whether a key size of `table` is the innermost dimension of one of
/// `kernel`'s memref arguments and makes its rows not whole 128-byte lines
/// (a TMA box's rows then straddle lines: more L2 requests per byte).
bool rowsOffLines(const TuningTable &table, const KernelInfo &kernel,
                  const std::vector<int64_t> &key) {
  if (!kernel.args)
    return false;
  for (size_t i = 0; i < table.key.size() && i < key.size(); ++i) {
    unsigned arg = 0, dim = 0;
    if (!isDimExpression(table.key[i].second, arg, dim) ||
        arg >= kernel.args->size())
      continue;
    const ArgInfo &info = (*kernel.args)[arg];
    unsigned bytes = elementTypeBytes(info.type);
    if (info.isMemRef && bytes && dim + 1 == info.rank &&
        key[i] * int64_t(bytes) % 128 != 0)
      return true;
  }
  return false;
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
  double offLines = rowsOffLines(table, kernel, key) ? 1.0 : 0.0;
  return std::vector<double>{waves * tileWork, waves, 1.0,
                             waves * tileWork * offLines};
}

std::optional<CostModel> tile::rt::fitCostModel(
    const std::vector<std::pair<std::vector<double>, double>> &given) {
  constexpr int kTerms = 4;
  std::vector<std::pair<std::vector<double>, double>> samples;
  for (auto sample : given) {
    if (sample.first.size() == 3) // no term for rows off lines
      sample.first.push_back(0.0);
    if (sample.second > 0 && sample.first.size() == kTerms &&
        std::all_of(sample.first.begin(), sample.first.end(),
                    [](double f) { return std::isfinite(f) && f >= 0; }))
      samples.push_back(sample);
  }
  if (samples.size() < 2)
    return std::nullopt;
  std::optional<CostModel> best;
  double bestResidual = 0;
  // Each subset of the terms (bit i: term i), solved by the normal
  // equations of sum(((f . x) - t) / t)^2; kept when every coefficient is
  // non-negative.
  for (int subset = 1; subset < (1 << kTerms); ++subset) {
    std::vector<int> terms;
    for (int i = 0; i < kTerms; ++i)
      if (subset & (1 << i))
        terms.push_back(i);
    size_t n = terms.size();
    if (samples.size() < n)
      continue;
    // Each term scaled to at most 1 over the samples, so that the
    // singularity test below compares like with like.
    double scale[kTerms] = {0, 0, 0, 0};
    for (const auto &[features, time] : samples)
      for (size_t i = 0; i < n; ++i)
        scale[i] = std::max(scale[i], features[terms[i]] / time);
    if (std::any_of(scale, scale + n, [](double v) { return v <= 0; }))
      continue;
    double m[kTerms][kTerms + 1] = {};
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
    double x[kTerms] = {0, 0, 0, 0};
    bool negative = false;
    for (size_t i = 0; i < n; ++i) {
      x[terms[i]] = m[i][n] / m[i][i] / scale[i];
      negative |= !(x[terms[i]] >= 0);
    }
    if (negative)
      continue;
    CostModel model;
    model.a = x[0], model.b = x[1], model.c = x[2], model.d = x[3];
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

