//===- DummyTileFuzz.cpp - tile-fuzz without libFuzzer --------------------===//
//
// In a build without the fuzzing engine, tile-fuzz runs the harness once on
// each file named on its command line (CTest's replay of the inputs that
// once crashed), through LLVM's stand-in for libFuzzer's main.
//
//===----------------------------------------------------------------------===//

#include "llvm/FuzzMutate/FuzzerCLI.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);

int main(int argc, char *argv[]) {
  return llvm::runFuzzerOnInputs(argc, argv, LLVMFuzzerTestOneInput,
                                 LLVMFuzzerInitialize);
}
