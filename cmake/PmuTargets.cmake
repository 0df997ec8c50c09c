# The cross targets as registered units: one pmu_target() call each in cmake/targets.cmake.
#
#   pmu_target(<preset> ARCH <CMAKE_SYSTEM_PROCESSOR> TOOLCHAIN <triple> [TOOLCHAIN_ARGS <-DVAR=VALUE>...]
#              FLAGS <flags>... [CODE_MODEL <flags>...] PMU <pmu> BOARD <board> PROFILE <firmware>
#              SIM <pmusim machine> ELF_MACHINE <e_machine> ELF_ORDER little|big ELF_NAME <name>
#              [ELF_ISA <e_flags ISA level> ELF_ISA_NAME <name>] RUN qemu|sim WHY <text>
#              DESCRIPTION <text> [PRESET_CACHE <VAR=VALUE>...])
#
#   <preset>        the CMake preset (CMakePresets.json, generated) and build/<preset>/
#   ARCH            the CMAKE_SYSTEM_PROCESSOR its toolchain file sets (examples/ builds the boards
#                   of the build's ARCH)
#   TOOLCHAIN       cmake/toolchains/<triple>.cmake (GCC; <triple>-clang.cmake for clang), whose
#                   GNU compiler is <triple>-g++; TOOLCHAIN_ARGS: the cache entries it is told
#                   (e.g. the MIPS -march), in the preset and every script's configure
#   FLAGS           the CPU flags that toolchain file gives (checked in every GCC build of the
#                   target), for compiles outside CMake (bench/footprint); CODE_MODEL: the board's
#                   bare-metal code model (absolute addresses, no GOT), for the zero-cost probe and
#                   the footprint
#   PMU             hal/<pmu>/: the zero-cost probe and the footprint's driver
#                   (PMU_ZERO_COST_PROBE and PMU_SILICON_DRIVER in hal/<pmu>/pmu.cmake)
#   BOARD           the pmukit_board() in examples/<dir>/board/pmukit_board.cmake: its folder, its
#                   QEMU command line and exit convention
#   PROFILE         the board's profiling example (scripts/profile.sh, bench/pmusim, bench/summary.sh)
#   SIM             pmusim's machine (`pmukit sim --pmu <SIM>`; tools/sim/run.cpp picks it from the
#                   ELF's e_machine and ISA level); none: no machine (scripts/profile.sh refuses
#                   --sim, bench/pmusim skips the target, the ownprog test runs QEMU only)
#   ELF_*           what the firmware's ELF must be (scripts/profile.sh --elf checks it)
#   RUN, WHY        where scripts/profile.sh runs it by default, and why
#   DESCRIPTION, PRESET_CACHE: the preset's display name and further cache variables
#
# Read by examples/CMakeLists.txt, bench/zero_cost (PMU_THIS_TARGET), the top-level ownprog tests;
# the scripts (scripts/profile.sh, scripts/test.sh, bench/zero_cost/run_all.sh,
# bench/footprint/footprint.sh, bench/pmusim/run.sh, tests/ownprog/run.sh) source the generated
# scripts/targets.sh. `cmake -P cmake/PmuTargets.cmake` regenerates scripts/targets.sh and
# CMakePresets.json; with -DCHECK=ON it only compares them (the host ctest
# targets_generated_files_match_cmake_targets_cmake).
if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  cmake_minimum_required(VERSION 3.25)
endif()
include_guard(GLOBAL)
get_filename_component(_pmu_targets_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

set(_pmu_target_one ARCH TOOLCHAIN PMU BOARD PROFILE SIM ELF_MACHINE ELF_ORDER ELF_NAME ELF_ISA ELF_ISA_NAME
    RUN WHY DESCRIPTION)
set(_pmu_target_multi TOOLCHAIN_ARGS FLAGS CODE_MODEL PRESET_CACHE)
set_property(GLOBAL PROPERTY PMU_TARGETS "")

function(pmu_target preset)
  cmake_parse_arguments(PARSE_ARGV 1 T "" "${_pmu_target_one}" "${_pmu_target_multi}")
  if(T_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pmu_target(${preset}): unknown arguments ${T_UNPARSED_ARGUMENTS}")
  endif()
  foreach(f ARCH TOOLCHAIN FLAGS PMU BOARD PROFILE SIM ELF_MACHINE ELF_ORDER ELF_NAME RUN WHY DESCRIPTION)
    if(NOT DEFINED T_${f})
      message(FATAL_ERROR "pmu_target(${preset}): ${f} is required (cmake/PmuTargets.cmake)")
    endif()
  endforeach()
  if(NOT EXISTS ${_pmu_targets_root}/cmake/toolchains/${T_TOOLCHAIN}.cmake)
    message(FATAL_ERROR "pmu_target(${preset}): no cmake/toolchains/${T_TOOLCHAIN}.cmake")
  endif()
  if(NOT EXISTS ${_pmu_targets_root}/hal/${T_PMU}/pmu.cmake)
    message(FATAL_ERROR "pmu_target(${preset}): no PMU hal/${T_PMU}/ (hal/pmus.cmake)")
  endif()
  # A PRESET_CACHE value may be a list ("VAR=a;b"): its semicolons kept apart from the field's.
  string(REPLACE "\\;" "<semicolon>" T_PRESET_CACHE "${T_PRESET_CACHE}")
  set_property(GLOBAL APPEND PROPERTY PMU_TARGETS ${preset})
  foreach(f IN LISTS _pmu_target_one _pmu_target_multi)
    set_property(GLOBAL PROPERTY PMU_TARGET_${preset}_${f} "${T_${f}}")
  endforeach()
endfunction()

# pmu_target_get(<preset> <FIELD> <var>): a field of a registered target ("" where not given).
function(pmu_target_get preset field out)
  get_property(v GLOBAL PROPERTY PMU_TARGET_${preset}_${field})
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

include(${_pmu_targets_root}/cmake/targets.cmake)
get_property(PMU_TARGETS GLOBAL PROPERTY PMU_TARGETS)

# Why target <t> does not fit this build ("" where it does): the toolchain's ARCH, the cache
# entries of its TOOLCHAIN_ARGS and, with GCC, the FLAGS the toolchain file gives (compiles outside
# CMake use them: bench/footprint).
function(_pmu_target_misfit t out)
  pmu_target_get(${t} ARCH arch)
  pmu_target_get(${t} TOOLCHAIN_ARGS args)
  pmu_target_get(${t} FLAGS flags)
  set(why "")
  if(NOT arch STREQUAL CMAKE_SYSTEM_PROCESSOR)
    set(why "it is an ${arch} target; this toolchain builds for '${CMAKE_SYSTEM_PROCESSOR}'")
  endif()
  foreach(a IN LISTS args)
    if(NOT why AND a MATCHES "^-D([A-Za-z0-9_]+)=(.*)$")
      set(var ${CMAKE_MATCH_1})
      set(want "${CMAKE_MATCH_2}")
      if(NOT "${${var}}" STREQUAL want)
        set(why "it needs ${a} (got '${${var}}')")
      endif()
    endif()
  endforeach()
  if(NOT why AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    foreach(f IN LISTS flags)
      string(FIND " ${CMAKE_CXX_FLAGS} " " ${f} " at)
      if(NOT why AND at EQUAL -1)
        set(why "its FLAGS have ${f}, which the toolchain's flags ('${CMAKE_CXX_FLAGS}') do not "
                "(cmake/targets.cmake and the toolchain file disagree)")
      endif()
    endforeach()
  endif()
  string(JOIN "" why ${why})
  set(${out} "${why}" PARENT_SCOPE)
endfunction()

# The target a cross build is for (PMU_THIS_TARGET): its preset where PMU_PRESET names one (which
# must fit the toolchain), else the first target that fits it; "" for a host build or a toolchain
# no target fits (a user's project with its own toolchain).
set(PMU_THIS_TARGET "")
if(NOT CMAKE_SCRIPT_MODE_FILE AND CMAKE_CROSSCOMPILING)
  if(PMU_PRESET IN_LIST PMU_TARGETS)
    _pmu_target_misfit(${PMU_PRESET} _why)
    if(_why)
      message(FATAL_ERROR "PMU_PRESET=${PMU_PRESET} (cmake/targets.cmake) does not fit this build: ${_why}")
    endif()
    set(PMU_THIS_TARGET ${PMU_PRESET})
  else()
    foreach(_t IN LISTS PMU_TARGETS)
      _pmu_target_misfit(${_t} _why)
      if(NOT _why)
        set(PMU_THIS_TARGET ${_t})
        break()
      endif()
    endforeach()
  endif()
  unset(_t)
  unset(_why)
endif()

# ---- The generated files (cmake -P cmake/PmuTargets.cmake [-DCHECK=ON]) ----------------------------
function(_pmu_sh_quote value out)
  string(REPLACE "'" "'\\''" value "${value}")
  set(${out} "'${value}'" PARENT_SCOPE)
endfunction()

function(_pmu_json_quote value out)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  set(${out} "\"${value}\"" PARENT_SCOPE)
endfunction()

# scripts/targets.sh: one bash associative array per field, indexed by preset.
function(pmu_targets_shell out)
  set(PMUKIT_BOARDS_ROOT ${_pmu_targets_root})
  include(${_pmu_targets_root}/cmake/PmukitBoards.cmake)
  set(fields arch toolchain toolchain_args flags code_model pmu board dir qemu debug_exit profile sim
             elf_machine elf_order elf_name elf_isa elf_isa_name run why driver driver_headers)
  foreach(f IN LISTS fields)
    set(sh_${f} "")
  endforeach()
  foreach(t IN LISTS PMU_TARGETS)
    foreach(f IN LISTS _pmu_target_one _pmu_target_multi)
      pmu_target_get(${t} ${f} v_${f})
    endforeach()
    pmu_target_get(${t} BOARD board)
    get_property(known GLOBAL PROPERTY PMUKIT_ALL_BOARDS)
    if(NOT board IN_LIST known)
      message(FATAL_ERROR "pmu_target(${t}): no board '${board}' (examples/*/board/pmukit_board.cmake: ${known})")
    endif()
    get_property(v_DIR GLOBAL PROPERTY PMUKIT_BOARD_${board}_DIR)
    get_property(v_QEMU GLOBAL PROPERTY PMUKIT_BOARD_${board}_QEMU)
    get_property(v_DEBUG_EXIT GLOBAL PROPERTY PMUKIT_BOARD_${board}_DEBUG_EXIT)
    if(v_DEBUG_EXIT)
      set(v_DEBUG_EXIT 1)
    else()
      set(v_DEBUG_EXIT 0)
    endif()
    # The PMU's driver on its silicon bus (hal/<pmu>/pmu.cmake), for the footprint.
    set(PMU_SILICON_DRIVER "")
    set(PMU_SILICON_HEADERS "")
    include(${_pmu_targets_root}/hal/${v_PMU}/pmu.cmake)
    set(v_DRIVER "${PMU_SILICON_DRIVER}")
    set(v_DRIVER_HEADERS "${PMU_SILICON_HEADERS}")
    foreach(f IN LISTS fields)
      string(TOUPPER ${f} F)
      set(v "${v_${F}}")
      list(JOIN v " " v)
      _pmu_sh_quote("${v}" q)
      string(APPEND sh_${f} " [${t}]=${q}")
    endforeach()
  endforeach()
  set(text "# Generated from cmake/targets.cmake (with the boards' examples/*/board/pmukit_board.cmake and the\n")
  string(APPEND text "# PMUs' hal/<pmu>/pmu.cmake) by `cmake -P cmake/PmuTargets.cmake`: do not edit. Sourced by the\n")
  string(APPEND text "# scripts; the fields are cmake/PmuTargets.cmake's, lower case, indexed by preset (dir: the board's\n")
  string(APPEND text "# examples/<dir>/, qemu: its QEMU command line, debug_exit: 1 where QEMU's status is\n")
  string(APPEND text "# (code << 1) | 1, driver/driver_headers: the PMU's PMU_SILICON_DRIVER/_HEADERS).\n")
  list(JOIN PMU_TARGETS " " all)
  string(APPEND text "pmu_targets=(${all})\n")
  foreach(f IN LISTS fields)
    string(APPEND text "declare -gA pmu_${f}=(${sh_${f}} )\n")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# CMakePresets.json: the host presets, then one configure, build, test and workflow preset per target.
function(pmu_targets_presets out)
  set(q "\"")
  set(host_asan_cache
    "        ${q}PMU_PRESET${q}: ${q}host-asan${q},\n"
    "        ${q}PMU_TEST_COMPILE_OPTIONS${q}: ${q}-O1${q},\n"
    "        ${q}CMAKE_CXX_FLAGS${q}: ${q}-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer${q},\n"
    "        ${q}CMAKE_C_FLAGS${q}: ${q}-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer${q},\n"
    "        ${q}CMAKE_EXE_LINKER_FLAGS${q}: ${q}-fsanitize=address,undefined${q}\n")
  string(JOIN "" host_asan_cache ${host_asan_cache})
  set(configure "")
  macro(_configure name display toolchain cache)
    string(APPEND configure "    {\n      \"name\": \"${name}\",\n      \"inherits\": \"base\",\n")
    _pmu_json_quote("${display}" d)
    string(APPEND configure "      \"displayName\": ${d},\n")
    if(NOT "${toolchain}" STREQUAL "")
      string(APPEND configure "      \"toolchainFile\": \"\${sourceDir}/cmake/toolchains/${toolchain}.cmake\",\n")
    endif()
    string(APPEND configure "      \"cacheVariables\": {\n${cache}      }\n    },\n")
  endmacro()
  _configure(host "Host: tests, host tool, header checks" "" "        \"PMU_PRESET\": \"host\"\n")
  foreach(t IN LISTS PMU_TARGETS)
    pmu_target_get(${t} DESCRIPTION display)
    pmu_target_get(${t} TOOLCHAIN toolchain)
    pmu_target_get(${t} TOOLCHAIN_ARGS args)
    pmu_target_get(${t} PRESET_CACHE extra)
    set(entries "PMU_PRESET=${t}")
    foreach(a IN LISTS args)
      string(REGEX REPLACE "^-D" "" a "${a}")
      list(APPEND entries "${a}")
    endforeach()
    list(APPEND entries ${extra})
    set(cache "")
    list(LENGTH entries n)
    set(i 0)
    foreach(e IN LISTS entries)
      math(EXPR i "${i} + 1")
      string(REGEX MATCH "^([^=]+)=(.*)$" _ "${e}")
      string(REPLACE "<semicolon>" ";" v "${CMAKE_MATCH_2}")
      _pmu_json_quote("${v}" v)
      string(APPEND cache "        \"${CMAKE_MATCH_1}\": ${v}")
      if(i LESS n)
        string(APPEND cache ",")
      endif()
      string(APPEND cache "\n")
    endforeach()
    _configure(${t} "${display}" ${toolchain} "${cache}")
  endforeach()
  _configure(host-asan "Host suite under AddressSanitizer and UndefinedBehaviorSanitizer (GCC)" "" "${host_asan_cache}")
  string(REGEX REPLACE ",\n$" "\n" configure "${configure}")

  set(all host ${PMU_TARGETS} host-asan)
  set(build "")
  set(test "")
  set(workflow "")
  foreach(p IN LISTS all)
    string(APPEND build "    {\n      \"name\": \"${p}\",\n      \"configurePreset\": \"${p}\"\n    },\n")
    string(APPEND test "    {\n      \"name\": \"${p}\",\n      \"configurePreset\": \"${p}\",\n"
                       "      \"output\": {\n        \"outputOnFailure\": true\n      },\n")
    if(p STREQUAL "host-asan")
      string(APPEND test "      \"filter\": {\n        \"exclude\": {\n          \"name\": \"compile_fail|fuzz|header_checks\"\n"
                         "        }\n      },\n")
    endif()
    string(APPEND test "      \"execution\": {\n        \"noTestsAction\": \"default\",\n        \"timeout\": 300,\n"
                       "        \"jobs\": 2\n      }\n    },\n")
    string(APPEND workflow "    {\n      \"name\": \"${p}\",\n      \"steps\": [\n")
    foreach(step configure build test)
      string(APPEND workflow "        {\n          \"type\": \"${step}\",\n          \"name\": \"${p}\"\n        }")
      if(NOT step STREQUAL "test")
        string(APPEND workflow ",")
      endif()
      string(APPEND workflow "\n")
    endforeach()
    string(APPEND workflow "      ]\n    },\n")
  endforeach()
  foreach(v build test workflow)
    string(REGEX REPLACE ",\n$" "\n" ${v} "${${v}}")
  endforeach()
  set(text "{\n  \"version\": 6,\n  \"cmakeMinimumRequired\": {\n    \"major\": 3,\n    \"minor\": 25,\n    \"patch\": 0\n  },\n")
  string(APPEND text "  \"configurePresets\": [\n    {\n      \"name\": \"base\",\n      \"hidden\": true,\n"
                     "      \"generator\": \"Ninja\",\n      \"binaryDir\": \"\${sourceDir}/build/\${presetName}\",\n"
                     "      \"cacheVariables\": {\n        \"CMAKE_BUILD_TYPE\": \"RelWithDebInfo\"\n      }\n    },\n")
  string(APPEND text "${configure}  ],\n  \"buildPresets\": [\n${build}  ],\n  \"testPresets\": [\n${test}  ],\n"
                     "  \"workflowPresets\": [\n${workflow}  ]\n}\n")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  pmu_targets_shell(shell)
  pmu_targets_presets(presets)
  set(stale "")
  foreach(pair "scripts/targets.sh;shell" "CMakePresets.json;presets")
    list(GET pair 0 file)
    list(GET pair 1 var)
    set(path ${_pmu_targets_root}/${file})
    set(old "")
    if(EXISTS ${path})
      file(READ ${path} old)
    endif()
    if(NOT old STREQUAL "${${var}}")
      if(CHECK)
        list(APPEND stale ${file})
      else()
        file(WRITE ${path} "${${var}}")
        message(STATUS "wrote ${file}")
      endif()
    endif()
  endforeach()
  if(stale)
    message(FATAL_ERROR "${stale}: not what cmake/targets.cmake generates; run `cmake -P cmake/PmuTargets.cmake`")
  endif()
  message(STATUS "generated files match cmake/targets.cmake")
endif()
