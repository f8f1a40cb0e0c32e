# What the build-time scripts that embed text files in C++ as raw strings share (run with cmake -P): the
# kernels' source for the Source view (app/controller/cmake/embed_kernels.cmake), and the same steps the Grid
# view's shaders take (app/gui/cmake/embed_shaders.cmake). Include it from such a script.

include(${CMAKE_CURRENT_LIST_DIR}/camel_case.cmake)

# ws_embed_files(<out_var> FILES <|-separated paths> DELIMITER <d> ENTRY <template> SCRIPT <script name>)
# Sets <out_var> to ENTRY once per file of FILES, in order, with @NAME@ replaced by the file's name
# (grid_heatmap.frag), @IDENT@ by that name in CamelCase (GridHeatmapFrag) and @TEXT@ by the file's text as
# the raw string R"<d>(...)<d>". A file whose text holds the raw string's end `)<d>"` stops the build, naming
# SCRIPT, where the delimiter is chosen.
function(ws_embed_files out_var)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "FILES;DELIMITER;ENTRY;SCRIPT" "")
  foreach(key IN ITEMS DELIMITER ENTRY SCRIPT)
    if(NOT arg_${key})
      message(FATAL_ERROR "ws_embed_files: ${key} is required")
    endif()
  endforeach()
  string(REPLACE "|" ";" files "${arg_FILES}")
  set(body "")
  foreach(f IN LISTS files)
    file(READ "${f}" text)
    string(FIND "${text}" ")${arg_DELIMITER}\"" clash)
    if(NOT clash EQUAL -1)
      message(FATAL_ERROR "${f} contains the raw-string delimiter )${arg_DELIMITER}\" : change it in ${arg_SCRIPT}")
    endif()
    get_filename_component(name "${f}" NAME)
    ws_camel_case(camel "${name}")  # grid_heatmap.frag -> GridHeatmapFrag
    set(entry "${arg_ENTRY}")
    string(REPLACE "@NAME@" "${name}" entry "${entry}")
    string(REPLACE "@IDENT@" "${camel}" entry "${entry}")
    string(REPLACE "@TEXT@" "R\"${arg_DELIMITER}(${text})${arg_DELIMITER}\"" entry "${entry}")  # last: the text is not scanned
    string(APPEND body "${entry}")
  endforeach()
  set(${out_var} "${body}" PARENT_SCOPE)
endfunction()

# ws_write_if_different(<path> <content>): writes <path> only when its content changes, so what includes or
# compiles it is not rebuilt for nothing.
function(ws_write_if_different path content)
  file(WRITE "${path}.tmp" "${content}")
  file(COPY_FILE "${path}.tmp" "${path}" ONLY_IF_DIFFERENT)
endfunction()
