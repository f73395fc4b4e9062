# Piglit's GLSL tests (tests/piglit/README.md), included from
# tests/tests.cmake.  Debian's piglit package must be installed (.ci/setup
# does): without it run-piglit exits 2 and the tests fail loudly instead of
# passing on no tests.  Failures listed in known-failures-*.txt do not fail.
if(TARGET uscc_cli)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    set(USCC_PIGLIT_PYTHON ${Python3_EXECUTABLE})
  else()
    set(USCC_PIGLIT_PYTHON python3)
  endif()
  # Accept/reject verdicts of `uscc --check` on ~1760 compiler tests.
  add_test(NAME piglit_compiler
    COMMAND ${USCC_PIGLIT_PYTHON} ${CMAKE_SOURCE_DIR}/tests/piglit/run-piglit
            --compiler --uscc $<TARGET_FILE:uscc_cli>
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(piglit_compiler PROPERTIES TIMEOUT 900)
  # Pixels: .shader_test files compiled by uscc and drawn by uscc-run.
  if(TARGET uscc_run)
    add_test(NAME piglit_exec
      COMMAND ${USCC_PIGLIT_PYTHON} ${CMAKE_SOURCE_DIR}/tests/piglit/run-piglit
              --exec --uscc $<TARGET_FILE:uscc_cli> --uscc-run $<TARGET_FILE:uscc_run>
      WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(piglit_exec PROPERTIES TIMEOUT 1800)
  endif()
endif()
