# Piglit's GLSL compiler tests (accept/reject verdicts of `uscc --check`).
# Included from tests/tests.cmake.  Debian's piglit package must be
# installed (.ci/setup does): without it run-piglit exits 2 and the test
# fails loudly instead of passing on no tests.
if(TARGET uscc_cli)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    set(USCC_PIGLIT_PYTHON ${Python3_EXECUTABLE})
  else()
    set(USCC_PIGLIT_PYTHON python3)
  endif()
  add_test(NAME piglit_compiler
    COMMAND ${USCC_PIGLIT_PYTHON} ${CMAKE_SOURCE_DIR}/tests/piglit/run-piglit
            --compiler --uscc $<TARGET_FILE:uscc_cli>
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  # ~1800 uscc runs: give it room under a sanitizer build on a busy machine.
  set_tests_properties(piglit_compiler PROPERTIES TIMEOUT 900)
endif()
