# Test tools, included by the top-level CMakeLists.txt.

# uscc-ref: the IR interpreter as a renderer with uscc-run's options, the
# reference the random-shader tests (tests/gen) compare uscc-run against.
add_executable(uscc_ref
  ${CMAKE_SOURCE_DIR}/tests/tools/uscc_ref.c
  ${CMAKE_SOURCE_DIR}/tests/tools/uscc_ref_bind.c
  ${CMAKE_SOURCE_DIR}/tests/tools/uscc_ref_frag.c
  ${CMAKE_SOURCE_DIR}/tests/tools/uscc_ref_vert.c)
target_include_directories(uscc_ref PRIVATE ${CMAKE_SOURCE_DIR}/tests/tools)
target_link_libraries(uscc_ref PRIVATE uscc_tools)
set_target_properties(uscc_ref PROPERTIES OUTPUT_NAME uscc-ref)

# values worked out by hand, both modes
add_test(NAME uscc_ref_smoke
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/tools/ref_smoke.sh $<TARGET_FILE:uscc_ref>)

# tests/tgsi judged as the real-world corpus is: emulator against the
# interpreter, -O0 and -O2 (tests/realworld/judge takes .tgsi files too)
if(TARGET uscc_cli AND TARGET uscc_run)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    add_test(NAME tgsi_judge
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/realworld/judge
              --build ${CMAKE_BINARY_DIR} --corpus ${CMAKE_SOURCE_DIR}/tests/tgsi --jobs 1)
    set_tests_properties(tgsi_judge PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  endif()
endif()

# compile-many: many shaders compiled in one process (tests/gen
# --compile-only), so that a sanitizer build pays one process start and
# one leak scan per batch, not per shader
add_executable(compile_many ${CMAKE_SOURCE_DIR}/tests/tools/compile_many.c)
target_link_libraries(compile_many PRIVATE uscc_tools)
set_target_properties(compile_many PROPERTIES OUTPUT_NAME compile-many)
add_test(NAME compile_many_smoke
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/tools/compile_many_smoke.sh $<TARGET_FILE:compile_many>
          ${CMAKE_SOURCE_DIR}/samples)

# tgsi-tokens: TGSI text as Mesa's binary tokens, so that the token
# reader is tested without Mesa: text and tokens of every tests/tgsi
# program must make byte-identical containers (tests/cli/tgsi_tokens.sh)
add_executable(tgsi_tokens ${CMAKE_SOURCE_DIR}/tests/tools/tgsi_tokens_write.c)
target_link_libraries(tgsi_tokens PRIVATE uscc_tools)
set_target_properties(tgsi_tokens PROPERTIES OUTPUT_NAME tgsi-tokens)
if(TARGET uscc_cli)
  add_test(NAME cli_tgsi_tokens
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/tgsi_tokens.sh $<TARGET_FILE:uscc_cli>
            $<TARGET_FILE:tgsi_tokens> ${CMAKE_SOURCE_DIR}/tests/tgsi)
endif()
