// The distributed examples through tile-translate for sm_90a.
// REQUIRES: ptxas
//
// Cluster level (python-free-examples/cluster-exchange): the rank from
// %cluster_ctarank, the barriers around the exchange (barrier.cluster), the
// put's mapa and shared::cluster stores, the release add on the peer's flag,
// the acquire spin on the local one, the get's shared::cluster loads.
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %S/../../python-free-examples/cluster-exchange/cluster-exchange.mlir -o %tc.ptx
// RUN: grep -oE '%cluster_(n)?ctarank|barrier\.cluster\.(arrive|wait)|mapa\.shared::cluster|st\.shared::cluster|ld\.shared::cluster|red\.release\.cluster\.shared::cluster\.add\.u64|ld\.acquire\.cluster\.shared::cta\.u64' %tc.ptx | sort | uniq -c
//
// World level (python-free-examples/shift, allgather, all-to-all): NVSHMEM
// device functions declared extern and called, and nothing else of NVSHMEM
// in the PTX (the runtime links the library in).
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %S/../../python-free-examples/allgather/allgather.mlir -o %ta.ptx
// RUN: grep -oE '^\.extern \.func[^(]*(\([^)]*\))? *nvshmem[a-z_]*' %ta.ptx | sed -E 's/.* (nvshmem)/\1/' | sort
// RUN: grep -oE 'call\.uni (\(retval0\), )?nvshmem[a-z_]*' %ta.ptx | sed -E 's/.*(nvshmem)/\1/' | sort | uniq -c
// ptxas assembles the world-level kernels as relocatable code (ELF type 1,
// ET_REL) with their NVSHMEM references unresolved, and the kernel
// description asks the runtime to link NVSHMEM (`link <kernel> nvshmem`).
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %S/../../python-free-examples/shift/shift.mlir -o %ts.cubin --kernel-info=%ts.kinfo
// RUN: od -An -tu2 -j16 -N2 %ts.cubin | tr -d ' '
// RUN: cat %ts.kinfo
// The cluster-level kernel is an ordinary (executable, ET_EXEC = 2) cubin.
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %S/../../python-free-examples/cluster-exchange/cluster-exchange.mlir -o %tc.cubin --kernel-info=%tc.kinfo
// RUN: od -An -tu2 -j16 -N2 %tc.cubin | tr -d ' '
// RUN: cat %tc.kinfo
