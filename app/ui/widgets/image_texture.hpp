// Images as GPU textures for the views, without ws_ui touching OpenGL: app/gui (which owns the GL
// context) installs the functions; without them (tests, no renderer) views draw images as rectangles.
#pragma once
#include <imgui.h>

#include <cstdint>

namespace ws::ui {

struct ImageTextureApi {
  /// Creates a w x h RGBA8 texture (rows top to bottom) and returns its ImTextureID.
  ImTextureID (*create)(int w, int h, const std::uint32_t* rgba) = nullptr;
  void (*destroy)(ImTextureID id) = nullptr;
};

/// Installs the renderer's texture functions (app/gui calls this once its GL context is current).
void set_image_texture_api(const ImageTextureApi& api);
/// The installed functions, or nullptr.
const ImageTextureApi* image_texture_api();

/// One texture owned by a view: re-uploaded when its pixels change, freed with the view.
class ImageTexture {
 public:
  ImageTexture() = default;
  ImageTexture(const ImageTexture&) = delete;
  ImageTexture& operator=(const ImageTexture&) = delete;
  ~ImageTexture() { reset(); }
  /// Uploads new pixels (w x h RGBA8); returns false when no texture API is installed.
  bool set(int w, int h, const std::uint32_t* rgba);
  void reset();
  ImTextureID id() const { return id_; }
  bool valid() const { return id_ != ImTextureID(); }

 private:
  ImTextureID id_ = ImTextureID();
};

}  // namespace ws::ui
