# tools/version.cmake — run at every build (CMakeLists.txt, target liquidcl_version):
# writes OUT (lq_version.h) with LQ_VERSION = "PROJECT_VERSION+gHASH[.dirty]" from git,
# or "PROJECT_VERSION" outside a git checkout, and rewrites it only when that changes, so
# a build that changes nothing recompiles nothing.
execute_process(COMMAND git -C "${SRC}" rev-parse --short=10 HEAD
                OUTPUT_VARIABLE hash OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE no_git ERROR_QUIET)
set(version "${PROJECT_VERSION}")
if(NOT no_git AND hash)
  execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  set(version "${PROJECT_VERSION}+g${hash}")
  if(dirty)
    set(version "${version}.dirty")
  endif()
endif()
set(text "#define LQ_VERSION \"${version}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUT}" "${text}")
endif()
