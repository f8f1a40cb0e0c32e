// Where the programs find their data (lessons/, reports/): never relative to the current directory.
#pragma once
#include <string>

namespace ws {

/// The data directory (holds lessons/ and reports/), the first of: $WARPSCOPE_DATA; $WARPSCOPE_ASSETS
/// (older name); ../share/warpscope beside the running program (an installed copy: /usr/bin/warpscope
/// reads /usr/share/warpscope); the source tree's assets/ compiled into a build-tree program. When none
/// exists it returns the installed location, so that messages name where the data was expected.
std::string assets_dir();

}  // namespace ws
