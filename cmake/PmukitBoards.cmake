# The emulated boards as units a firmware project links, from the install (find_package(pmukit)),
# add_subdirectory or FetchContent alike (docs/your-program.md):
#
#   pmukit::board::<board>   startup, vectors, console, timer, exit, fault catching, the C runtime
#                            pieces the board needs (newlib's system calls on ARM; elsewhere
#                            pmukit's C library subset, examples/common/libc/) and the linker
#                            script, for every board of the toolchain's architecture
#   pmukit_add_firmware(<name> BOARD <board> SOURCES <files>... [PROFILE | ENTRY <function>]
#                       [SAMPLE_RING <n>] [STACK_RING <n>] [STACK_BYTES <n>] [MAX_REGIONS <n>])
#       <name>.elf (and .map) from the user's sources on the board, with none of pmukit's own
#       warning options. PROFILE: the program's own main() runs inside the one entry point
#       (profiler/profile_main.h) through -Wl,--wrap=main; ENTRY <function>: `int <function>(void)`
#       does (the image's main is pmukit's). The sizes go to the C API (profiler/c_api.h), for
#       the whole image: sample ring 1024, stack ring 128 samples of 1024 bytes, 16 regions.
#       Writes <name>.qemu.sh: the board's QEMU command line for the image ("$@" appended).
#
# A board is one pmukit_board() call in examples/<dir>/board/pmukit_board.cmake:
#   pmukit_board(<board> ARCH <CMAKE_SYSTEM_PROCESSOR> DIR <examples dir> SOURCES <files>...
#                [RUNTIME_SOURCES <files>...] PROFILE_SOURCES <files>... LINKER_SCRIPT <file>
#                [COMPILE_OPTIONS <opts>...] [LINK_OPTIONS <opts>...] [LINK_LIBRARIES <libs>...]
#                [DEBUG_EXIT] [NO_LIBC] [TOOLCHAIN_FLAGS <flags>... TOOLCHAIN_HINT <text>] QEMU <command>...)
# (files relative to examples/<dir>/). RUNTIME_SOURCES: the C runtime's own mem* and str* loops,
# built so that the compiler does not turn them back into calls to themselves (GCC:
# -fno-tree-loop-distribute-patterns, clang: -fno-builtin). DEBUG_EXIT: the board's QEMU ends with
# isa-debug-exit's status, (code << 1) | 1, which <name>.qemu.sh turns back into the program's.
# NO_LIBC: the board gives no C library glue (no printf, no malloc): the ownprog test skips it.
# TOOLCHAIN_FLAGS: flags the toolchain file must set (e.g. the board's -march; the compiler refuses
# two); where they are missing the board has no target and pmukit_add_firmware says TOOLCHAIN_HINT.
# Only the boards of the toolchain's architecture get a target.
include_guard(GLOBAL)

if(NOT DEFINED PMUKIT_BOARDS_ROOT)
  message(FATAL_ERROR "PmukitBoards.cmake: set PMUKIT_BOARDS_ROOT (the tree holding examples/<board>/board)")
endif()
# A board is C, C++ and assembly: enabled here for find_package's caller (a subdirectory's
# languages do not reach its parent: there the project declares them, pmukit_add_firmware says so).
if(CMAKE_CROSSCOMPILING)
  enable_language(C)
  enable_language(CXX)
  enable_language(ASM)
endif()

function(pmukit_board board)
  cmake_parse_arguments(B "DEBUG_EXIT;NO_LIBC" "ARCH;DIR;LINKER_SCRIPT;TOOLCHAIN_HINT"
                        "SOURCES;RUNTIME_SOURCES;PROFILE_SOURCES;COMPILE_OPTIONS;LINK_OPTIONS;LINK_LIBRARIES;QEMU;TOOLCHAIN_FLAGS"
                        ${ARGN})
  set_property(GLOBAL APPEND PROPERTY PMUKIT_ALL_BOARDS ${board})
  # What the targets (cmake/PmuTargets.cmake) and their scripts read of every board, built or not.
  foreach(f ARCH DIR QEMU DEBUG_EXIT NO_LIBC)
    set_property(GLOBAL PROPERTY PMUKIT_BOARD_${board}_${f} "${B_${f}}")
  endforeach()
  if(NOT CMAKE_CROSSCOMPILING OR NOT CMAKE_SYSTEM_PROCESSOR STREQUAL B_ARCH OR TARGET pmukit_board_${board})
    return()
  endif()
  # Flags the toolchain itself must give (GCC refuses a second, different -march): without them the
  # board is not defined here, and pmukit_add_firmware says what to set.
  foreach(flag IN LISTS B_TOOLCHAIN_FLAGS)
    if(NOT " ${CMAKE_C_FLAGS} " MATCHES " ${flag} ")
      set_property(GLOBAL PROPERTY PMUKIT_BOARD_${board}_NEEDS
        "board '${board}' is built with ${flag}, which this toolchain's flags (CMAKE_C_FLAGS '${CMAKE_C_FLAGS}') do not have: ${B_TOOLCHAIN_HINT}")
      return()
    endif()
  endforeach()
  set(dir ${PMUKIT_BOARDS_ROOT}/examples/${B_DIR})
  list(TRANSFORM B_SOURCES PREPEND ${dir}/)
  list(TRANSFORM B_RUNTIME_SOURCES PREPEND ${dir}/)
  list(TRANSFORM B_PROFILE_SOURCES PREPEND ${dir}/)
  set(ld ${dir}/${B_LINKER_SCRIPT})
  add_library(pmukit_board_${board} OBJECT EXCLUDE_FROM_ALL ${B_SOURCES} ${B_RUNTIME_SOURCES})
  if(B_RUNTIME_SOURCES)
    set_source_files_properties(${B_RUNTIME_SOURCES} TARGET_DIRECTORY pmukit_board_${board} PROPERTIES
      COMPILE_OPTIONS $<IF:$<CXX_COMPILER_ID:GNU>,-fno-tree-loop-distribute-patterns,-fno-builtin>)
  endif()
  add_library(pmukit::board::${board} ALIAS pmukit_board_${board})
  target_include_directories(pmukit_board_${board} PUBLIC ${dir} ${PMUKIT_BOARDS_ROOT})
  target_link_libraries(pmukit_board_${board} PUBLIC pmukit::profiler ${B_LINK_LIBRARIES})
  # The user's code gets the board's ABI options, its own sections (--gc-sections) and call frame
  # information in .debug_frame (the boards discard .eh_frame; `pmukit report` unwinds stack
  # samples with it), but no optimisation level and no warning options. The board's own code is
  # built as the examples build it.
  target_compile_options(pmukit_board_${board}
    PUBLIC ${B_COMPILE_OPTIONS} -g -fno-asynchronous-unwind-tables
           $<$<COMPILE_LANGUAGE:C,CXX>:-ffunction-sections -fdata-sections>
           $<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions -fno-rtti -fno-threadsafe-statics>
    PRIVATE $<$<COMPILE_LANGUAGE:C,CXX>:-O2 -ffreestanding>)
  target_link_options(pmukit_board_${board} INTERFACE ${B_LINK_OPTIONS} -T${ld})
  set_target_properties(pmukit_board_${board} PROPERTIES
    PMUKIT_PROFILE_SOURCES "${B_PROFILE_SOURCES}" PMUKIT_LINKER_SCRIPT ${ld} PMUKIT_QEMU "${B_QEMU}"
    PMUKIT_DEBUG_EXIT ${B_DEBUG_EXIT})
endfunction()

function(pmukit_add_firmware name)
  cmake_parse_arguments(F "PROFILE" "BOARD;ENTRY;SAMPLE_RING;STACK_RING;STACK_BYTES;MAX_REGIONS" "SOURCES" ${ARGN})
  if(NOT TARGET pmukit_board_${F_BOARD})
    get_property(needs GLOBAL PROPERTY PMUKIT_BOARD_${F_BOARD}_NEEDS)
    if(needs)
      message(FATAL_ERROR "pmukit_add_firmware(${name}): ${needs}")
    endif()
    get_property(all GLOBAL PROPERTY PMUKIT_ALL_BOARDS)
    set(here)
    foreach(b IN LISTS all)
      if(TARGET pmukit_board_${b})
        list(APPEND here ${b})
      endif()
    endforeach()
    message(FATAL_ERROR "pmukit_add_firmware(${name}): no board '${F_BOARD}' for this toolchain "
                        "(CMAKE_SYSTEM_PROCESSOR '${CMAKE_SYSTEM_PROCESSOR}'; boards here: ${here}; all: ${all})")
  endif()
  foreach(lang IN ITEMS C CXX ASM)
    if(NOT CMAKE_${lang}_COMPILER_LOADED)
      message(FATAL_ERROR "pmukit_add_firmware(${name}): the board is C, C++ and assembly: "
                          "project(<name> LANGUAGES C CXX ASM) in the project that calls it")
    endif()
  endforeach()
  add_executable(${name} ${F_SOURCES})
  target_link_libraries(${name} PRIVATE pmukit::board::${F_BOARD})
  # --build-id: the dump carries it and `pmukit report --elf` checks it (profiler/dump/image.hpp).
  target_link_options(${name} PRIVATE "LINKER:-Map=$<TARGET_FILE_DIR:${name}>/${name}.map" "LINKER:--build-id=sha1")
  get_target_property(ld pmukit_board_${F_BOARD} PMUKIT_LINKER_SCRIPT)
  set_target_properties(${name} PROPERTIES SUFFIX .elf LINK_DEPENDS ${ld} PMUKIT_BOARD ${F_BOARD})
  if(F_PROFILE OR F_ENTRY)
    get_target_property(entry pmukit_board_${F_BOARD} PMUKIT_PROFILE_SOURCES)
    set(glue ${CMAKE_CURRENT_BINARY_DIR}/${name}.pmukit_main.c)
    if(F_ENTRY)
      file(CONFIGURE OUTPUT ${glue} CONTENT "#include \"profiler/profile_main.h\"\nint ${F_ENTRY}(void);\nPMUKIT_PROFILE_MAIN(${F_ENTRY})\n")
    else()
      # The board's startup calls main; --wrap sends that call to __wrap_main, which runs the
      # program's main (now __real_main) inside the entry point. The program keeps its name.
      file(CONFIGURE OUTPUT ${glue} CONTENT "#include \"profiler/profile_main.h\"\nint __real_main(void);\nint __wrap_main(void);\nint __wrap_main(void) { return pmukit_profile_main(__real_main); }\n")
      target_link_options(${name} PRIVATE "LINKER:--wrap=main")
    endif()
    target_sources(${name} PRIVATE ${entry} ${glue})
    set_source_files_properties(${entry} TARGET_DIRECTORY ${name} PROPERTIES COMPILE_OPTIONS "-O2;-ffreestanding")
    foreach(size IN ITEMS SAMPLE_RING STACK_RING STACK_BYTES MAX_REGIONS)
      set(default_SAMPLE_RING 1024)
      set(default_STACK_RING 128)
      set(default_STACK_BYTES 1024)
      set(default_MAX_REGIONS 16)
      if(NOT DEFINED F_${size})
        set(F_${size} ${default_${size}})
      endif()
      target_compile_definitions(${name} PRIVATE PMUKIT_${size}=${F_${size}}u)
    endforeach()
  endif()
  get_target_property(qemu pmukit_board_${F_BOARD} PMUKIT_QEMU)
  get_target_property(debug_exit pmukit_board_${F_BOARD} PMUKIT_DEBUG_EXIT)
  list(JOIN qemu " " qemu)
  set(run "exec ${qemu} -kernel \"$<TARGET_FILE:${name}>\" \"$@\"\n")
  if(debug_exit)
    # isa-debug-exit: status (code << 1) | 1; an even status is QEMU's own (no verdict from the image).
    set(run "${qemu} -kernel \"$<TARGET_FILE:${name}>\" \"$@\"\ns=$?\n"
            "if [ $((s % 2)) -eq 1 ]\nthen exit $(((s - 1) / 2))\nfi\n"
            "echo \"${name}.qemu.sh: QEMU exit status $s, not through isa-debug-exit: no status from the image\" >&2\nexit 125\n")
    string(JOIN "" run ${run})
  endif()
  file(GENERATE OUTPUT $<TARGET_FILE_DIR:${name}>/${name}.qemu.sh
       CONTENT "#!/bin/sh\n# ${name} on board ${F_BOARD}'s emulator; the console (and the dump's text frames) on stdout.\n${run}"
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  if(CMAKE_SIZE)
    add_custom_command(TARGET ${name} POST_BUILD COMMAND ${CMAKE_SIZE} $<TARGET_FILE:${name}> VERBATIM)
  endif()
endfunction()

# The boards: one file each, beside their sources.
file(GLOB _pmukit_board_files ${PMUKIT_BOARDS_ROOT}/examples/*/board/pmukit_board.cmake)
list(SORT _pmukit_board_files)
foreach(_f IN LISTS _pmukit_board_files)
  include(${_f})
endforeach()
unset(_pmukit_board_files)
unset(_f)
