# Runs CMD with ARGS ("|"-separated) and passes when it exits with EXPECT_RC and prints one line on
# stderr matching EXPECT_MSG:  cmake -DCMD=... -DARGS=a|b -DEXPECT_RC=2 -DEXPECT_MSG=regex -P expect_failure.cmake
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${CMD} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
string(STRIP "${err}" err)
if(NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT_RC}; stderr: ${err}")
endif()
if(NOT err MATCHES "${EXPECT_MSG}")
  message(FATAL_ERROR "stderr '${err}' does not match '${EXPECT_MSG}'")
endif()
if(err MATCHES "\n" AND NOT MULTILINE)  # -DMULTILINE=ON: earlier warning lines are allowed
  message(FATAL_ERROR "expected a one-line error, got: ${err}")
endif()
message(STATUS "exit ${rc}: ${err}")
