#include "png_region.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <stb_image_write.h>
#include "gl_api.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <vector>

#include "file_write.hpp"
#include "widgets/theme.hpp"

namespace ws::gui {

std::string write_png_atomic(const std::string& path, int w, int h, const std::vector<unsigned char>& rgb,
                             const OutputPolicy& policy) {
  return write_file_atomic(
      path,
      [&](std::FILE* f) {
        const auto put = [](void* ctx, void* data, int size) {
          std::fwrite(data, 1, std::size_t(size), static_cast<std::FILE*>(ctx));
        };
        return stbi_write_png_to_func(put, f, w, h, 3, rgb.data(), w * 3) != 0;
      },
      policy);
}

std::string read_region_rgb(int x, int y, int w, int h, int fb_width, int fb_height, int& out_w, int& out_h,
                            std::vector<unsigned char>& rgb) {
  x = std::clamp(x, 0, fb_width), y = std::clamp(y, 0, fb_height);
  w = std::clamp(w, 0, fb_width - x), h = std::clamp(h, 0, fb_height - y);
  out_w = w, out_h = h;
  if (w <= 0 || h <= 0) return "nothing to save: the region is empty";
  std::vector<unsigned char> rgba(std::size_t(w) * h * 4);
  rgb.assign(std::size_t(w) * h * 3, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x, fb_height - y - h, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  if (glGetError() != GL_NO_ERROR) return "glReadPixels failed";
  for (int row = 0; row < h; ++row) {  // GL rows start at the bottom
    const unsigned char* src = &rgba[std::size_t(h - 1 - row) * w * 4];
    unsigned char* dst = &rgb[std::size_t(row) * w * 3];
    for (int i = 0; i < w; ++i) std::memcpy(dst + 3 * i, src + 4 * i, 3);
  }
  return "";
}

std::string save_region_png(const std::string& path, int x, int y, int w, int h, int fb_width, int fb_height,
                            const OutputPolicy& policy) {
  std::vector<unsigned char> rgb;
  if (std::string err = read_region_rgb(x, y, w, h, fb_width, fb_height, w, h, rgb); !err.empty()) return err;
  return write_png_atomic(path, w, h, rgb, policy);
}

void handle_png_request(controller::AppState& s, int fb_width, int fb_height, float fb_scale) {
  if (s.perf.png_request.empty() || !s.perf.png_ready) return;  // the frame drawn was not yet the view alone
  const float* r = s.perf.png_rect;
  const std::string path = s.perf.png_request;
  s.perf.png_request.clear();
  s.perf.png_ready = false;
  const std::string err = save_region_png(path, int(r[0] * fb_scale), int(r[1] * fb_scale), int(r[2] * fb_scale),
                                          int(r[3] * fb_scale), fb_width, fb_height, controller::export_policy(s.perf));
  s.perf.png_error = err;
  if (err.empty())
    s.message(controller::Message::Info, "saved " + path);
  else
    s.message(controller::Message::Error, err);
}

void apply_presentation(controller::AppState& s) {
  float& req = s.perf.present.font_scale_request;
  if (req <= 0) return;
  if (ui::HighContrast()) ui::SetHighContrast(false);  // apply() resets the style; main_window re-applies
  ui::theme().apply(req);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  req = 0;
}

}  // namespace ws::gui
