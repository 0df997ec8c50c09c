# Not a toolchain file itself: the part the <triple>-clang.cmake files for the linux-gnu cross
# targets share. clang 14 compiles for PMU_TARGET_TRIPLE with PMU_CLANG_FLAGS; the GNU cross
# toolchain of the same triple assembles the boards' .S files (PMU_GNU_FLAGS, as its GCC build does)
# and links (its gcc/g++ find their libgcc; clang's driver would ask for crt files firmware lacks).
# clang's Linux driver selects that toolchain's installation (/usr/lib/gcc-cross/<triple>) by
# itself and compiles against its libstdc++ and C headers with clang's own builtin headers (stddef.h,
# stdint.h); the check below stops the configure if it picked anything else.
find_program(PMU_CLANG NAMES clang clang-14 REQUIRED)
find_program(PMU_CLANGXX NAMES clang++ clang++-14 REQUIRED)
set(CMAKE_C_COMPILER ${PMU_CLANG})
set(CMAKE_CXX_COMPILER ${PMU_CLANGXX})
set(CMAKE_C_COMPILER_TARGET ${PMU_TARGET_TRIPLE})
set(CMAKE_CXX_COMPILER_TARGET ${PMU_TARGET_TRIPLE})
set(CMAKE_ASM_COMPILER ${PMU_TARGET_TRIPLE}-gcc)
set(CMAKE_AR ${PMU_TARGET_TRIPLE}-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${PMU_TARGET_TRIPLE}-ranlib CACHE FILEPATH "")
set(CMAKE_OBJDUMP ${PMU_TARGET_TRIPLE}-objdump CACHE FILEPATH "")
set(CMAKE_SIZE ${PMU_TARGET_TRIPLE}-size CACHE FILEPATH "")

# Every C++ include directory the GNU g++ lists must be in clang's list too (GCC's private
# directory aside: clang brings its own builtin headers).
function(_pmu_include_dirs out)
  execute_process(COMMAND ${ARGN} -E -x c++ - -v INPUT_FILE /dev/null OUTPUT_QUIET ERROR_VARIABLE search)
  string(REGEX REPLACE ".*#include <...> search starts here:\n(.*)End of search list.*" "\\1" dirs "${search}")
  string(REGEX REPLACE "[ \n]+" ";" dirs "${dirs}")
  set(real "")
  foreach(d IN LISTS dirs)
    if(d)
      get_filename_component(d "${d}" REALPATH)
      list(APPEND real "${d}")
    endif()
  endforeach()
  set(${out} "${real}" PARENT_SCOPE)
endfunction()
_pmu_include_dirs(_gnu_dirs ${PMU_TARGET_TRIPLE}-g++)
_pmu_include_dirs(_clang_dirs ${PMU_CLANGXX} --target=${PMU_TARGET_TRIPLE})
if(NOT _gnu_dirs)
  message(FATAL_ERROR "${PMU_TARGET_TRIPLE}-g++ not found: the clang build uses its headers, assembler and linker")
endif()
foreach(d IN LISTS _gnu_dirs)
  if(NOT d IN_LIST _clang_dirs AND NOT d MATCHES "/gcc(-cross)?/${PMU_TARGET_TRIPLE}/[0-9]+/include$")
    message(FATAL_ERROR "clang --target=${PMU_TARGET_TRIPLE} does not search ${d}, which "
            "${PMU_TARGET_TRIPLE}-g++ does: not the GNU cross toolchain's headers")
  endif()
endforeach()

set(CMAKE_C_FLAGS_INIT "${PMU_CLANG_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${PMU_CLANG_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${PMU_GNU_FLAGS}")
# <FLAGS> carries PMU_CLANG_FLAGS to the link too: flags GCC reads the same way.
set(CMAKE_C_LINK_EXECUTABLE
    "${PMU_TARGET_TRIPLE}-gcc <FLAGS> <CMAKE_C_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
set(CMAKE_CXX_LINK_EXECUTABLE
    "${PMU_TARGET_TRIPLE}-g++ <FLAGS> <CMAKE_CXX_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
# Firmware links freestanding (-nostdlib); compiler checks do not link a hosted program.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH /usr/${PMU_TARGET_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
