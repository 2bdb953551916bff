//===- InlineAsm.h - inline PTX templates LLVM's printer can print -*- C++ -*-===//

#ifndef TILE_TARGET_INLINEASM_H
#define TILE_TARGET_INLINEASM_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::tile {

/// Refuses, with a located error, the first llvm.inline_asm under `device`
/// whose template LLVM's printer would abort or exit on: a `$` that starts
/// no reference, an operand number past the last, an operand modifier, an
/// unknown `${:special}`, nested variants.
LogicalResult checkInlineAsm(Operation *device);

} // namespace mlir::tile

#endif // TILE_TARGET_INLINEASM_H
