# The PMU kit's registration: a PMU is hal/<pmu>/ plus one pmu_add(<pmu>) line in hal/pmus.cmake.
#
# pmu_add(<pmu>) reads hal/<pmu>/pmu.cmake, which sets
#   PMU_CATALOG_HEADER   the header that defines the PMU's catalogs (e.g. hal/<pmu>/events.hpp)
#   PMU_CATALOGS         the catalogs' C++ names (e.g. pmu::e500::catalog), listed by `pmukit events`
# and may set (a PMU without them has no derived metrics)
#   PMU_METRICS_HEADER   the header that defines its metric tables (hal/<pmu>/metrics.hpp)
#   PMU_METRICS          one pmu::MetricTable per entry of PMU_CATALOGS, in the same order (two
#                        catalogs may name the same table); `pmukit events --metrics` lists them
#                        and the host evaluates them (tools/report/metrics.hpp)
#   PMU_METRIC_TERM_TEXT a constexpr function in that header that spells a metric term in the
#                        PMU's own syntax, `std::size_t f(const pmu::MetricEvent&, char* out,
#                        std::size_t size)` (0: cannot), for a PMU whose qualifier has names
#                        (NetBurst's ESCR masks); without it a qualifier prints as a number
# and registers, where this build has them:
#   - the interface library pmukit::<pmu> (pmukit_<pmu> in the tree, installed and exported);
#   - the catalogs and their metric tables with the host tool (a generated header,
#     pmukit_catalogs.hpp, which checks each table against its catalog at compile time);
#   - the PMU's host tests and must-fail compile cases: hal/<pmu>/tests/CMakeLists.txt, added
#     when the build has tests (pmu_host_test and pmu_compile_fail are defined by then).
# pmu.cmake also sets PMU_SILICON_DRIVER and PMU_SILICON_HEADERS: the driver type on the silicon's
# bus and its headers (bench/footprint, through scripts/targets.sh), and
#   PMU_ZERO_COST_PROBE  the PMU's zero-cost probe, relative to hal/<pmu>/ (tests/zero_cost_probe.cpp),
#                        which bench/zero_cost builds and checks for each target of the PMU
#                        (cmake/targets.cmake); the probe declares what check.py must know of the
#                        PMU's code (bench/zero_cost/window.hpp). Its hand-written reference asm
#                        stays in tests/: the driver and the rest of hal/<pmu>/ hold none.
# pmu_zero_cost_probe(<pmu> <var>) gives its absolute path ("" for none).
set_property(GLOBAL PROPERTY PMU_LIST "")
set_property(GLOBAL PROPERTY PMU_CATALOG_HEADERS "")
set_property(GLOBAL PROPERTY PMU_CATALOG_NAMES "")
set_property(GLOBAL PROPERTY PMU_METRIC_HEADERS "")
set_property(GLOBAL PROPERTY PMU_METRIC_NAMES "")  # one per catalog; "-" for none
set_property(GLOBAL PROPERTY PMU_METRIC_TERM_TEXTS "")  # one per catalog; "-" for none
get_filename_component(_pmu_kit_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

macro(pmu_add pmu)
  set(PMU_CATALOG_HEADER "")
  set(PMU_CATALOGS "")
  set(PMU_METRICS_HEADER "")
  set(PMU_METRICS "")
  set(PMU_METRIC_TERM_TEXT "")
  set(PMU_ZERO_COST_PROBE "")
  if(NOT EXISTS ${_pmu_kit_root}/hal/${pmu}/pmu.cmake)
    message(FATAL_ERROR "pmu_add(${pmu}): hal/${pmu}/pmu.cmake is missing")
  endif()
  include(${_pmu_kit_root}/hal/${pmu}/pmu.cmake)
  if(PMU_ZERO_COST_PROBE)
    if(NOT EXISTS ${_pmu_kit_root}/hal/${pmu}/${PMU_ZERO_COST_PROBE})
      message(FATAL_ERROR "pmu_add(${pmu}): PMU_ZERO_COST_PROBE hal/${pmu}/${PMU_ZERO_COST_PROBE} is missing")
    endif()
    set_property(GLOBAL PROPERTY PMU_ZERO_COST_PROBE_${pmu} ${_pmu_kit_root}/hal/${pmu}/${PMU_ZERO_COST_PROBE})
  endif()
  if(NOT PMU_CATALOG_HEADER OR NOT PMU_CATALOGS)
    message(FATAL_ERROR "pmu_add(${pmu}): pmu.cmake must set PMU_CATALOG_HEADER and PMU_CATALOGS")
  endif()
  list(LENGTH PMU_CATALOGS _pmu_ncat)
  if(PMU_METRICS OR PMU_METRICS_HEADER)
    list(LENGTH PMU_METRICS _pmu_nmet)
    if(NOT PMU_METRICS_HEADER OR NOT _pmu_nmet EQUAL _pmu_ncat)
      message(FATAL_ERROR "pmu_add(${pmu}): pmu.cmake sets PMU_METRICS_HEADER and one PMU_METRICS "
                          "table per catalog (${_pmu_ncat} catalogs, ${_pmu_nmet} tables)")
    endif()
    set_property(GLOBAL APPEND PROPERTY PMU_METRIC_HEADERS ${PMU_METRICS_HEADER})
    set_property(GLOBAL APPEND PROPERTY PMU_METRIC_NAMES ${PMU_METRICS})
  elseif(PMU_METRIC_TERM_TEXT)
    message(FATAL_ERROR "pmu_add(${pmu}): PMU_METRIC_TERM_TEXT without PMU_METRICS")
  else()
    foreach(_pmu_i RANGE 1 ${_pmu_ncat})
      set_property(GLOBAL APPEND PROPERTY PMU_METRIC_NAMES "-")
    endforeach()
  endif()
  foreach(_pmu_i RANGE 1 ${_pmu_ncat})
    if(PMU_METRIC_TERM_TEXT)
      set_property(GLOBAL APPEND PROPERTY PMU_METRIC_TERM_TEXTS ${PMU_METRIC_TERM_TEXT})
    else()
      set_property(GLOBAL APPEND PROPERTY PMU_METRIC_TERM_TEXTS "-")
    endif()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY PMU_LIST ${pmu})
  add_library(pmukit_${pmu} INTERFACE)
  target_link_libraries(pmukit_${pmu} INTERFACE pmukit_hal)
  set_target_properties(pmukit_${pmu} PROPERTIES EXPORT_NAME ${pmu})
  add_library(pmukit::${pmu} ALIAS pmukit_${pmu})
  set_property(GLOBAL APPEND PROPERTY PMU_CATALOG_HEADERS ${PMU_CATALOG_HEADER})
  set_property(GLOBAL APPEND PROPERTY PMU_CATALOG_NAMES ${PMU_CATALOGS})
endmacro()

function(pmu_zero_cost_probe pmu out)
  get_property(v GLOBAL PROPERTY PMU_ZERO_COST_PROBE_${pmu})
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# The host tool's list of catalogs, and their metric tables, from every registered PMU.
function(pmu_generate_catalogs out)
  get_property(headers GLOBAL PROPERTY PMU_CATALOG_HEADERS)
  get_property(names GLOBAL PROPERTY PMU_CATALOG_NAMES)
  get_property(metric_headers GLOBAL PROPERTY PMU_METRIC_HEADERS)
  get_property(metric_names GLOBAL PROPERTY PMU_METRIC_NAMES)
  get_property(term_texts GLOBAL PROPERTY PMU_METRIC_TERM_TEXTS)
  set(text "#pragma once\n// Generated by cmake/PmuKit.cmake from hal/pmus.cmake: every registered PMU's catalogs and\n")
  string(APPEND text "// their metric tables (registered_metric_tables[i] is registered_catalogs[i]'s).\n")
  string(APPEND text "#include <cstddef>\n\n#include \"hal/core/event.hpp\"\n#include \"hal/core/metric.hpp\"\n")
  foreach(h IN LISTS headers metric_headers)
    string(APPEND text "#include \"${h}\"\n")
  endforeach()
  string(APPEND text "\nnamespace pmu {\ninline constexpr PmuCatalog registered_catalogs[] = {\n")
  foreach(n IN LISTS names)
    string(APPEND text "    ${n},\n")
  endforeach()
  string(APPEND text "};\ninline constexpr MetricTable registered_metric_tables[] = {\n")
  foreach(m IN LISTS metric_names)
    if(m STREQUAL "-")
      string(APPEND text "    MetricTable{nullptr, 0},\n")
    else()
      string(APPEND text "    ${m},\n")
    endif()
  endforeach()
  string(APPEND text "};\n// A PMU's own spelling of a metric term (PMU_METRIC_TERM_TEXT), or nullptr.\n"
                     "using MetricTermText = std::size_t (*)(const MetricEvent&, char*, std::size_t);\n"
                     "inline constexpr MetricTermText registered_metric_term_texts[] = {\n")
  foreach(f IN LISTS term_texts)
    if(f STREQUAL "-")
      string(APPEND text "    nullptr,\n")
    else()
      string(APPEND text "    &${f},\n")
    endif()
  endforeach()
  string(APPEND text "};\nstatic_assert(sizeof(registered_metric_tables) / sizeof(MetricTable) ==\n"
                     "              sizeof(registered_catalogs) / sizeof(PmuCatalog));\n"
                     "static_assert(sizeof(registered_metric_term_texts) / sizeof(MetricTermText) ==\n"
                     "              sizeof(registered_catalogs) / sizeof(PmuCatalog));\n")
  # Each table against the catalog it is registered with: a table listed against the wrong
  # catalog (PMU_METRICS out of order) does not build.
  foreach(n m IN ZIP_LISTS names metric_names)
    if(NOT m STREQUAL "-")
      string(APPEND text "static_assert(metrics_sound(${n}, ${m}),\n              \"${m} names an event "
                         "${n} lacks: check PMU_METRICS' order in the PMU's pmu.cmake\");\n")
    endif()
  endforeach()
  string(APPEND text "}  // namespace pmu\n")
  file(CONFIGURE OUTPUT ${out} CONTENT "${text}")
endfunction()

# The registered PMUs' host tests (call where pmu_host_test / pmu_compile_fail exist).
function(pmu_add_registered_tests)
  get_property(pmus GLOBAL PROPERTY PMU_LIST)
  foreach(pmu IN LISTS pmus)
    if(EXISTS ${PROJECT_SOURCE_DIR}/hal/${pmu}/tests/CMakeLists.txt)
      add_subdirectory(${PROJECT_SOURCE_DIR}/hal/${pmu}/tests ${CMAKE_BINARY_DIR}/hal/${pmu}/tests)
    endif()
  endforeach()
endfunction()
