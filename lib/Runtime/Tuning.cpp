//===- Tuning.cpp - tuning tables: reading and writing ------------------===//
//
// Linked into the compiler, tile-tune and the runtime (KernelInfo.cmake), so
// it uses nothing but the C++ standard library. The choice of a
// configuration by shape is TunedDispatch.cpp.
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
      std::string config, a, b, c, d, extra;
      if (!(in >> config >> a >> b >> c) || (in >> d && in >> extra))
        fail(line, "a model is a configuration and three or four "
                   "coefficients");
      try {
        model.config = parseParamValues(config);
      } catch (const Error &e) {
        fail(line, e.what());
      }
      if (d.empty())
        d = "0";
      double *coefficients[] = {&model.a, &model.b, &model.c, &model.d};
      const std::string *words[] = {&a, &b, &c, &d};
      for (int i = 0; i < 4; ++i) {
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
         << model.c;
      if (model.d != 0)
        os << ' ' << model.d;
      os << '\n';
    }
  }
  return os.str();
}

//===----------------------------------------------------------------------===//
// Problem shapes
//===----------------------------------------------------------------------===//

std::vector<ProblemShape>
tile::rt::loadProblemShapes(const std::string &source, size_t rank,
                            const std::vector<bool> &flags) {
  std::vector<ProblemShape> shapes;
  auto isFlag = [&](size_t i) { return i < flags.size() && flags[i]; };
  auto add = [&](std::vector<int64_t> sizes, std::string what,
                 const std::string &where) {
    bool valid = sizes.size() == rank;
    for (size_t i = 0; valid && i < sizes.size(); ++i)
      valid = isFlag(i) ? sizes[i] == 0 || sizes[i] == 1
                        : sizes[i] >= 1 && sizes[i] <= (int64_t(1) << 20);
    if (!valid) {
      std::string flagNames;
      for (size_t i = 0; i < rank; ++i)
        if (isFlag(i))
          flagNames += (flagNames.empty() ? "" : ", ") + std::to_string(i + 1);
      throw Error(where + ": a shape is " + std::to_string(rank) +
                  " sizes in [1, 2^20]" +
                  (flagNames.empty() ? ""
                                     : " (size " + flagNames +
                                           ": a flag, 0 or 1)"));
    }
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
