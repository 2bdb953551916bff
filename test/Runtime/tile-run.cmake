# tile-run's command line and its answer without NVSHMEM; run with
#   cmake -DTILE_RUN=<path to tile-run> -P tile-run.cmake
# Without NVSHMEM (CI) tile-run must exit 77 with one line naming what is
# missing and how to install it; where NVSHMEM is installed it must run two
# copies of a program that exits 0 and pass on the status of one that fails.

if(NOT TILE_RUN)
  message(FATAL_ERROR "pass -DTILE_RUN=<path to tile-run>")
endif()

function(run_tile_run expected_status needle)
  execute_process(COMMAND ${TILE_RUN} ${ARGN}
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(text "${out}${err}")
  if(NOT status STREQUAL expected_status)
    message(FATAL_ERROR "tile-run ${ARGN}: exit status ${status}, "
      "expected ${expected_status}:\n${text}")
  endif()
  string(FIND "${text}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR
      "tile-run ${ARGN}: output does not contain '${needle}':\n${text}")
  endif()
  message(STATUS "tile-run ${ARGN}: ${status}: ${text}")
endfunction()

# Usage errors come first, with or without NVSHMEM.
run_tile_run(2 "say how many PEs" true)
run_tile_run(2 "no program to run" -n 2)
run_tile_run(2 "the number of PEs must be 1 to 4096, got '0'" -n 0 true)
run_tile_run(2 "the number of PEs must be 1 to 4096, got 'x'" -nx true)
run_tile_run(2 "unknown option '--bogus'" --bogus -n 1 true)
run_tile_run(0 "usage: tile-run -n <PEs>" --help)

# Is NVSHMEM here? tile-run answers 77 at once if not.
execute_process(COMMAND ${TILE_RUN} -n 2 true
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(status EQUAL 77)
  set(first_words "tile-run: skipped: needs NVSHMEM")
  string(APPEND first_words " (libnvshmem_host.so.3 and libnvshmem_device.a)")
  foreach(needle
      "${first_words}"
      "NVSHMEM_HOME"
      "nvidia-nvshmem-cu13"
      "pip install nvidia-nvshmem-cu13 or set NVSHMEM_HOME")
    string(FIND "${err}" "${needle}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "skip message lacks '${needle}':\n${err}")
    endif()
  endforeach()
  # An explicit NVSHMEM_HOME that holds nothing is named as the culprit.
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env NVSHMEM_HOME=/nonexistent/nvshmem
            ${TILE_RUN} -n 1 true
    RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 77 OR
     NOT err MATCHES "NVSHMEM_HOME is set to '/nonexistent/nvshmem'")
    message(FATAL_ERROR "bad NVSHMEM_HOME: status ${status}:\n${err}")
  endif()
  message(STATUS "without NVSHMEM: ${err}")
  return()
endif()

# NVSHMEM is installed: the copies run, get their rank and world size, and a
# failure is passed on.
if(NOT status EQUAL 0)
  message(FATAL_ERROR
    "tile-run -n 2 true: exit status ${status}:\n${out}${err}")
endif()
set(script "test $TILE_LOCAL_RANK = $TILE_RANK")
string(APPEND script " && test $NVSHMEM_DISABLE_NVLS = 1")
string(APPEND script " && test $NCCL_NVLS_ENABLE = 0")
string(APPEND script
  " && echo rank $TILE_RANK of $TILE_WORLD_SIZE uid \${#TILE_NVSHMEM_UID}")
run_tile_run(0 "rank 1 of 2 uid 256" -n 2 sh -c "${script}")
run_tile_run(3 "exited with status 3; stopping the other PEs" -n 2 sh -c
  "test $TILE_RANK = 1 && exit 3 || sleep 30")
run_tile_run(77 "" -n 3 sh -c "exit 77")
