include(${CMAKE_CURRENT_LIST_DIR}/check_arguments.cmake)
# The trace build's kernel files and tables (app/cuda/traced_kernels.hpp), found and generated, never listed:
#
# ws_find_traced_kernels(<out_var> FILES...): the files among FILES with a line starting WS_TRACE_NS_BEGIN
# (the marker of kernels/common/trace_record.cuh), sorted. Every one of FILES re-runs CMake when edited, so
# adding or removing the marker takes effect at the next build. kernels/CMakeLists.txt finds the built-in
# patterns' files with it, tests/CMakeLists.txt the stencil fixture's.
function(ws_find_traced_kernels out_var)
  set(found "")
  foreach(kernel_file IN LISTS ARGN)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${kernel_file})
    file(STRINGS ${kernel_file} traced_marker REGEX "^WS_TRACE_NS_BEGIN")
    if(traced_marker)
      list(APPEND found ${kernel_file})
    endif()
  endforeach()
  list(SORT found)
  set(${out_var} ${found} PARENT_SCOPE)
endfunction()

# ws_generate_traced_tables(KERNELS files... SOURCES_VAR var): the trace table of every pattern folder that
# holds one of KERNELS (ws_find_traced_kernels' files), by ws_generate_traced_table: PATTERN the folder's
# name, LAUNCH_HEADER its one <name>_launch.hpp (none or two stop the configuration), INCLUDE
# "<folder>/<name>_launch.hpp" (the folder's parent is on the include path: kernels/, or tests/ for the
# fixture). SOURCES_VAR: set in the caller's scope to the generated .cpp files.
function(ws_generate_traced_tables)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "SOURCES_VAR" "KERNELS")
  if(NOT arg_SOURCES_VAR)
    message(FATAL_ERROR "ws_generate_traced_tables: SOURCES_VAR is required")
  endif()
  set(dirs "")
  foreach(kernel_file IN LISTS arg_KERNELS)
    get_filename_component(dir ${kernel_file} DIRECTORY)
    list(APPEND dirs ${dir})
  endforeach()
  list(REMOVE_DUPLICATES dirs)
  set(sources "")
  foreach(dir IN LISTS dirs)
    get_filename_component(pattern ${dir} NAME)
    file(RELATIVE_PATH dir_rel ${PROJECT_SOURCE_DIR} ${dir})
    file(GLOB launch_headers CONFIGURE_DEPENDS ${dir}/*_launch.hpp)
    list(LENGTH launch_headers count)
    if(NOT count EQUAL 1)
      message(FATAL_ERROR "${dir_rel}/: has a trace build (a file with a line WS_TRACE_NS_BEGIN), so it needs one "
                          "launch contract ${dir_rel}/<name>_launch.hpp, not ${count} "
                          "(docs/architecture.md, \"Add a pattern\")")
    endif()
    get_filename_component(launch_name ${launch_headers} NAME)
    set(files ${arg_KERNELS})
    list(FILTER files INCLUDE REGEX "^${dir}/[^/]*$")
    ws_generate_traced_table(PATTERN ${pattern} LAUNCH_HEADER ${launch_headers} INCLUDE ${pattern}/${launch_name}
                             FILES ${files} SOURCES_VAR table)
    list(APPEND sources ${table})
  endforeach()
  set(${arg_SOURCES_VAR} ${sources} PARENT_SCOPE)
endfunction()

# ws_generate_traced_table(): one pattern's trace table (app/cuda/traced_kernels.hpp), generated whole, so
# a pattern with a GPU trace writes no table of its own. From the pattern's launch contract and the kernel
# files of its trace build it writes, in the calling directory's binary dir:
#   generated/patterns/<PATTERN>_traced.hpp  (from cmake/traced_table.hpp.in): namespace
#       ws::cuda::<PATTERN>_traced with `Launchers`, `File` and `traced_files()`; the launcher entry is the
#       type the contract names in `namespace <PATTERN>_traced { using Entry = ...; }` (ws::kernels)
#   generated/traced_<PATTERN>.cpp  (ws_generate_registry): traced_files() and the declarations of every
#       file's <name>_launchers() and <name>_arm in ws::kernels::traced
# The caller puts ${CMAKE_CURRENT_BINARY_DIR}/generated on the include path of the target that compiles
# SOURCES_VAR, so its runner includes "patterns/<PATTERN>_traced.hpp".
#
#   PATTERN        the pattern's folder name (kernels/<PATTERN>/)
#   LAUNCH_HEADER  the launch contract, an absolute path (kernels/<PATTERN>/<x>_launch.hpp)
#   INCLUDE        how the generated header includes it ("scan/scan_launch.hpp")
#   FILES          the pattern's kernel files with a line WS_TRACE_NS_BEGIN, absolute paths
#   SOURCES_VAR    set in the caller's scope to the generated .cpp
# A contract without the alias stops the configuration, naming the file and what to add.
function(ws_generate_traced_table)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "PATTERN;LAUNCH_HEADER;INCLUDE;SOURCES_VAR" "FILES")
  ws_check_arguments(ws_generate_traced_table PATTERN LAUNCH_HEADER INCLUDE SOURCES_VAR)
  set(pattern ${arg_PATTERN})
  file(RELATIVE_PATH launch_rel ${PROJECT_SOURCE_DIR} ${arg_LAUNCH_HEADER})
  file(STRINGS ${arg_LAUNCH_HEADER} alias REGEX "^namespace ${pattern}_traced {")
  if(NOT alias)
    message(FATAL_ERROR "${launch_rel}: kernels/${pattern}/ has a trace build (a file with a line "
                        "WS_TRACE_NS_BEGIN), but this launch contract names no traced launcher entry: add "
                        "`namespace ${pattern}_traced { using Entry = <its launcher entry>; }` in ws::kernels "
                        "(as kernels/scan/scan_launch.hpp; docs/architecture.md, \"Add a pattern\")")
  endif()
  # A CMake re-run when the contract changes (the alias added or removed).
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${arg_LAUNCH_HEADER})

  file(RELATIVE_PATH caller ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_LIST_FILE})
  set(file_list "")
  foreach(f IN LISTS arg_FILES)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${f})
    string(APPEND file_list "//   ${rel}\n")
  endforeach()
  string(REGEX REPLACE "\n$" "" file_list "${file_list}")
  set(WS_TT_CALLER ${caller})
  set(WS_TT_PATTERN ${pattern})
  set(WS_TT_LAUNCH ${launch_rel})
  set(WS_TT_INCLUDE ${arg_INCLUDE})
  set(WS_TT_TABLE generated/traced_${pattern}.cpp)
  set(WS_TT_FILE_LIST "${file_list}")
  configure_file(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/traced_table.hpp.in
                 ${CMAKE_CURRENT_BINARY_DIR}/generated/patterns/${pattern}_traced.hpp @ONLY)
  ws_generate_registry(
    OUTPUT generated/traced_${pattern}.cpp
    FILES ${arg_FILES}
    FROM "the ${pattern} kernel files with a line WS_TRACE_NS_BEGIN (ws_find_traced_kernels)"
    HEADER patterns/${pattern}_traced.hpp
    NAMESPACE ws::cuda::${pattern}_traced
    DECL_NAMESPACE ws::kernels::traced
    ELEMENT File
    FUNCTION traced_files
    DECL "::ws::cuda::${pattern}_traced::Launchers @NAME@_launchers();
void @NAME@_arm(const TraceSink& sink, int traced_launch, cudaStream_t stream);"
    CALL "all.push_back({kernels::traced::@NAME@_launchers, kernels::traced::@NAME@_arm});")
  set(${arg_SOURCES_VAR} ${CMAKE_CURRENT_BINARY_DIR}/generated/traced_${pattern}.cpp PARENT_SCOPE)
endfunction()
