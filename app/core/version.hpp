// The build's version and git revision: CMake sets WS_VERSION (PROJECT_VERSION) and WS_GIT_REV on the
// files that print them (app/core/CMakeLists.txt, app/cli/CMakeLists.txt, app/gui/CMakeLists.txt); these
// are the one copy of the fallbacks for a file compiled without them.
#pragma once

#ifndef WS_VERSION
/// The version warpscope was built as, e.g. "0.9.0"; "0" when CMake did not set it.
#define WS_VERSION "0"
#endif
#ifndef WS_GIT_REV
/// The git revision warpscope was built from; "unknown" when CMake did not set it.
#define WS_GIT_REV "unknown"
#endif
