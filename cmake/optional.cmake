# Optional dependencies: a regex engine, a JSON parser, a tool header. Each is declared once, here
# through stallbench_optional(), and compiled in only when found. Two things follow from that one
# declaration:
#
# - ${CMAKE_BINARY_DIR}/optional-dependencies.json (versioned) says, for every optional dependency,
#   which family it serves, whether this build has it, how it was looked for and which package
#   brings it: the orchestrator prints one notice line per missing one from it (never a name of
#   its own).
# - A library installed after the build was configured is picked up by the next `cmake --build`,
#   whoever runs it (`stallbench run`, scripts/test, a developer): the directories where
#   pkg-config files and CMake package configs appear are configure dependencies, so ninja re-runs
#   CMake when a package adds a file there.
#
# STALLBENCH_WITHOUT (a list of names) hides dependencies that are installed, so that a build
# without one can be tested on a machine that has it (the without-hyperscan preset).

set(STALLBENCH_WITHOUT "" CACHE STRING "optional dependencies to build without, even when installed (e.g. hyperscan)")
set(STALLBENCH_OPTIONAL_FORMAT 1)  # optional-dependencies.json's version: bump it when a field changes meaning

# stallbench_find_pkg_config(<prefix> <module>): pkg_check_modules(<prefix> QUIET IMPORTED_TARGET
# <module>), asked afresh at every configure. pkg_check_modules keeps its first answer in the cache,
# so a library removed after configuring would leave an imported target naming folders that are
# gone, and every later build would fail instead of building without it.
macro(stallbench_find_pkg_config prefix module)
  unset(__pkg_config_checked_${prefix} CACHE)
  pkg_check_modules(${prefix} QUIET IMPORTED_TARGET ${module})
endmacro()

# stallbench_optional(<name> FAMILY <family> KIND <engine|parser|tool> HOW <how it is looked for>
#                     INSTALL <package(s)> FOUND <variable>)
# Call it after the find_package/pkg_check_modules whose result is <variable>; it turns <variable>
# off when <name> is in STALLBENCH_WITHOUT and records the outcome.
macro(stallbench_optional name)
  cmake_parse_arguments(_opt "" "FAMILY;KIND;HOW;INSTALL;FOUND" "" ${ARGN})
  set(_opt_hidden false)
  if("${name}" IN_LIST STALLBENCH_WITHOUT)
    set(${_opt_FOUND} FALSE)
    set(_opt_hidden true)
  endif()
  if(${_opt_FOUND})
    set(_opt_found true)
  else()
    set(_opt_found false)
    if(_opt_hidden)
      message(STATUS "${_opt_FAMILY}: ${_opt_KIND} ${name} left out (hidden by STALLBENCH_WITHOUT)")
    else()
      message(STATUS "${_opt_FAMILY}: ${_opt_KIND} ${name} left out (${_opt_HOW} not found; install ${_opt_INSTALL})")
    endif()
  endif()
  string(JSON _opt_entry SET "{}" name "\"${name}\"")
  foreach(_opt_field FAMILY KIND HOW INSTALL)
    string(TOLOWER "${_opt_field}" _opt_key)
    string(JSON _opt_entry SET "${_opt_entry}" ${_opt_key} "\"${_opt_${_opt_field}}\"")
  endforeach()
  string(JSON _opt_entry SET "${_opt_entry}" found ${_opt_found})
  string(JSON _opt_entry SET "${_opt_entry}" hidden ${_opt_hidden})
  set_property(GLOBAL APPEND PROPERTY STALLBENCH_OPTIONAL_ENTRIES "${_opt_entry}")
endmacro()

# The directories whose change means a library may have appeared: pkg-config's and CMake's package
# folders under every system prefix and PKG_CONFIG_PATH. A folder that does not exist yet is
# represented by its nearest existing parent (creating it changes the parent).
function(stallbench_watch_library_folders out)
  set(folders)
  set(arch "${CMAKE_LIBRARY_ARCHITECTURE}")
  foreach(prefix IN LISTS CMAKE_SYSTEM_PREFIX_PATH CMAKE_PREFIX_PATH)
    foreach(sub lib/${arch}/pkgconfig lib/pkgconfig share/pkgconfig lib/${arch}/cmake lib/cmake share/cmake)
      list(APPEND folders "${prefix}/${sub}")
    endforeach()
  endforeach()
  string(REPLACE ":" ";" pkg_config_path "$ENV{PKG_CONFIG_PATH}")
  list(APPEND folders ${pkg_config_path})
  get_property(more GLOBAL PROPERTY STALLBENCH_WATCHED_FOLDERS)
  list(APPEND folders ${more})
  set(watched)
  foreach(folder IN LISTS folders)
    if(folder STREQUAL "")
      continue()
    endif()
    cmake_path(NORMAL_PATH folder)
    while(NOT IS_DIRECTORY "${folder}")
      cmake_path(GET folder PARENT_PATH parent)
      if(parent STREQUAL folder)
        break()
      endif()
      set(folder "${parent}")
    endwhile()
    string(REGEX REPLACE "(.)/$" "\\1" folder "${folder}")
    if(IS_DIRECTORY "${folder}" AND NOT folder STREQUAL "/")
      list(APPEND watched "${folder}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES watched)
  set(${out} ${watched} PARENT_SCOPE)
endfunction()

# stallbench_watch_folder(<folder>): one more folder where a dependency may appear (one that is not
# an OS package: a pinned Node line's headers under the dependency folder), watched as above.
function(stallbench_watch_folder folder)
  set_property(GLOBAL APPEND PROPERTY STALLBENCH_WATCHED_FOLDERS "${folder}")
endfunction()

# Sets member `key` of the JSON object in `json_var` to an array of the JSON values in ARGN.
function(stallbench_json_array json_var key)
  set(json "${${json_var}}")
  string(JSON json SET "${json}" ${key} "[]")
  set(i 0)
  foreach(value IN LISTS ARGN)
    string(JSON json SET "${json}" ${key} ${i} "${value}")
    math(EXPR i "${i} + 1")
  endforeach()
  set(${json_var} "${json}" PARENT_SCOPE)
endfunction()

# At the end of the top-level CMakeLists: the watch and the JSON file.
function(stallbench_optional_finish)
  stallbench_watch_library_folders(watched)
  set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${watched})
  get_property(entries GLOBAL PROPERTY STALLBENCH_OPTIONAL_ENTRIES)
  set(json "{}")
  string(JSON json SET "${json}" version ${STALLBENCH_OPTIONAL_FORMAT})
  stallbench_json_array(json dependencies ${entries})
  set(quoted)
  foreach(folder IN LISTS watched)
    list(APPEND quoted "\"${folder}\"")
  endforeach()
  stallbench_json_array(json watched ${quoted})
  file(WRITE "${CMAKE_BINARY_DIR}/optional-dependencies.json.tmp" "${json}\n")
  file(RENAME "${CMAKE_BINARY_DIR}/optional-dependencies.json.tmp" "${CMAKE_BINARY_DIR}/optional-dependencies.json")
endfunction()
