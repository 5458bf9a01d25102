# Installs the build into a scratch prefix, then configures, builds and runs a separate project
# that uses find_package(bkt). Arguments: BUILD_DIR, CONSUMER_DIR, WORK_DIR, CUDA_ARCHITECTURES, GENERATOR.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
foreach(step
    "${CMAKE_COMMAND};--install;${BUILD_DIR};--prefix;${prefix}"
    "${CMAKE_COMMAND};-S;${CONSUMER_DIR};-B;${WORK_DIR}/build;-G;${GENERATOR};-DCMAKE_PREFIX_PATH=${prefix};-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES}"
    "${CMAKE_COMMAND};--build;${WORK_DIR}/build"
    "${WORK_DIR}/build/consumer")
  execute_process(COMMAND ${step} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "step failed (${code}): ${step}\n${out}")
  endif()
endforeach()
message(STATUS "consumer output: ${out}")
