// The GEMM path for chips without wgmma, compiled for sm_80: the 3-stage
// cp.async pipeline (4 copies of 16 bytes a thread per k-step; 3 commit
// groups: 2 in the prologue and 1 per iteration; wait_group 1 before each
// step), ldmatrix and mma.sync in the PTX, a cubin with the kernel, no spills
// and no ptxas warnings.
// REQUIRES: ptxas
// RUN: tile-translate --tile-to-ptx --chip=sm_80 %S/../../python-free-examples/gemm/gemm-sm80.mlir | grep -oE '^\s+(mma|ldmatrix|cp\.async)[a-z0-9.:_]*' | sort | uniq -c
// RUN: tile-translate --tile-to-cubin --chip=sm_80 %S/../../python-free-examples/gemm/gemm-sm80.mlir -o %t.cubin --ptxas-options=-v 2>&1 | grep -oE 'warning.*|[0-9]+ bytes spill (stores|loads)|for .sm_80.'
// RUN: readelf -h %t.cubin | grep -E 'Machine' && readelf -sW %t.cubin | grep -oE 'FUNC .*gemm_bf16_mma$' | awk '{print $1, $2, $NF}'
