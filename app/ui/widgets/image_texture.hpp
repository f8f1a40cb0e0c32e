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
/// Each call starts a new texture generation: textures made before it (in a GL context that is gone,
/// e.g. after a GPU reset) are no longer valid and are never passed to the new `destroy`.
void set_image_texture_api(const ImageTextureApi& api);
/// The current texture generation (incremented by every set_image_texture_api).
std::uint64_t image_texture_generation();
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
  ImTextureID id() const { return valid() ? id_ : ImTextureID(); }
  /// A texture of the current generation (one made in a GL context since replaced is not valid).
  bool valid() const { return id_ != ImTextureID() && generation_ == image_texture_generation(); }

 private:
  ImTextureID id_ = ImTextureID();
  std::uint64_t generation_ = 0;
};

}  // namespace ws::ui
