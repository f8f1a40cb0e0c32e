#include "widgets/image_texture.hpp"

namespace ws::ui {

namespace {
ImageTextureApi g_api;
bool g_set = false;
std::uint64_t g_generation = 1;
}  // namespace

void set_image_texture_api(const ImageTextureApi& api) {
  g_api = api;
  g_set = api.create != nullptr && api.destroy != nullptr;
  ++g_generation;
}

std::uint64_t image_texture_generation() { return g_generation; }

const ImageTextureApi* image_texture_api() { return g_set ? &g_api : nullptr; }

bool ImageTexture::set(int w, int h, const std::uint32_t* rgba) {
  reset();
  const ImageTextureApi* api = image_texture_api();
  if (!api || w <= 0 || h <= 0) return false;
  id_ = api->create(w, h, rgba);
  generation_ = image_texture_generation();
  return valid();
}

void ImageTexture::reset() {
  if (valid() && image_texture_api()) image_texture_api()->destroy(id_);  // never a stale generation's name
  id_ = ImTextureID();
}

}  // namespace ws::ui
