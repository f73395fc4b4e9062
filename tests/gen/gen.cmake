# Random differential testing (tests/gen), included by the top-level
# CMakeLists.txt: run-gen generates shaders, compiles them with uscc at -O2
# and -O0 and compares uscc-run with uscc-ref (and llvmpipe-render when
# built).  Seeds failing for a known reason are in known-failures.txt.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND AND TARGET uscc_cli AND TARGET uscc_run AND TARGET uscc_ref)
  # 400 seeds take about 20 s on 2 cores; a sanitizer build runs each
  # program several times slower, so it checks the first 80
  if(USCC_SANITIZE)
    set(GEN_SEEDS 80)
    set(GEN_LLVMPIPE_SEEDS 20)
  else()
    set(GEN_SEEDS 400)
    set(GEN_LLVMPIPE_SEEDS 60)
  endif()
  add_test(NAME gen_random
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/gen/run-gen
            --build ${CMAKE_BINARY_DIR} --seeds ${GEN_SEEDS} --jobs 2 --no-llvmpipe
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gen_random PROPERTIES TIMEOUT 300)
  if(CMAKE_BUILD_TYPE STREQUAL "Debug")
    # a debug build validates the backend's form after every stage: many
    # more seeds, compiled only; a release build compiles them unchecked,
    # so it skips this.  Under ASan beside piglit_exec on 2 cores, 3000
    # seeds took over 900 s in a fresh-clone CI run (2026-11-27): the
    # timeout is a guard against a hang, not a speed test
    add_test(NAME gen_compile_validated
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/gen/run-gen
              --build ${CMAKE_BINARY_DIR} --seeds 3000 --jobs 2 --compile-only
      WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(gen_compile_validated PROPERTIES TIMEOUT 1800)
  endif()
  if(TARGET llvmpipe_render)
    # the same first seeds, with Mesa's llvmpipe as a second reference
    add_test(NAME gen_random_llvmpipe
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/gen/run-gen
              --build ${CMAKE_BINARY_DIR} --seeds ${GEN_LLVMPIPE_SEEDS} --jobs 2
      WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    # Mesa's driver keeps allocations past exit that LeakSanitizer reports
    set_tests_properties(gen_random_llvmpipe PROPERTIES TIMEOUT 300
      ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  endif()
endif()
