# ws_camel_case(<out_var> <text>): <text> in CamelCase, every run of letters and digits capitalized and the
# rest dropped: all_reduce -> AllReduce, grid_heatmap.frag -> GridHeatmapFrag. PatternKind's generated values
# (app/core/CMakeLists.txt) and the names of embedded files (cmake/embed_text.cmake) are made with it.
function(ws_camel_case out_var text)
  string(REGEX REPLACE "[^A-Za-z0-9]" "_" ident "${text}")
  string(REPLACE "_" ";" parts "${ident}")
  set(camel "")
  foreach(p IN LISTS parts)
    string(SUBSTRING "${p}" 0 1 head)
    string(SUBSTRING "${p}" 1 -1 tail)
    string(TOUPPER "${head}" head)
    string(APPEND camel "${head}${tail}")
  endforeach()
  set(${out_var} "${camel}" PARENT_SCOPE)
endfunction()
