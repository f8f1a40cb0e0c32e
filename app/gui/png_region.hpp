// PNG export of part of the last rendered frame (a view, for slides), and the presentation requests
// (font scale, which rebuilds the font texture) applied between frames. Shared by the window and
// the headless renderer.
#pragma once
#include <string>
#include <vector>

#include "app_state.hpp"
#include "file_write.hpp"

namespace ws::gui {

/// Reads x, y, w, h (pixels, top-left origin, clamped to the framebuffer) of the bound read buffer
/// of a framebuffer `fb_height` pixels high and writes an RGB PNG. Returns "" or one line.
/// Encodes `rgb` (w x h, 3 bytes per pixel, top row first) as PNG into `path` through write_file_atomic
/// (`policy`: what may be replaced there). Returns "" or one line.
std::string write_png_atomic(const std::string& path, int w, int h, const std::vector<unsigned char>& rgb,
                             const OutputPolicy& policy = {});

/// Reads x, y, w, h (as save_region_png) into `rgb` (out_w x out_h, 3 bytes per pixel, top row first).
/// Returns "" or one line.
std::string read_region_rgb(int x, int y, int w, int h, int fb_width, int fb_height, int& out_w, int& out_h,
                            std::vector<unsigned char>& rgb);

/// read_region_rgb, then write_png_atomic with `policy`. Returns "" or one line.
std::string save_region_png(const std::string& path, int x, int y, int w, int h, int fb_width, int fb_height,
                            const OutputPolicy& policy = {});

/// After a frame was rendered: writes s.perf.png_request (the open view alone: png_rect) once the frame drawn
/// was that picture (s.perf.png_ready; MainWindow draws it once a request stands), with a message either
/// way; nothing is replaced unless s.perf.export_force. `fb_scale` converts ImGui coordinates to
/// framebuffer pixels.
void handle_png_request(controller::AppState& s, int fb_width, int fb_height, float fb_scale);

/// Before a frame: a font-scale request rebuilds the fonts and their texture (OpenGL3 backend).
void apply_presentation(controller::AppState& s);

}  // namespace ws::gui
