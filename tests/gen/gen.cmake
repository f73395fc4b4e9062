# Random differential testing (tests/gen), included by the top-level
# CMakeLists.txt: run-gen generates shaders, compiles them with uscc at -O2
# and -O0 and compares uscc-run with uscc-ref (and llvmpipe-render when
# built).  Seeds failing for a known reason are in known-failures.txt.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND AND TARGET uscc_cli AND TARGET uscc_run AND TARGET uscc_ref)
  # 400 seeds take about 20 s on 2 cores
  add_test(NAME gen_random
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/gen/run-gen
            --build ${CMAKE_BINARY_DIR} --seeds 400 --jobs 2 --no-llvmpipe
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gen_random PROPERTIES TIMEOUT 300)
  if(TARGET llvmpipe_render)
    # the same first seeds, with Mesa's llvmpipe as a second reference
    add_test(NAME gen_random_llvmpipe
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/gen/run-gen
              --build ${CMAKE_BINARY_DIR} --seeds 60 --jobs 2
      WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(gen_random_llvmpipe PROPERTIES TIMEOUT 300)
  endif()
endif()
