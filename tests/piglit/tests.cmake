# Piglit's GLSL tests (tests/piglit/README.md), included from
# tests/tests.cmake.  Debian's piglit package must be installed (.ci/setup
# does): without it run-piglit exits 2 and the tests fail loudly instead of
# passing on no tests.  Failures listed in known-failures-*.txt do not fail.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  set(USCC_PIGLIT_PYTHON ${Python3_EXECUTABLE})
else()
  set(USCC_PIGLIT_PYTHON python3)
endif()
# Seconds per uscc/uscc-run process: a sanitizer build on a loaded 2-core
# machine runs several times slower than a normal one.
if(USCC_SANITIZE)
  set(USCC_PIGLIT_TIMEOUT 60)
  # the whole exec run: over 1800 s under ASan in a fresh-clone CI run on
  # this 2-core machine (2026-11-27), 253 s in the normal build
  set(USCC_PIGLIT_EXEC_TIMEOUT 3600)
else()
  set(USCC_PIGLIT_TIMEOUT 20)
  set(USCC_PIGLIT_EXEC_TIMEOUT 1800)
endif()
if(TARGET uscc_cli)
  # Accept/reject verdicts of `uscc --check` on ~1760 compiler tests.
  add_test(NAME piglit_compiler
    COMMAND ${USCC_PIGLIT_PYTHON} ${CMAKE_SOURCE_DIR}/tests/piglit/run-piglit
            --compiler --uscc $<TARGET_FILE:uscc_cli> --timeout ${USCC_PIGLIT_TIMEOUT}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(piglit_compiler PROPERTIES TIMEOUT 900)
  # Pixels: .shader_test files, the vertex shader run by the IR interpreter
  # (uscc-ref, tests/tools), the fragment shader compiled by uscc and drawn
  # by uscc-run.  Without uscc-ref the vertex-shader tests skip, loudly.
  if(TARGET uscc_run)
    set(USCC_PIGLIT_REF)
    if(TARGET uscc_ref)
      set(USCC_PIGLIT_REF --uscc-ref $<TARGET_FILE:uscc_ref>)
    endif()
    add_test(NAME piglit_exec
      COMMAND ${USCC_PIGLIT_PYTHON} ${CMAKE_SOURCE_DIR}/tests/piglit/run-piglit
              --exec --uscc $<TARGET_FILE:uscc_cli> --uscc-run $<TARGET_FILE:uscc_run>
              ${USCC_PIGLIT_REF} --timeout ${USCC_PIGLIT_TIMEOUT}
      WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(piglit_exec PROPERTIES TIMEOUT ${USCC_PIGLIT_EXEC_TIMEOUT})
    if(USCC_SANITIZE)
      # About 12,000 processes: LeakSanitizer's exit scan was over half of
      # each one's time (70 of 115 ms for a small uscc-run, 2026-11-28).
      # Leaks stay checked, at exit, by the unit and CLI tests, gen_random,
      # gen_compile_validated (3000 shaders in compile-many) and the fuzzers.
      set_tests_properties(piglit_exec PROPERTIES
        ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
    endif()
  endif()
endif()
# The exec runner's own GL modelling (rasterization, textures, uniforms).
add_test(NAME piglit_runner_selftest
  COMMAND ${USCC_PIGLIT_PYTHON} ${CMAKE_SOURCE_DIR}/tests/piglit/test_piglit_runner.py
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
