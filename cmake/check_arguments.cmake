# ws_check_arguments(FUNCTION KEY...): for a function that parsed its arguments with
# cmake_parse_arguments(... arg ...): stops the configuration when one of the KEYs was not given (arg_KEY empty)
# or arguments were left unparsed, naming FUNCTION. A macro, so that it reads the caller's arg_* variables.
macro(ws_check_arguments ws_check_fn)
  foreach(ws_check_key IN ITEMS ${ARGN})
    if(NOT arg_${ws_check_key})
      message(FATAL_ERROR "${ws_check_fn}: ${ws_check_key} is required")
    endif()
  endforeach()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${ws_check_fn}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
endmacro()
