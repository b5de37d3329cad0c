# Writes the two compilation databases that scripts/dev.sh check_lint gives clang-tidy, from the
# build's compile_commands.json (a unity build: each entry compiles a batch of sources).
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DOUT_DIR=... -P scripts/tidy_databases.cmake
#
#   OUT_DIR/batches/compile_commands.json  the project's own translation units as the build
#       compiles them: one parse of the headers per batch of sources.
#   OUT_DIR/files/compile_commands.json    every source file of the project on its own, with its
#       batch's command, for misc-unused-using-decls, which looks only at the main file.
# Tests and benchmarks are left out. Debian's clang 16 knows C++23 as c++2b.
cmake_minimum_required(VERSION 3.25)

# A JSON string literal of `text`.
function(json_quote out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  set(${out} "\"${text}\"" PARENT_SCOPE)
endfunction()

set(project_folders "base|domain|eventstore|delivery|projections|commands|http|webhooks|replication|documents|mail|app")
file(READ "${BUILD_DIR}/compile_commands.json" database)
string(JSON count LENGTH "${database}")
math(EXPR last "${count} - 1")

set(batches "")
set(files "")
foreach(i RANGE ${last})
  string(JSON directory GET "${database}" ${i} directory)
  string(JSON command GET "${database}" ${i} command)
  string(JSON file GET "${database}" ${i} file)
  string(REPLACE "-std=c++23" "-std=c++2b" command "${command}")
  string(REPLACE "-std=gnu++23" "-std=c++2b" command "${command}")
  json_quote(directory "${directory}")
  json_quote(quoted_command "${command}")
  json_quote(quoted_file "${file}")
  string(JSON entry SET "{}" directory "${directory}")
  string(JSON entry SET "${entry}" command "${quoted_command}")
  # Only the project's libraries and executables: their batches live under the build folder of
  # the same name, their stand-alone sources under the source folder.
  if(file MATCHES "^${BUILD_DIR}/(${project_folders})/.*/Unity/unity_[0-9]+_cxx\\.cxx$")
    string(JSON entry SET "${entry}" file "${quoted_file}")
    string(APPEND batches "${entry},\n")
    file(STRINGS "${file}" includes REGEX "^#include \"")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#include \"([^\"]+)\"$" "\\1" source "${line}")
      # Sources generated into the build folder (the embedded OpenAPI document) are not ours to
      # lint.
      if(NOT source MATCHES "^${SOURCE_DIR}/(${project_folders})/")
        continue()
      endif()
      string(REPLACE "${file}" "${source}" source_command "${command}")
      json_quote(source_command "${source_command}")
      json_quote(source "${source}")
      string(JSON source_entry SET "${entry}" file "${source}")
      string(JSON source_entry SET "${source_entry}" command "${source_command}")
      string(APPEND files "${source_entry},\n")
    endforeach()
  elseif(file MATCHES "^${SOURCE_DIR}/(${project_folders})/[^/]+\\.cc$")
    string(JSON entry SET "${entry}" file "${quoted_file}")
    string(APPEND batches "${entry},\n")
    string(APPEND files "${entry},\n")
  endif()
endforeach()

foreach(kind batches files)
  string(REGEX REPLACE ",\n$" "" body "${${kind}}")
  file(WRITE "${OUT_DIR}/${kind}/compile_commands.json" "[\n${body}\n]\n")
endforeach()
