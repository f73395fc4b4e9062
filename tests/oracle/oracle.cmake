# The llvmpipe oracle (tests/oracle/): renders GLSL with Mesa's software
# renderer for comparison with uscc-run.  Optional: built only when the EGL
# and GL libraries are found (Debian: libegl-dev libgl-dev libegl-mesa0
# libgl1-mesa-dri).  It compiles the three runtime files it shares with
# uscc-run itself (PNG files, built-in textures, the command line) and
# util/texture.c (mip chains), so it does not depend on the rest of the
# compiler.
find_package(OpenGL COMPONENTS EGL OpenGL)
if(TARGET OpenGL::EGL AND TARGET OpenGL::OpenGL)
  add_executable(llvmpipe_render
    ${CMAKE_SOURCE_DIR}/tests/oracle/llvmpipe_render.c
    ${CMAKE_SOURCE_DIR}/tests/oracle/oracle_gl.c
    ${CMAKE_SOURCE_DIR}/tests/oracle/oracle_scan.c
    ${CMAKE_SOURCE_DIR}/tests/oracle/oracle_derivs.c
    ${CMAKE_SOURCE_DIR}/runtime/png_io.c
    ${CMAKE_SOURCE_DIR}/runtime/builtin_textures.c
    ${CMAKE_SOURCE_DIR}/runtime/run_args.c
    ${CMAKE_SOURCE_DIR}/util/texture.c)
  target_include_directories(llvmpipe_render PRIVATE
    ${CMAKE_SOURCE_DIR}/tests/oracle ${CMAKE_SOURCE_DIR}/runtime ${CMAKE_SOURCE_DIR}/ir
    ${CMAKE_SOURCE_DIR}/util)
  target_link_libraries(llvmpipe_render PRIVATE OpenGL::EGL OpenGL::OpenGL PNG::PNG ${M_LIB})
  # Under the sanitizers this tool would mostly check Mesa's LLVM, at 2.4x
  # the time per render; its few files of ours are checked in uscc-run.
  set_target_properties(llvmpipe_render PROPERTIES OUTPUT_NAME llvmpipe-render
    USCC_UNSANITIZED ON)
  message(STATUS "llvmpipe oracle: enabled")
else()
  message(STATUS "llvmpipe oracle: disabled (EGL/OpenGL libraries not found)")
endif()

# Every sample and test shader through uscc + uscc-run against llvmpipe.
find_package(Python3 COMPONENTS Interpreter)
if(TARGET llvmpipe_render AND TARGET uscc_cli AND TARGET uscc_run AND Python3_Interpreter_FOUND)
  add_test(NAME oracle_llvmpipe
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/oracle/compare-llvmpipe
      --uscc $<TARGET_FILE:uscc_cli> --uscc-run $<TARGET_FILE:uscc_run>
      --render $<TARGET_FILE:llvmpipe_render>
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  # 77: llvmpipe unavailable on this machine (no surfaceless EGL)
  # Mesa's driver keeps allocations past exit that LeakSanitizer would
  # report in a sanitizer build; leaks of our own code are caught elsewhere.
  set_tests_properties(oracle_llvmpipe PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900
    ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
endif()

# The renderers' agreement scripts (tests/tools/*_agree.sh): each takes
# uscc, uscc-run and uscc-ref, then optional arguments.
function(uscc_agree_test name script)
  add_test(NAME ${name}
    COMMAND sh ${CMAKE_SOURCE_DIR}/tests/tools/${script} $<TARGET_FILE:uscc_cli>
      $<TARGET_FILE:uscc_run> $<TARGET_FILE:uscc_ref> ${ARGN})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
endfunction()

if(TARGET uscc_cli AND TARGET uscc_run AND TARGET uscc_ref)
  if(TARGET llvmpipe_render)
    set(WRAP_AGREE_LLVM $<TARGET_FILE:llvmpipe_render>)
  else()
    set(WRAP_AGREE_LLVM "")
  endif()
  # every --wrap/--filter mode: emulator and interpreter within 1e-6,
  # llvmpipe (when built) within 1e-4
  uscc_agree_test(wrap_filter_agree wrap_agree.sh ${WRAP_AGREE_LLVM})
  # mip chains and level of detail: emulator and interpreter within 1e-5
  # under every filter, llvmpipe (when built) where lambda is whole
  uscc_agree_test(lod_agree lod_agree.sh ${WRAP_AGREE_LLVM})
  # shadow samplers under every --shadow compare function and depth mode:
  # emulator and interpreter within 1e-6, GL's rules on the pictures
  uscc_agree_test(shadow_agree shadow_agree.sh)
  # uniform arrays read at a loop's counter through aL, and where they may
  # not be: emulator and interpreter within 1e-5 at -O2 and -O0
  uscc_agree_test(loop_rel_agree loop_rel_agree.sh)
  # local arrays read and written at a loop's counter through aL, guarded
  # where the index may leave them: emulator and interpreter within 1e-5
  uscc_agree_test(loop_array_agree loop_array_agree.sh)
endif()
