# A family is a folder of workloads/ and a file of benches/ with its name (`-` as `_`): the build
# finds both; no list of families is written anywhere (workloads/CMakeLists.txt finds the folders,
# benches/CMakeLists.txt the files).
#
# stallbench_family_bench(<family> [LIBRARIES <target>...] [BUILT_WITH <target>...])
# Called in workloads/<family>/CMakeLists.txt: what bench_<family> links besides the harness, and
# targets built with it without being linked (a Node addon its cells load; skipped when the build
# lacks it).
function(stallbench_family_bench family)
  cmake_parse_arguments(P "" "" "LIBRARIES;BUILT_WITH" ${ARGN})
  set_property(GLOBAL PROPERTY STALLBENCH_FAMILY_LIBRARIES_${family} ${P_LIBRARIES})
  set_property(GLOBAL PROPERTY STALLBENCH_FAMILY_BUILT_WITH_${family} ${P_BUILT_WITH})
  set_property(GLOBAL APPEND PROPERTY STALLBENCH_FAMILIES ${family})
endfunction()
