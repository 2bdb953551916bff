# tile's FileCheck-free test runner, registered with CTest.
#
# tile_add_lit_tests(<dir>) registers every .mlir file under <dir> as one CTest
# test. Each file carries lit-style lines:
#   // RUN: <shell command>      (%s file, %S its folder, %t a scratch path;
#                                 tile-opt and tile-translate are on PATH)
#   // RUN: not <command>        the command must fail; its stderr is kept too
#   // REQUIRES: ptxas           skipped (not failed) where CUDA's ptxas is absent
#   // REQUIRES: tile-tune       skipped where that tool was not built
# The stdout of all RUN lines (and the stderr of `not` lines) is compared with
# the golden file <test>.mlir.expected beside the test; no output needs no
# golden. `TILE_BLESS=1 ctest` rewrites the goldens for review in the diff.
# Error tests use `tile-opt %s --split-input-file --verify-diagnostics`.

set(TILE_TEST_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/RunTileTest.cmake)

function(tile_add_lit_tests dir)
  file(GLOB_RECURSE tests RELATIVE ${dir} CONFIGURE_DEPENDS ${dir}/*.mlir)
  # Install/downstream is a project of its own (its kernel is no test).
  list(FILTER tests EXCLUDE REGEX "^Install/")
  foreach(test ${tests})
    # Scratch files per test folder: equal file names in two folders must
    # not share %t under ctest -j.
    get_filename_component(test_dir ${test} DIRECTORY)
    add_test(NAME ${test}
      COMMAND ${CMAKE_COMMAND}
        -DTEST_FILE=${dir}/${test}
        -DTOOLS_DIR=${CMAKE_BINARY_DIR}/bin
        -DSCRATCH_DIR=${CMAKE_CURRENT_BINARY_DIR}/Output/${test_dir}
        -DPTXAS=${TILE_PTXAS}
        -P ${TILE_TEST_SCRIPT})
    set_tests_properties(${test} PROPERTIES
      SKIP_REGULAR_EXPRESSION "SKIP: " LABELS lit)
  endforeach()
endfunction()
