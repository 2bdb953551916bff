// Registers the installed tile dialect, parses a kernel and verifies it:
// a good one parses; a bad swizzle is refused by tile's verifier.
#include "tile/InitAllTile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"

#include <cstdio>

static bool parses(mlir::MLIRContext &context, const char *text) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  return bool(module);
}

int main() {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::tile::registerAllTile(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  const char *good = R"(
    tile.kernel @k() threads(128) {
      %s = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
    })";
  const char *bad = R"(
    tile.kernel @k() threads(128) {
      %s = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 16>>
    })";
  if (!parses(context, good) || parses(context, bad)) {
    std::printf("parse-kernel: FAILED\n");
    return 1;
  }
  std::printf("parse-kernel: the installed dialect parses and verifies\n");
  return 0;
}
