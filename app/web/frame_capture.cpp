#include "frame_capture.hpp"

#include <emscripten.h>
#include <stb_image_write.h>

#include <cstdint>
#include <vector>

#include "gl_api.hpp"

namespace ws::web {

namespace {
bool g_asked = false;
int g_frame = 0;
}  // namespace

void capture_if_asked(int fb_width, int fb_height) {
  ++g_frame;
  if (!g_asked || fb_width <= 0 || fb_height <= 0) return;
  g_asked = false;
  const std::size_t row = std::size_t(fb_width) * 4;
  std::vector<unsigned char> rgba(row * std::size_t(fb_height)), flipped(rgba.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, fb_width, fb_height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  for (int y = 0; y < fb_height; ++y)  // GL's rows start at the bottom
    std::copy_n(rgba.begin() + std::ptrdiff_t(row * std::size_t(fb_height - 1 - y)), row,
                flipped.begin() + std::ptrdiff_t(row * std::size_t(y)));
  for (std::size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;  // the canvas is opaque
  std::vector<unsigned char> png;
  stbi_write_png_to_func(
      [](void* ctx, void* data, int size) {
        auto* out = static_cast<std::vector<unsigned char>*>(ctx);
        out->insert(out->end(), static_cast<unsigned char*>(data), static_cast<unsigned char*>(data) + size);
      },
      &png, fb_width, fb_height, 4, flipped.data(), int(row));
  EM_ASM(
      {
        const c = new Object();
        c.width = $0;
        c.height = $1;
        c.frame = $2;
        c.rgba = HEAPU8.slice($3, $3 + $4);
        c.png = HEAPU8.slice($5, $5 + $6);
        Module.wsCapture = c;
      },
      fb_width, fb_height, g_frame, flipped.data(), flipped.size(), png.data(), png.size());
}

}  // namespace ws::web

/// Asks for the next frame's pixels in Module.wsCapture (frame_capture.hpp).
extern "C" EMSCRIPTEN_KEEPALIVE void ws_capture() { ws::web::g_asked = true; }
