// Animated GIF of a sequence of pictures (the step-through views exported for slides), encoded with
// giflib: each frame quantized to its own 256-colour map, looping forever.
#pragma once
#include <string>
#include <vector>

#include "file_write.hpp"

namespace ws::gui {

/// One picture: w x h pixels, 3 bytes (R, G, B) per pixel, top row first.
struct RgbFrame {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
};

/// Writes `frames` as an animated GIF to `path` (through write_file_atomic; `policy`: what may be replaced
/// there), each shown for `delay_cs` hundredths of a second, looping. The canvas is the largest frame;
/// smaller ones sit at the top left. Returns "" or one line (no frames, a frame whose size does not match
/// its pixels, a giflib error, the write failing or refused).
std::string write_gif_atomic(const std::string& path, const std::vector<RgbFrame>& frames, int delay_cs,
                             const OutputPolicy& policy = {});

/// Frames in the GIF at `path` (giflib's decoder); -1 with `error` set when it does not decode.
int gif_frame_count(const std::string& path, std::string& error);

}  // namespace ws::gui
