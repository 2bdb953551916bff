# The kernel description's schema (include/tile/Runtime/KernelInfo.h): its
# writer in the compiler (lib/Target) and its reader in the runtime share this
# library. It needs neither CUDA nor MLIR. lib/Target/CMakeLists.txt includes
# this file because lib/Runtime itself is only built where CUDA is installed.

add_library(TileKernelInfo STATIC ${CMAKE_CURRENT_LIST_DIR}/KernelInfo.cpp
  ${CMAKE_CURRENT_LIST_DIR}/GridRule.cpp ${CMAKE_CURRENT_LIST_DIR}/Tuning.cpp
  ${CMAKE_CURRENT_LIST_DIR}/TunedDispatch.cpp)
target_include_directories(TileKernelInfo
  PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>)
target_compile_features(TileKernelInfo PUBLIC cxx_std_17)
# The parser reports malformed text by throwing (see CMakeLists.txt).
target_compile_options(TileKernelInfo PRIVATE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-fexceptions>)
set_target_properties(TileKernelInfo PROPERTIES POSITION_INDEPENDENT_CODE ON)
