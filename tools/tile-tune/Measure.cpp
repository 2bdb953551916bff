//===- Measure.cpp - tile-tune's GPU half: checks, timings, the table -----===//

#include "Problems.h"

#include "tile/Runtime/Runtime.h"
#include "tile/Version.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

using namespace tile;

namespace tile::tune {
namespace {

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

//===----------------------------------------------------------------------===//
// measure
//===----------------------------------------------------------------------===//

/// Median milliseconds per call of each contender, interleaved over three
/// rounds (rt::interleavedMedianMs), each round about 2 ms of calls of a
/// contender as fast as `firstMs` (5 to 200 calls).
std::vector<float> timedMs(const std::vector<std::function<void()>> &contenders,
                           float firstMs) {
  int iters = int(std::clamp(2.0f / std::max(firstMs, 1e-3f), 5.0f, 200.0f));
  return rt::interleavedMedianMs(contenders, 2, iters);
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

} // namespace

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

MeasureInputs readMeasureInputs(const std::string &dir,
                                const std::string &shapesArg,
                                const std::string &referenceFile,
                                bool checkOnly) {
  MeasureInputs in;
  in.dir = dir;
  in.referenceFile = referenceFile;
  in.manifest = readManifest(dir);
  in.infos = rt::loadKernelInfo(dir + "/candidates.kinfo");
  in.infos.erase(std::remove_if(in.infos.begin(), in.infos.end(),
                                [&](const rt::KernelInfo &k) {
                                  return k.family != in.manifest.family;
                                }),
                 in.infos.end());
  if (in.infos.empty())
    throw rt::Error(dir + ": no candidate kernel of " + in.manifest.family);
  std::vector<bool> flags = keyFlags(in.infos.front());
  if (referenceIsRecorded(in.infos.front())) {
    if (referenceFile.empty() && !checkOnly)
      throw rt::Error(
          in.manifest.family + " is timed against PyTorch's cuDNN attention, "
          "which tile-tune does not run: give --reference FILE, the output "
          "of ../shared/anchors/sdpa_attention.py run on this GPU in the "
          "same call for the same problems (B H S D ...)");
  } else if (!referenceFile.empty()) {
    throw rt::Error("--reference is for families whose reference is "
                    "measured beside (attention); " + in.manifest.family +
                    "'s runs here");
  }
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
        rt::loadProblemShapes(shapesArg.empty() ? file : shapesArg,
                              flags.size(), flags));
  }
  return in;
}

int measure(MeasureInputs inputs, const std::string &tablePath,
            const std::string &svgPath, bool checkOnly, bool everyTime) {
  // Candidates are timed back to back on one stream: as dependent launches
  // each would overlap the one before, which the reference's launches may
  // not. Ordinary launches time each alone.
  for (rt::KernelInfo &info : inputs.infos)
    info.dependentLaunch = false;
  const Manifest &manifest = inputs.manifest;
  const std::vector<rt::KernelInfo> &infos = inputs.infos;
  const std::vector<std::vector<Shape>> &shapesOf = inputs.shapesOf;
  size_t steps = 0;
  for (const std::vector<Shape> &shapes : shapesOf)
    steps += shapes.size();
  rt::Device device = rt::Device::open();
  rt::Module module = rt::Module::loadCubinFile(inputs.dir +
                                                "/candidates.cubin");
  std::unique_ptr<Problem> owned =
      problemFor(infos.front(), inputs.referenceFile, device.name());
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
      // The reference's time where it was measured beside (not timed here).
      std::optional<double> recordedUs;
      try {
        problem.prepare(shape, *kernels.front());
        if (!checkOnly)
          recordedUs = problem.recordedReferenceUs();
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
      if (!recordedUs)
        contenders.push_back([&] { problem.runReference(); });
      rt::Timer once;
      float firstMs = once.timeMs(contenders.back(), 1, 3);
      std::vector<float> ms = timedMs(contenders, firstMs);
      double referenceUs = recordedUs ? *recordedUs : ms.back() * 1000.0;
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
      tuned.referenceUs = referenceUs;
      double ratio = tuned.referenceUs / tuned.timeUs;
      char note[256];
      std::snprintf(note, sizeof(note), "%.3fx%s%s", ratio,
                    shape.what.empty() ? "" : ", ", shape.what.c_str());
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
      for (size_t i = 0; everyTime && i < survivors.size(); ++i)
        std::printf("    %8.1f us  %s\n", ms[i] * 1000.0,
                    rt::formatParamValues(
                        ownConfig(survivors[i].info(), fixed))
                        .c_str());
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

} // namespace tile::tune
