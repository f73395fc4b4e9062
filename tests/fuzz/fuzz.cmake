# The libFuzzer targets (tests/fuzz/fuzz_<name>.c), included by the
# top-level CMakeLists.txt.
#  - Always, with any compiler: fuzz_replay_<name>, the target's
#    LLVMFuzzerTestOneInput over files (replay_main.c), run by ctest over
#    tests/fuzz/regressions/<name>/ and a few seeds, so every finding's
#    input is replayed in CI forever.
#  - With -DUSCC_FUZZ=ON (clang only): fuzz_<name>, the libFuzzer
#    executables, and the whole tree instrumented for coverage with
#    ASan + UBSan (and assertions and pass validation on).  tests/fuzz/run
#    builds and runs them.
option(USCC_FUZZ "Build the libFuzzer targets (clang; implies ASan + UBSan)" OFF)

set(FUZZ_DIR ${CMAKE_SOURCE_DIR}/tests/fuzz)
set(FUZZ_REG ${FUZZ_DIR}/regressions)
set(FUZZ_TARGETS source container container_fixed ir_parse pp tgsi tgsi_tokens)

if(USCC_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "USCC_FUZZ needs clang (CC=clang), not ${CMAKE_C_COMPILER_ID}")
  endif()
  # Every target of the tree so far: coverage for libFuzzer, the
  # sanitizers, and no NDEBUG (the pass runner validates after each pass).
  get_property(fuzz_all DIRECTORY ${CMAKE_SOURCE_DIR} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${fuzz_all})
    get_target_property(type ${t} TYPE)
    if(type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|EXECUTABLE|OBJECT_LIBRARY)$")
      # -O1 as OSS-Fuzz builds: several times the executions per second of
      # an unoptimized sanitizer build, and timeouts that mean something
      target_compile_options(${t} PRIVATE -fsanitize=fuzzer-no-link,address,undefined
        -fno-sanitize-recover=all -fno-omit-frame-pointer -UNDEBUG -O1 -g)
      if(NOT type STREQUAL "STATIC_LIBRARY" AND NOT type STREQUAL "OBJECT_LIBRARY")
        target_link_options(${t} PRIVATE -fsanitize=address,undefined)
      endif()
    endif()
  endforeach()
endif()

# Compiled containers for the container replays, made by a test that the
# replays require.
set(FUZZ_SEED_BIN ${CMAKE_BINARY_DIR}/fuzz-seeds/containers)
if(TARGET uscc_cli)
  file(GLOB fuzz_frag CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/samples/*.frag
    ${CMAKE_SOURCE_DIR}/tests/shaders/*.frag)
  add_test(NAME fuzz_seed_containers
    COMMAND sh ${FUZZ_DIR}/compile-seeds $<TARGET_FILE:uscc_cli> ${FUZZ_SEED_BIN} ${fuzz_frag})
  set_tests_properties(fuzz_seed_containers PROPERTIES FIXTURES_SETUP fuzz_containers)
endif()

set(FUZZ_SEEDS_source ${CMAKE_SOURCE_DIR}/samples ${CMAKE_SOURCE_DIR}/tests/shaders)
set(FUZZ_SEEDS_pp ${FUZZ_SEEDS_source})
set(FUZZ_SEEDS_tgsi ${CMAKE_SOURCE_DIR}/tests/tgsi)
set(FUZZ_SEEDS_ir_parse ${CMAKE_SOURCE_DIR}/tests/ir/fixtures ${CMAKE_SOURCE_DIR}/tests/backend/fixtures)
set(FUZZ_SEEDS_container ${FUZZ_SEED_BIN})
set(FUZZ_SEEDS_container_fixed ${FUZZ_SEED_BIN})

foreach(name ${FUZZ_TARGETS})
  set(src ${FUZZ_DIR}/fuzz_${name}.c ${FUZZ_DIR}/fuzz_util.c)
  add_executable(fuzz_replay_${name} ${src} ${FUZZ_DIR}/replay_main.c)
  target_link_libraries(fuzz_replay_${name} PRIVATE uscc_tools)
  target_include_directories(fuzz_replay_${name} PRIVATE ${FUZZ_DIR})
  add_test(NAME fuzz_replay_${name}
    COMMAND fuzz_replay_${name} ${FUZZ_REG}/${name} ${FUZZ_SEEDS_${name}})
  set_tests_properties(fuzz_replay_${name} PROPERTIES TIMEOUT 600)
  if(name MATCHES "^container" AND TARGET uscc_cli)
    set_tests_properties(fuzz_replay_${name} PROPERTIES FIXTURES_REQUIRED fuzz_containers)
  endif()
  if(USCC_FUZZ)
    add_executable(fuzz_${name} ${src})
    target_link_libraries(fuzz_${name} PRIVATE uscc_tools)
    target_include_directories(fuzz_${name} PRIVATE ${FUZZ_DIR})
    target_compile_options(fuzz_${name} PRIVATE -fsanitize=fuzzer,address,undefined
      -fno-sanitize-recover=all -fno-omit-frame-pointer -UNDEBUG)
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  endif()
endforeach()
