//===- LinearConfig.h - gemm.mlir's linear-layer configurations -*- C++ -*-===//
//
// Which configuration of gemm.mlir's family (its generated table) is a
// linear layer's: bf16 C, 128 x 128 tiles, the bias in the epilogue, GELU
// and a residual add as asked, C by TMA where asked. gemm-check and the
// GPT-2 forward pick through this one rule.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GEMM_LINEARCONFIG_H
#define TILE_EXAMPLES_GEMM_LINEARCONFIG_H

#include "gemm_launcher.h"

#include <string>

namespace tile::examples {

/// The index in `configs` of the linear-layer configuration with these
/// epilogue choices; throws when the family lists none.
inline std::size_t linearConfig(const gemm_kernels::gemm_bf16_config *configs,
                                std::size_t count, bool gelu, bool residual,
                                bool tmaStore) {
  for (std::size_t i = 0; i < count; ++i) {
    const gemm_kernels::gemm_bf16_config &c = configs[i];
    if (c.BM == 128 && c.BN == 128 && std::string(c.OUT) == "bf16" && c.BIAS &&
        c.GELU == gelu && c.RESIDUAL == residual && c.TMASTORE == tmaStore)
      return i;
  }
  throw rt::Error("gemm.mlir has no 128 x 128 bf16 linear-layer "
                  "configuration with GELU = " +
                  std::to_string(gelu) +
                  ", RESIDUAL = " + std::to_string(residual) +
                  ", TMASTORE = " + std::to_string(tmaStore));
}

} // namespace tile::examples

#endif // TILE_EXAMPLES_GEMM_LINEARCONFIG_H
