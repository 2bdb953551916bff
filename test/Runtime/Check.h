//===- Check.h - Checks shared by the runtime's C++ tests -------*- C++ -*-===//
//
// Plain checks instead of a test framework, so that the tests build with
// nothing but the runtime: a failed check prints "FAIL: ..." and is counted,
// and main() returns non-zero when `failures` is not 0.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TEST_RUNTIME_CHECK_H
#define TILE_TEST_RUNTIME_CHECK_H

#include "tile/Runtime/Error.h"

#include <cstdio>
#include <functional>
#include <string>

namespace tile_test {

inline int failures = 0;

inline void expect(bool condition, const std::string &what) {
  if (condition)
    return;
  ++failures;
  std::printf("FAIL: %s\n", what.c_str());
}

/// Expects `body` to throw tile::rt::Error whose message contains `needle`.
inline void expectError(const std::string &what,
                        const std::function<void()> &body,
                        const std::string &needle) {
  try {
    body();
  } catch (const tile::rt::Error &e) {
    if (std::string(e.what()).find(needle) != std::string::npos)
      return;
    ++failures;
    std::printf("FAIL: %s: error '%s' does not contain '%s'\n", what.c_str(),
                e.what(), needle.c_str());
    return;
  } catch (const std::exception &e) {
    ++failures;
    std::printf("FAIL: %s: unexpected exception type: %s\n", what.c_str(),
                e.what());
    return;
  }
  ++failures;
  std::printf("FAIL: %s: no error (expected '%s')\n", what.c_str(),
              needle.c_str());
}

/// Runs `body`, counting an escaping exception as a failure.
inline void runChecked(const std::function<void()> &body) {
  try {
    body();
  } catch (const std::exception &e) {
    expect(false, std::string("unexpected error: ") + e.what());
  }
}

/// main()'s result: 1 after any failure, else 0 with `passed` printed.
inline int finish(const char *passed) {
  if (failures) {
    std::printf("%d check(s) failed\n", failures);
    return 1;
  }
  std::printf("%s\n", passed);
  return 0;
}

} // namespace tile_test

#endif // TILE_TEST_RUNTIME_CHECK_H
