// OpenGL textures for the views' images (app/ui/widgets/image_texture.hpp): GL 1.1 calls, exported by the GL
// library itself, on the context the window or the headless renderer made current.
#include "gl_api.hpp"

#include <cstdint>

#include "widgets/image_texture.hpp"

namespace ws::gui {

namespace {

ImTextureID create(int w, int h, const std::uint32_t* rgba) {
  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);  // pixels stay crisp when enlarged
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
  return reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(tex));
}

void destroy(ImTextureID id) {
  const GLuint tex = GLuint(reinterpret_cast<std::uintptr_t>(id));
  glDeleteTextures(1, &tex);
}

}  // namespace

/// Installs the GL texture functions for the views; call with the GL context current.
void install_gl_image_textures() { ui::set_image_texture_api(ui::ImageTextureApi{create, destroy}); }

}  // namespace ws::gui
