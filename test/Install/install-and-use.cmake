# Installs the build into a fresh prefix, then configures, builds and runs
# test/Install/downstream against it with find_package(Tile) alone (no path
# into tile's source or build tree), as a project using tile would.
#   cmake -DTILE_BUILD_DIR=<build> -DDOWNSTREAM=<dir> -DWORK=<scratch> -P this
foreach(var TILE_BUILD_DIR DOWNSTREAM WORK)
  if(NOT ${var})
    message(FATAL_ERROR "install-and-use.cmake: ${var} is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
set(prefix "${WORK}/prefix")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status
    OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run("install" ${CMAKE_COMMAND} --install "${TILE_BUILD_DIR}" --prefix "${prefix}")
foreach(file bin/tile-opt bin/tile-translate bin/tile-lsp-server
    lib/cmake/Tile/TileConfig.cmake lib/cmake/Tile/TileConfigVersion.cmake
    lib/cmake/Tile/TileKernel.cmake include/tile/Runtime/Launcher.h
    include/tile/Version.h include/tile/Dialect/Tile/IR/TileOps.h)
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "the install has no ${file}")
  endif()
endforeach()
run("tile-opt --version" "${prefix}/bin/tile-opt" --version)
message("${last_output}")

# Configures, builds and runs a project outside the tree against the install:
# a copy of it, so that nothing is found beside its sources.
function(build_and_run name source program)
  file(COPY "${source}/" DESTINATION "${WORK}/src-${name}")
  run("configure ${name}" ${CMAKE_COMMAND} -S "${WORK}/src-${name}"
    -B "${WORK}/build-${name}" -G Ninja "-DCMAKE_PREFIX_PATH=${prefix}"
    -DCMAKE_BUILD_TYPE=Release)
  run("build ${name}" ${CMAKE_COMMAND} --build "${WORK}/build-${name}")
  run("run ${program}" "${WORK}/build-${name}/${program}")
  message("${last_output}")
endfunction()

# A kernel and its launcher, then (DOWNSTREAM_MLIR) an MLIR program on the
# installed dialect (COMPONENTS MLIR).
build_and_run(kernel "${DOWNSTREAM}" first-kernel)
if(DOWNSTREAM_MLIR)
  build_and_run(mlir "${DOWNSTREAM_MLIR}" parse-kernel)
endif()
