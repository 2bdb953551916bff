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

# A copy of the project, so that nothing is found beside its sources.
file(COPY "${DOWNSTREAM}/" DESTINATION "${WORK}/src")
run("configure the downstream project" ${CMAKE_COMMAND} -S "${WORK}/src"
  -B "${WORK}/build" -G Ninja "-DCMAKE_PREFIX_PATH=${prefix}"
  -DCMAKE_BUILD_TYPE=Release)
run("build the downstream project" ${CMAKE_COMMAND} --build "${WORK}/build")
run("run first-kernel" "${WORK}/build/first-kernel")
message("${last_output}")

# An MLIR project on the installed dialect (COMPONENTS MLIR).
if(DOWNSTREAM_MLIR)
  file(COPY "${DOWNSTREAM_MLIR}/" DESTINATION "${WORK}/src-mlir")
  run("configure the MLIR project" ${CMAKE_COMMAND} -S "${WORK}/src-mlir"
    -B "${WORK}/build-mlir" -G Ninja "-DCMAKE_PREFIX_PATH=${prefix}"
    -DCMAKE_BUILD_TYPE=Release)
  run("build the MLIR project" ${CMAKE_COMMAND} --build "${WORK}/build-mlir")
  run("run parse-kernel" "${WORK}/build-mlir/parse-kernel")
  message("${last_output}")
endif()
