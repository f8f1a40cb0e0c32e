// Where the app finds its data (assets/): next to the binary's build tree, the source tree, or
// $WARPSCOPE_ASSETS.
#pragma once
#include <string>

namespace ws {

/// The assets directory: $WARPSCOPE_ASSETS if set, else the source tree's assets/ (compiled in).
std::string assets_dir();

}  // namespace ws
