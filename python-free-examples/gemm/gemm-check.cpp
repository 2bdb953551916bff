//===- gemm-check.cpp - the GEMM kernels against a CPU reference ----------===//
//
// For many shapes (squares, sizes that are not multiples of the tile in M, N
// or K, thin and tall) and every GEMM kernel shipped: fresh random inputs,
// output poisoned with NaN, then the relative Frobenius error against a
// float64 CPU product of the same (rounded) inputs. Exits non-zero on any
// failure.
//
//===----------------------------------------------------------------------===//

#include "GemmCheck.h"
#include "HopperKernels.h"

#include <cstring>
#include <functional>

using namespace tile;
using namespace tile::examples;

namespace {
struct Variant {
  const char *label;
  std::function<TileGemm()> make;
  GemmCheckSpec spec;
  /// Shapes checked besides gemmCheckShapes().
  std::vector<GemmShape> extra = {};
};

// Whole waves of tiles, then stream-K tiles, on 132 SMs: 288 and 640 tiles
// of 128 x 256, 576 and 1280 of 128 x 128 (none a multiple of 132).
const std::vector<GemmShape> kWavesAndStreamK = {
    {3000, 3000, 1000, "waves + stream-K"},
    {4000, 5000, 520, "waves + stream-K"},
};
} // namespace

int main(int argc, char **argv) {
  requireGpu("gemm-check");
  // gemm-check [label-substring [M N K]]: only the matching kernels, and
  // only that shape.
  const char *only = argc > 1 ? argv[1] : nullptr;
  try {
    rt::Device device = rt::Device::open();
    // How each kernel takes and gives its operands and the error allowed:
    // {fp32 inputs, bf16 output, tolerance, A: K x M, B: K x N, C by TMA}.
    // gemm.mlir's linear-layer epilogues are bf16 C with bias[, GELU][, R].
    GemmCheckSpec linear{false, true, 1e-2}, linearTma = linear;
    linear.bias = linearTma.bias = linearTma.cTma = true;
    GemmCheckSpec linearGelu = linearTma, linearResidual = linearTma;
    linearGelu.gelu = true;
    linearResidual.residual = true;
    const GemmCheckSpec bf16{false, false, 1e-4}, tf32{true, false, 2e-3},
        nn{false, false, 1e-4, false, true},
        tn{false, false, 1e-4, true, false}, tt{false, false, 1e-4, true, true},
        tmaStore{false, false, 1e-4, false, false, true};
    // A kernel of gemm-variants.mlir.
    auto variant = [](const char *name, const GemmCheckSpec &spec) {
      return [=] {
        return TileGemm(kernelFile(GEMM_VARIANTS_KERNEL_CUBIN),
                        kernelFile(GEMM_VARIANTS_KERNEL_KINFO), name, 128, 256,
                        spec.aKM, spec.bKN);
      };
    };
    const Variant variants[] = {
        {"gemm.mlir, 128 x 256 (sm_90a: TMA, mbarriers, wgmma; bf16 -> fp32)",
         [&] { return hopperGemm(device); }, bf16},
        {"gemm-tiles.mlir BN = 128 (128 x 128 tiles, 5 stages)",
         [&] { return hopperGemm(device, "", 128); }, bf16},
        {"gemm-tiles.mlir BN = 64 (128 x 64 tiles, 6 stages)",
         [&] { return hopperGemm(device, "", 64); }, bf16},
        {"gemm-tiles.mlir BN = 192 (128 x 192 tiles, 5 stages)",
         [&] { return hopperGemm(device, "", 192); }, bf16},
        {"gemm.mlir TMASTORE (epilogue through shared memory and TMA stores)",
         [&] { return hopperTmaStore(device); }, tmaStore},
        {"gemm.mlir OUT=bf16 BIAS (a linear layer: bf16 C from registers)",
         [&] { return hopperLinear(device, false, false, false); }, linear},
        {"gemm.mlir OUT=bf16 BIAS TMASTORE (bf16 C by TMA, 64-column chunks)",
         [&] { return hopperLinear(device, false, false, true); }, linearTma},
        {"gemm.mlir OUT=bf16 BIAS GELU TMASTORE (the MLP's first layer)",
         [&] { return hopperLinear(device, true, false, true); }, linearGelu},
        {"gemm.mlir OUT=bf16 BIAS RESIDUAL TMASTORE (+ R, a residual add)",
         [&] { return hopperLinear(device, false, true, true); },
         linearResidual},
        {"gemm-cluster.mlir (clusters of 2 CTAs, B by TMA multicast)",
         [&] { return hopperCluster(device); }, bf16},
        {"gemm.mlir CLUSTER=2 (the family's clusters: B by TMA multicast)",
         [&] { return hopperFamilyCluster(); }, bf16},
        {"gemm.mlir PINGPONG 64 x 256 (ping-pong consumer teams)",
         [&] { return hopperPingpong(device); }, bf16},
        {"gemm.mlir 256 x 128 (128 rows per warpgroup)",
         [&] { return hopper256x128(device); }, bf16},
        {"gemm.mlir PINGPONG 128 x 128 (ping-pong team tiles)",
         [&] { return hopperPingpong128(device); }, bf16},
        {"gemm.mlir SPLITK=3 (split-K: 3 parts added into C, zeroed by the "
         "launch)",
         [&] { return hopperSplitK(device); }, bf16},
        {"gemm-streamk.mlir (stream-K, partial tiles added by TMA reductions)",
         [&] { return hopperStreamK(device); }, tmaStore, kWavesAndStreamK},
        {"gemm-streamk.mlir BN = 128 (stream-K, 128 x 128)",
         [&] { return hopperStreamK(device, 128); }, tmaStore,
         kWavesAndStreamK},
        {"gemm-sm80.mlir built for sm_90 (TMA pipeline, ldmatrix, mma.sync)",
         [] { return mmaSyncGemm(); }, bf16},
        {"gemm-sm80.mlir built for sm_80, PTX (cp.async pipeline, mma.sync)",
         [] { return mmaSyncGemm(/*sm80=*/true); }, bf16},
        {"gemm-variants.mlir @gemm_tf32 (fp32 inputs, tf32 wgmma)",
         variant("gemm_tf32", tf32), tf32},
        {"gemm-variants.mlir @gemm_majors TA=0 TB=0 (A: M x K, B: K x N)",
         variant("gemm_majors__TA0_TB0_BAR0", nn), nn},
        {"gemm-variants.mlir @gemm_majors TA=1 TB=1 (A: K x M, B: N x K)",
         variant("gemm_majors__TA1_TB1_BAR0", tn), tn},
        {"gemm-variants.mlir @gemm_majors TA=1 TB=0 (A: K x M, B: K x N)",
         variant("gemm_majors__TA1_TB0_BAR0", tt), tt},
        {"gemm-variants.mlir @gemm_rs (A from registers)",
         variant("gemm_rs", bf16), bf16},
        {"gemm-variants.mlir @gemm_majors BAR=1 (each product completes on a "
         "barrier)",
         variant("gemm_majors__TA0_TB1_BAR1", bf16), bf16},
        {"gemm-variants.mlir @gemm_mma TA=0 TB=1 (mma.sync asked for on "
         "sm_90a)",
         variant("gemm_mma__TA0_TB1", bf16), bf16},
        {"gemm-variants.mlir @gemm_mma TA=1 TB=0 (mma.sync, A: K x M, B: K x N)",
         variant("gemm_mma__TA1_TB0", tt), tt},
    };
    bool ok = true;
    std::vector<GemmShape> shapes = gemmCheckShapes();
    if (argc > 4)
      shapes = {{std::atoll(argv[2]), std::atoll(argv[3]), std::atoll(argv[4]),
                 "from the command line"}};
    for (const Variant &v : variants) {
      if (only && !std::strstr(v.label, only))
        continue;
      TileGemm gemm = v.make();
      std::printf("gemm-check on %s: %s\n", device.name().c_str(), v.label);
      ok &= checkGemmShapes(gemm, v.spec, shapes, /*showValues=*/only);
      if (argc <= 4)
        ok &= checkGemmShapes(gemm, v.spec, v.extra, /*showValues=*/only);
    }
    // gemm.mlir through its tuning table (gemm_bf16_tuned): the plain
    // product and the fused linear layers, on the shapes above and some
    // the table was tuned at; each with the configuration it picks.
    const char *tunedLabel = "the tuned dispatch (gemm_bf16_tuned)";
    if (!only || std::strstr(tunedLabel, only)) {
      std::vector<GemmShape> all = shapes;
      if (argc <= 4)
        all.insert(all.end(), {{1024, 768, 3072, "tuned: gpt2 mlp down"},
                               {4096, 1600, 1600, "tuned: gpt2-xl attn out"},
                               {64, 8192, 8192, "tuned: skinny M"},
                               {1024, 50257, 768, "tuned: gpt2 logits"}});
      struct Tuned {
        const char *label;
        TileGemm gemm;
        GemmCheckSpec spec;
      } tuned[] = {
          {"plain product", tunedGemm(), bf16},
          {"bias", tunedGemm<rt::bf16>({{"BIAS", 1}, {"GELU", 0},
                                        {"RESIDUAL", 0}}),
           linear},
          {"bias, GELU", tunedGemm<rt::bf16>({{"BIAS", 1}, {"GELU", 1},
                                              {"RESIDUAL", 0}}),
           linearGelu},
      };
      for (Tuned &t : tuned) {
        std::printf("gemm-check on %s: %s, %s\n", device.name().c_str(),
                    tunedLabel, t.label);
        // (The dispatch picks a configuration that can take the shape:
        // no TMA row requirement to skip on.)
        t.spec.cTma = false;
        for (const GemmShape &s : all) {
          ok &= checkGemm(t.gemm, t.spec, s, only);
          std::printf("    [%s]\n", t.gemm.kernelInfo().name.c_str());
        }
      }
    }
    std::printf("%s\n",
                ok ? "gemm-check: all shapes passed" : "gemm-check: FAILED");
    return ok ? 0 : 1;
  } catch (const rt::Error &error) {
    std::fprintf(stderr, "gemm-check: %s\n", error.what());
    return 1;
  }
}
