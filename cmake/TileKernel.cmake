# TileKernel.cmake - compile tile kernels to cubins at build time.
#
#   tile_add_kernel(<target> SOURCE <file.mlir> CHIP <chip> [PTX]
#                   [OUTPUT_NAME <name>] [LAUNCHER [NAMESPACE <ns>]]
#                   [TUNING <table>...] [EXTRA_ARGS <arg>...])
#
#     Adds a custom target <target> that runs
#       tile-translate --tile-to-cubin --chip=<chip> <file.mlir>
#           -o <bindir>/<name>.cubin --kernel-info=<bindir>/<name>.kinfo
#           <EXTRA_ARGS>...
#     where <bindir> is CMAKE_CURRENT_BINARY_DIR and <name> defaults to
#     <target>. SOURCE may be relative to CMAKE_CURRENT_SOURCE_DIR; CHIP is
#     e.g. sm_90a. The command reruns when the source or tile-translate
#     changes. With PTX, it writes <name>.ptx (--tile-to-ptx) instead of the
#     cubin: the driver compiles PTX for the GPU it runs on, which is how code
#     for an older chip (sm_80) runs on a newer one. The target gets the
#     properties
#       TILE_CUBIN        absolute path of the .cubin (or .ptx)
#       TILE_KERNEL_INFO  absolute path of the .kinfo
#
#     With LAUNCHER, tile-translate also writes typed C++ launchers,
#     <bindir>/<name>_launcher.h and .cpp (--launcher; in namespace <ns>,
#     default <name>_launcher as an identifier), with the image and the
#     description embedded, and a static library <target>_launcher is built
#     from them (linking the runtime: TILE_RUNTIME_TARGET, TileRuntime in
#     tile's own build, Tile::TileRuntime through find_package(Tile); its
#     users include "<name>_launcher.h"). It needs the runtime, so CUDA's
#     headers.
#
#     TUNING names tuning tables (tile-tune's, relative to
#     CMAKE_CURRENT_SOURCE_DIR), one per family: their configurations are
#     compiled into the family and the launcher gets <family>_tuned(),
#     which picks one by the operands' shape (--tuning-table). The command
#     reruns when a table changes.
#
#     tile-translate is the `tile-translate` target when this project defines
#     it (even if defined later), otherwise the executable named by the
#     TILE_TRANSLATE_EXECUTABLE variable, for projects that consume an
#     installed compiler (find_package(Tile) sets it). If TILE_TRANSLATE_EXECUTABLE is set while the
#     target does not exist yet, the variable wins.
#
#   tile_target_use_kernel(<exe-target> <kernel-target>)
#
#     Makes <exe-target> build after <kernel-target> and defines
#       <UPPERNAME>_CUBIN="<path to .cubin>"
#       <UPPERNAME>_KINFO="<path to .kinfo>"
#     for its sources, where UPPERNAME is <kernel-target> upper-cased with
#     every character other than A-Z and 0-9 replaced by '_'.
#
# Example:
#   include(TileKernel)
#   tile_add_kernel(gemm_kernel SOURCE gemm.mlir CHIP sm_90a)
#   add_executable(gemm-bench bench.cpp)
#   target_link_libraries(gemm-bench PRIVATE TileRuntime)
#   tile_target_use_kernel(gemm-bench gemm_kernel)
#   # bench.cpp: tile::rt::Module::loadCubinFile(GEMM_KERNEL_CUBIN) and
#   #            tile::rt::loadKernelInfo(GEMM_KERNEL_KINFO)

include_guard(GLOBAL)

function(tile_add_kernel target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "PTX;LAUNCHER"
    "SOURCE;CHIP;OUTPUT_NAME;NAMESPACE" "EXTRA_ARGS;TUNING")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "tile_add_kernel(${target}): unexpected arguments: "
      "${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCE)
    message(FATAL_ERROR "tile_add_kernel(${target}): SOURCE is required")
  endif()
  if(NOT ARG_CHIP)
    message(FATAL_ERROR "tile_add_kernel(${target}): CHIP is required")
  endif()
  if(NOT ARG_OUTPUT_NAME)
    set(ARG_OUTPUT_NAME "${target}")
  endif()

  get_filename_component(source "${ARG_SOURCE}" ABSOLUTE
    BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")

  # Prefer the in-tree compiler; an installed one is named by a variable.
  # With neither known yet, assume the target is defined later in this
  # project: generator expressions are resolved after configuration.
  if(TARGET tile-translate OR NOT TILE_TRANSLATE_EXECUTABLE)
    set(translate "$<TARGET_FILE:tile-translate>")
    set(translate_dep tile-translate)
  else()
    set(translate "${TILE_TRANSLATE_EXECUTABLE}")
    set(translate_dep "${TILE_TRANSLATE_EXECUTABLE}")
  endif()

  set(format cubin)
  if(ARG_PTX)
    set(format ptx)
  endif()
  set(cubin "${CMAKE_CURRENT_BINARY_DIR}/${ARG_OUTPUT_NAME}.${format}")
  set(kinfo "${CMAKE_CURRENT_BINARY_DIR}/${ARG_OUTPUT_NAME}.kinfo")
  set(launcher_args)
  set(launcher_outputs)
  if(ARG_LAUNCHER)
    # Not <name>.cpp: a program's own <name>.cpp would resolve to it.
    set(prefix "${CMAKE_CURRENT_BINARY_DIR}/${ARG_OUTPUT_NAME}_launcher")
    set(launcher_outputs "${prefix}.h" "${prefix}.cpp")
    set(launcher_args "--launcher=${prefix}")
    if(ARG_NAMESPACE)
      list(APPEND launcher_args "--launcher-namespace=${ARG_NAMESPACE}")
    endif()
  elseif(ARG_NAMESPACE)
    message(FATAL_ERROR "tile_add_kernel(${target}): NAMESPACE needs LAUNCHER")
  endif()
  set(tables)
  foreach(table IN LISTS ARG_TUNING)
    get_filename_component(table "${table}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND tables "${table}")
    list(APPEND launcher_args "--tuning-table=${table}")
  endforeach()
  add_custom_command(
    OUTPUT "${cubin}" "${kinfo}" ${launcher_outputs}
    COMMAND "${translate}" --tile-to-${format} "--chip=${ARG_CHIP}" "${source}"
            -o "${cubin}" "--kernel-info=${kinfo}" ${launcher_args}
            ${ARG_EXTRA_ARGS}
    DEPENDS "${source}" ${tables} ${translate_dep}
    COMMENT "Compiling tile kernel ${ARG_OUTPUT_NAME} for ${ARG_CHIP}"
    VERBATIM)
  add_custom_target(${target} DEPENDS "${cubin}" "${kinfo}" ${launcher_outputs})
  if(ARG_LAUNCHER)
    if(NOT TILE_RUNTIME_TARGET)
      set(TILE_RUNTIME_TARGET TileRuntime)
    endif()
    if(NOT TARGET ${TILE_RUNTIME_TARGET})
      message(FATAL_ERROR "tile_add_kernel(${target}): LAUNCHER needs the "
        "TileRuntime library (CUDA's headers)")
    endif()
    add_library(${target}_launcher STATIC "${prefix}.cpp")
    add_dependencies(${target}_launcher ${target})
    target_include_directories(${target}_launcher PUBLIC
      "${CMAKE_CURRENT_BINARY_DIR}")
    target_link_libraries(${target}_launcher PUBLIC ${TILE_RUNTIME_TARGET})
    # The runtime reports failures by throwing.
    target_compile_options(${target}_launcher PRIVATE
      $<$<CXX_COMPILER_ID:GNU,Clang>:-fexceptions>)
  endif()
  set_target_properties(${target} PROPERTIES
    TILE_CUBIN "${cubin}"
    TILE_KERNEL_INFO "${kinfo}")
endfunction()

function(tile_target_use_kernel exe kernel)
  if(NOT TARGET ${kernel})
    message(FATAL_ERROR
      "tile_target_use_kernel(${exe} ${kernel}): ${kernel} is not a target")
  endif()
  get_target_property(cubin ${kernel} TILE_CUBIN)
  get_target_property(kinfo ${kernel} TILE_KERNEL_INFO)
  if(NOT cubin OR NOT kinfo)
    message(FATAL_ERROR "tile_target_use_kernel(${exe} ${kernel}): "
      "${kernel} was not created by tile_add_kernel")
  endif()
  string(TOUPPER "${kernel}" upper)
  string(REGEX REPLACE "[^A-Z0-9]" "_" upper "${upper}")
  add_dependencies(${exe} ${kernel})
  target_compile_definitions(${exe} PRIVATE
    "${upper}_CUBIN=\"${cubin}\""
    "${upper}_KINFO=\"${kinfo}\"")
endfunction()
