# NCCL for the collective examples (shift, allgather, all-to-all), which
# time NCCL's version of their collective next to tile's kernel: nccl.h and
# libnccl beside CUDA's, and cudart for the stream both run on. Without
# them the programs build all the same and time tile's kernels alone.
# Included by each of them (the results are directory-scoped).

find_path(TILE_NCCL_INCLUDE_DIR nccl.h HINTS ${TILE_CUDA_ROOT}/include NO_CACHE)
find_library(TILE_NCCL_LIBRARY nccl HINTS ${TILE_CUDA_ROOT}/lib64 NO_CACHE)
find_library(TILE_NCCL_CUDART cudart HINTS ${TILE_CUDA_ROOT}/lib64 NO_CACHE)
if(NOT (TILE_NCCL_INCLUDE_DIR AND TILE_NCCL_LIBRARY AND TILE_NCCL_CUDART))
  message(STATUS "NCCL (nccl.h, libnccl, libcudart) not found beside "
    "${TILE_CUDA_ROOT}: the collective examples time tile's kernels alone")
endif()

# Links `target` with NCCL where it was found (TILE_EXAMPLES_NCCL=1).
function(tile_example_use_nccl target)
  if(TILE_NCCL_INCLUDE_DIR AND TILE_NCCL_LIBRARY AND TILE_NCCL_CUDART)
    target_include_directories(${target} PRIVATE ${TILE_NCCL_INCLUDE_DIR})
    target_link_libraries(${target} PRIVATE ${TILE_NCCL_LIBRARY}
      ${TILE_NCCL_CUDART})
    target_compile_definitions(${target} PRIVATE TILE_EXAMPLES_NCCL=1)
  endif()
endfunction()
