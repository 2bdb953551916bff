// python-free-examples/gemm/gemm-cluster.mlir (gemm.mlir in clusters of 2
// CTAs that share B by TMA multicast) compiled for sm_90a. The PTX holds:
// the cluster shape on the entry (.reqnctapercluster 2, 1, 1), A's TMA load
// and B's half-tile load with .multicast::cluster, two cluster barriers
// (after the rings are initialised, with fence.mbarrier_init, and at the
// end), the cluster rank (which half of B) and size (how many CTAs to
// release a slot to), and the consumers' releases as mapa +
// mbarrier.arrive.shared::cluster (in the loop and after it).
// REQUIRES: ptxas
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %S/../../python-free-examples/gemm/gemm-cluster.mlir -o %t.ptx
// RUN: grep -oE 'reqnctapercluster [0-9, ]+|cp\.async\.bulk\.tensor\.2d\.[a-z:_.]+|fence\.mbarrier_init\.[a-z.]+|barrier\.cluster\.(arrive|wait)|%cluster_(ctarank|nctarank)|mapa\.shared::cluster|mbarrier\.arrive\.shared::cluster|wgmma\.mma_async' %t.ptx | sort | uniq -c
// ptxas: no performance warnings, no spills; each CTA's tensor map for B
// has a box of half the tile (128 x 64).
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %S/../../python-free-examples/gemm/gemm-cluster.mlir -o %t.cubin --kernel-info=%t.kinfo --ptxas-options=-v 2>%t.ptxas
// RUN: grep -iE 'C75(10|11|17|19)|warning' %t.ptxas || echo 'no ptxas warnings'
// RUN: grep -oE '[0-9]+ bytes (stack frame|spill stores|spill loads)' %t.ptxas
// RUN: grep -E '^(kernel|tma)' %t.kinfo
