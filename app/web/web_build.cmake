# The browser build (scripts/setup.sh web): core, controller and ui compiled by Emscripten into app/web's
# page. Included by the top-level CMakeLists.txt when configured with emcmake; nothing here touches the
# desktop build. No CUDA, no worker processes, no threads (WS_NO_THREADS): the sim and replay backends.
set(WS_IMGUI_SOURCE_DIR "" CACHE PATH "Dear ImGui 1.86's sources (Debian's source package; setup.sh web fetches it)")
set(WS_HOST_GEN_TRACE_POINTS "" CACHE FILEPATH "ws_gen_trace_points built for this machine (setup.sh web)")
set(WS_WEB_OUT "${CMAKE_SOURCE_DIR}/build-web" CACHE PATH "the folder a static web server serves")
if(NOT EXISTS "${WS_IMGUI_SOURCE_DIR}/imgui.cpp" OR NOT EXISTS "${WS_HOST_GEN_TRACE_POINTS}")
  message(FATAL_ERROR "the web build needs WS_IMGUI_SOURCE_DIR and WS_HOST_GEN_TRACE_POINTS: run scripts/setup.sh web")
endif()

include(${CMAKE_SOURCE_DIR}/cmake/generate_registry.cmake)
execute_process(COMMAND git rev-parse --short HEAD WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_VARIABLE WS_GIT_REV OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT WS_GIT_REV)
  set(WS_GIT_REV "unknown")
endif()
# No threads (WS_NO_THREADS) and no worker processes (WS_NO_WORKERS: app/core leaves the worker protocol,
# its client, server and live pipeline out; RunWorker runs everything in the page).
add_compile_definitions(WS_NO_THREADS=1 WS_NO_WORKERS=1)
set(WS_NO_WORKERS ON)
# The code catches exceptions (JSON parse errors, refusals): WebAssembly's own exception handling.
add_compile_options(-fwasm-exceptions)
add_link_options(-fwasm-exceptions)

# Debian's header-only libraries (nlohmann-json3-dev, libcli11-dev) through a folder of links: the whole
# /usr/include would bring glibc's headers in front of Emscripten's.
set(ws_host_include ${CMAKE_BINARY_DIR}/host-include)
file(MAKE_DIRECTORY ${ws_host_include})
foreach(dir nlohmann CLI)
  if(NOT EXISTS ${ws_host_include}/${dir})
    file(CREATE_LINK /usr/include/${dir} ${ws_host_include}/${dir} SYMBOLIC)
  endif()
endforeach()
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE ${ws_host_include})
add_library(CLI11::CLI11 INTERFACE IMPORTED)
target_include_directories(CLI11::CLI11 SYSTEM INTERFACE ${ws_host_include})

# stb (libstb-dev's headers; the desktop links Debian's libstb.so, the page compiles the implementations).
add_library(ws_stb STATIC ${CMAKE_SOURCE_DIR}/app/web/stb_impl.cpp)
target_include_directories(ws_stb SYSTEM PUBLIC /usr/include/stb)
set(WS_STB_INCLUDE_DIR /usr/include/stb CACHE PATH "" FORCE)
set(WS_STB_LIBRARY ws_stb CACHE STRING "" FORCE)

# Dear ImGui (and imgui_stdlib, as libimgui-dev has it) with its GLFW (Emscripten's -sUSE_GLFW=3) and
# OpenGL3 (WebGL2) backends.
add_library(ws_imgui STATIC
  ${WS_IMGUI_SOURCE_DIR}/imgui.cpp ${WS_IMGUI_SOURCE_DIR}/imgui_draw.cpp ${WS_IMGUI_SOURCE_DIR}/imgui_tables.cpp
  ${WS_IMGUI_SOURCE_DIR}/imgui_widgets.cpp ${WS_IMGUI_SOURCE_DIR}/backends/imgui_impl_glfw.cpp
  ${WS_IMGUI_SOURCE_DIR}/backends/imgui_impl_opengl3.cpp ${WS_IMGUI_SOURCE_DIR}/misc/cpp/imgui_stdlib.cpp)
target_include_directories(ws_imgui SYSTEM PUBLIC ${WS_IMGUI_SOURCE_DIR})
# imgui_stdlib.h beside imgui.h, as libimgui-dev installs it (through the folder of links above).
if(NOT EXISTS ${ws_host_include}/imgui_stdlib.h)
  file(CREATE_LINK ${WS_IMGUI_SOURCE_DIR}/misc/cpp/imgui_stdlib.h ${ws_host_include}/imgui_stdlib.h SYMBOLIC)
endif()
target_compile_options(ws_imgui PUBLIC -sUSE_GLFW=3)
set(IMGUI_INCLUDE_DIR ${WS_IMGUI_SOURCE_DIR})
set(IMGUI_LIBRARY ws_imgui)
set(STB_LIBRARY ws_stb)

# A unity build (CI's clean machine has 2 cores and no warm cache): core, controller, ui and the page compile as
# about 30 translation units instead of 160, each parsing nlohmann/json and ImGui once. For the page only: the
# desktop and its tests build file by file. Files whose file-local names (anonymous namespaces, namespace
# aliases) clash with a neighbour's compile on their own (SKIP_UNITY_BUILD_INCLUSION below).
set(CMAKE_UNITY_BUILD ON)
add_subdirectory(app/core)
add_subdirectory(app/controller)
add_subdirectory(app/ui)
add_subdirectory(app/web)
# Each pattern's files repeat the same file-local names on purpose (validate, reference, compare, kSeed, `pts`):
# they compile alone, as do a few others.
file(GLOB ws_core_alone ${CMAKE_SOURCE_DIR}/app/core/patterns/*/pattern_*.cpp
     ${CMAKE_SOURCE_DIR}/app/core/patterns/*/models_*.cpp ${CMAKE_SOURCE_DIR}/app/core/patterns/*/variants/*.cpp)
list(APPEND ws_core_alone ${CMAKE_SOURCE_DIR}/app/core/bound_search.cpp ${CMAKE_SOURCE_DIR}/app/core/trace/trace_compare.cpp)
# views/view_allreduce.cpp: `using namespace collective` (collective::Step beside the trace views' ws::Step).
set(ws_ui_alone widgets/theme_contrast.cpp views/view_allreduce.cpp)
list(TRANSFORM ws_ui_alone PREPEND ${CMAKE_SOURCE_DIR}/app/ui/)
set_source_files_properties(${ws_core_alone} DIRECTORY ${CMAKE_SOURCE_DIR}/app/core
                            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
set_source_files_properties(${ws_ui_alone} DIRECTORY ${CMAKE_SOURCE_DIR}/app/ui PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
set_source_files_properties(${CMAKE_SOURCE_DIR}/app/controller/kernel_trace_points.cpp DIRECTORY ${CMAKE_SOURCE_DIR}/app/controller
                            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
