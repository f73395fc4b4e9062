# Script-driven tests, included by the top-level CMakeLists.txt.

# uscc's command line (tests/cli/*.sh), each given the built binary.
if(TARGET uscc_cli)
  add_test(NAME cli_usage
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/usage.sh $<TARGET_FILE:uscc_cli>)
  add_test(NAME cli_compile
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/compile.sh $<TARGET_FILE:uscc_cli>)
  add_test(NAME cli_inactive_jump
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/inactive_jump.sh $<TARGET_FILE:uscc_cli>)
endif()

# uscc-run on hostile containers, textures and options (needs uscc too).
if(TARGET uscc_cli AND TARGET uscc_run)
  add_test(NAME cli_run_errors
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/run_errors.sh $<TARGET_FILE:uscc_cli>
            $<TARGET_FILE:uscc_run>)
endif()

# libuscc.so exports only the API, has its SONAME, needs libc and libm only.
if(USCC_SANITIZE OR USCC_TSAN)
  set(LIB_EXPORTS_MODE sanitized)
else()
  set(LIB_EXPORTS_MODE "")
endif()
add_test(NAME lib_exports
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/lib/exports.sh $<TARGET_FILE:uscc> ${LIB_EXPORTS_MODE})

# The TGSI frontend (docs/tgsi.md): the command line on tests/tgsi; a
# corpus of r300's TGSI for real-world shaders, when one is at hand
# (skipped loudly otherwise).  tests/tools/tools.cmake judges tests/tgsi.
if(TARGET uscc_cli)
  add_test(NAME cli_tgsi
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/tgsi.sh $<TARGET_FILE:uscc_cli>
            ${CMAKE_SOURCE_DIR}/tests/tgsi)
  add_test(NAME tgsi_realworld
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/tgsi/corpus.sh $<TARGET_FILE:uscc_cli>)
  set_tests_properties(tgsi_realworld PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()

# Corpus 2's deterministic parts (bench/corpus/corpus_recipes.py): which
# files are candidates, the wrappers, the per-package cap.
add_test(NAME corpus_recipes
  COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/corpus/test_recipes.py)

# The patched Mesa r300 (integrations/mesa-r300): given a folder build.sh
# printed (-DUSCC_MESA_R300_DIR=...) and r300_measure (-DUSCC_R300_MEASURE=...),
# the samples compile through it, each by uscc or with a clean fallback.
if(USCC_MESA_R300_DIR AND USCC_R300_MEASURE AND TARGET uscc_cli AND TARGET uscc_run)
  file(GLOB mesa_samples ${CMAKE_SOURCE_DIR}/samples/*.frag)
  add_test(NAME mesa_r300_patch
    COMMAND bash ${CMAKE_SOURCE_DIR}/integrations/mesa-r300/test.sh ${USCC_MESA_R300_DIR}
            ${USCC_R300_MEASURE} $<TARGET_FILE_DIR:uscc_cli> ${mesa_samples})
  set_tests_properties(mesa_r300_patch PROPERTIES SKIP_RETURN_CODE 77)
endif()

# bench/mesa's pieces that need no Mesa: r300's debug dump read into a
# container that uscc-run runs to uscc's pixels, Mesa's constant layout,
# the table's maths (the bench itself runs in .ci/test).
if(TARGET uscc_cli AND TARGET uscc_run)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    add_test(NAME bench_mesa_pieces
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/bench/test_mesa_bench.py
              $<TARGET_FILE:uscc_cli> $<TARGET_FILE:uscc_run>)
  endif()
endif()
