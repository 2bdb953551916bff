# Packages the build with cpack (a .deb), unpacks it and runs the packaged
# tile-opt --version, as a user of the package would after installing it.
#   cmake -DTILE_BUILD_DIR=<build> -DWORK=<scratch> -P this
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND cpack -G DEB -B "${WORK}"
  WORKING_DIRECTORY "${TILE_BUILD_DIR}" RESULT_VARIABLE status
  OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cpack failed (${status}):\n${out}\n${err}")
endif()
file(GLOB debs "${WORK}/tile_*.deb")
list(LENGTH debs count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one tile_<version>_<arch>.deb, got: ${debs}")
endif()
execute_process(COMMAND dpkg-deb -f ${debs} Package Version Architecture Depends
  OUTPUT_VARIABLE fields RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR NOT fields MATCHES "Depends: libmlir-22")
  message(FATAL_ERROR "the package's fields are wrong:\n${fields}")
endif()
message("${fields}")
execute_process(COMMAND dpkg-deb -x ${debs} "${WORK}/root" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "dpkg-deb -x failed")
endif()
execute_process(COMMAND "${WORK}/root/usr/bin/tile-opt" --version
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT out MATCHES "tile version")
  message(FATAL_ERROR "the packaged tile-opt --version failed (${status}):\n${out}\n${err}")
endif()
message("${out}")
