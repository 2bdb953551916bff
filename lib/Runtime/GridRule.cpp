//===- GridRule.cpp - a kernel's grid rule, checked and evaluated ---------===//
//
// The expressions of a grid record (include/tile/Runtime/KernelInfo.h,
// GridRule): one recursive-descent reader serves the check the kinfo parser
// and the compiler make and the evaluation at launch, so that the two
// cannot disagree on the notation.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/KernelInfo.h"

#include <algorithm>
#include <cctype>
#include <iterator>

using namespace tile::rt;

namespace {
/// Thrown inside the reader; the callers turn it into their own message.
struct GridProblem {
  std::string what;
};

/// Reads one expression; with `inputs` it also evaluates it (without, every
/// leaf reads as 1: a check of the notation and of the arguments named).
class GridReader {
public:
  GridReader(const std::string &text,
             const std::optional<std::vector<ArgInfo>> &args,
             const GridInputs *inputs)
      : text(text), args(args), inputs(inputs) {}

  int64_t read() {
    int64_t value = expression();
    if (pos != text.size())
      fail("unexpected '" + text.substr(pos) + "' after the expression");
    return value;
  }

private:
  [[noreturn]] void fail(const std::string &what) const {
    throw GridProblem{what};
  }

  bool take(char c) {
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c))
      fail(std::string("expected '") + c + "' at offset " +
           std::to_string(pos));
  }

  uint64_t number() {
    size_t start = pos;
    uint64_t value = 0;
    while (pos < text.size() &&
           std::isdigit(static_cast<unsigned char>(text[pos]))) {
      unsigned digit = unsigned(text[pos++] - '0');
      if (value > (uint64_t(INT64_MAX) - digit) / 10)
        fail("the number at offset " + std::to_string(start) +
             " does not fit in 64 bits");
      value = value * 10 + digit;
    }
    if (pos == start)
      fail("expected a number at offset " + std::to_string(start));
    return value;
  }

  std::string word() {
    size_t start = pos;
    while (pos < text.size() &&
           std::isalpha(static_cast<unsigned char>(text[pos])))
      ++pos;
    return text.substr(start, pos - start);
  }

  /// Argument `index` of the kernel, which must be a memref (of at least
  /// `dim` + 1 dimensions) or an integer scalar.
  void checkArgument(uint64_t index, bool memref, uint64_t dim) const {
    if (!args)
      return;
    if (index >= args->size())
      fail("argument " + std::to_string(index) + " of " +
           std::to_string(args->size()));
    const ArgInfo &arg = (*args)[index];
    if (memref && (!arg.isMemRef || dim >= arg.rank))
      fail("dim(" + std::to_string(index) + "," + std::to_string(dim) +
           ") of argument '" + arg.name + "', which has no dimension " +
           std::to_string(dim));
    if (!memref && (arg.isMemRef || arg.type[0] != 'i'))
      fail("arg(" + std::to_string(index) + ") of argument '" + arg.name +
           "', which is not an integer");
  }

  int64_t expression() {
    // The compiler writes at most 4096 characters; a deeper text is not
    // one of its rules, and must not exhaust the stack.
    if (++depth > kMaxDepth)
      fail("nested deeper than " + std::to_string(kMaxDepth) + " levels");
    struct Leave {
      int &depth;
      ~Leave() { --depth; }
    } leave{depth};
    if (pos < text.size() &&
        std::isdigit(static_cast<unsigned char>(text[pos])))
      return int64_t(number());
    size_t start = pos;
    std::string name = word();
    if (name == "sms")
      return inputs ? inputs->sms : 1;
    if (name.empty())
      fail("expected an expression at offset " + std::to_string(start));
    expect('(');
    if (name == "arg" || name == "dim") {
      uint64_t index = number();
      uint64_t dim = 0;
      if (name == "dim") {
        expect(',');
        dim = number();
      }
      expect(')');
      checkArgument(index, name == "dim", dim);
      if (!inputs)
        return 1;
      if (name == "arg") {
        if (index >= inputs->scalars.size())
          fail("the launch has no argument " + std::to_string(index));
        return inputs->scalars[index];
      }
      if (index >= inputs->sizes.size() || dim >= inputs->sizes[index].size())
        fail("the launch has no dimension " + std::to_string(dim) +
             " of argument " + std::to_string(index));
      return inputs->sizes[index][dim];
    }
    int64_t a = expression();
    expect(',');
    int64_t b = expression();
    expect(')');
    return apply(name, a, b, start);
  }

  int64_t apply(const std::string &op, int64_t a, int64_t b, size_t at) const {
    static const char *const kOps[] = {"add",     "sub", "mul", "div",
                                       "ceildiv", "rem", "min", "max"};
    if (std::find(std::begin(kOps), std::end(kOps), op) == std::end(kOps))
      fail("unknown operation '" + op + "' at offset " + std::to_string(at) +
           " (add, sub, mul, div, ceildiv, rem, min, max)");
    if (!inputs)
      return 1;
    if (a < 0 || b < 0)
      fail(op + " of a negative value (" + std::to_string(a) + ", " +
           std::to_string(b) + ")");
    int64_t result = 0;
    bool overflow = false;
    if (op == "add")
      overflow = __builtin_add_overflow(a, b, &result);
    else if (op == "sub")
      result = a - b; // both non-negative: no overflow
    else if (op == "mul")
      overflow = __builtin_mul_overflow(a, b, &result);
    else if (op == "min" || op == "max")
      result = op == "min" ? std::min(a, b) : std::max(a, b);
    else if (b == 0)
      fail(op + " by zero");
    else if (op == "div")
      result = a / b;
    else if (op == "ceildiv")
      result = a / b + (a % b != 0);
    else
      result = a % b;
    if (overflow)
      fail(op + "(" + std::to_string(a) + "," + std::to_string(b) +
           ") overflows 64 bits");
    return result;
  }

  const std::string &text;
  const std::optional<std::vector<ArgInfo>> &args;
  const GridInputs *inputs;
  size_t pos = 0;
  static constexpr int kMaxDepth = 1024;
  int depth = 0;
};
} // namespace

std::string
tile::rt::checkGridExpression(const std::string &expression,
                              const std::optional<std::vector<ArgInfo>> &args) {
  try {
    GridReader(expression, args, nullptr).read();
  } catch (const GridProblem &problem) {
    return problem.what;
  }
  return {};
}

int64_t tile::rt::evaluateHostExpression(
    const std::string &expression,
    const std::optional<std::vector<ArgInfo>> &args, const GridInputs &inputs) {
  try {
    return GridReader(expression, args, &inputs).read();
  } catch (const GridProblem &problem) {
    throw Error(expression + ": " + problem.what);
  }
}

Dim3 tile::rt::evaluateGrid(const KernelInfo &info, const GridInputs &inputs) {
  if (!info.grid)
    throw Error("kernel '" + info.name +
                "' states no grid (no tile.grid in the kernel): give one");
  const char *names[] = {"x", "y", "z"};
  const std::string *rules[] = {&info.grid->x, &info.grid->y, &info.grid->z};
  const int64_t limits[] = {int64_t(INT32_MAX), 65535, 65535};
  unsigned dims[3];
  for (int i = 0; i < 3; ++i) {
    int64_t value = 0;
    try {
      value = GridReader(*rules[i], info.args, &inputs).read();
    } catch (const GridProblem &problem) {
      throw Error("kernel '" + info.name + "': grid " + names[i] + " = " +
                  *rules[i] + ": " + problem.what);
    }
    if (value < 1 || value > limits[i])
      throw Error("kernel '" + info.name + "': grid " + names[i] + " = " +
                  *rules[i] + " gives " + std::to_string(value) +
                  ", outside [1, " + std::to_string(limits[i]) +
                  "] (an empty problem launches nothing: do not launch it)");
    dims[i] = unsigned(value);
  }
  return {dims[0], dims[1], dims[2]};
}
