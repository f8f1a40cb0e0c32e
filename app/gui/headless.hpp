// Rendering without a window system: an EGL context (Mesa surfaceless, or the driver's default
// display) drawing into an FBO, read back to a PNG. Used by --screenshot on CI and the GPU machine.
#pragma once
#include <string>

namespace ws::gui {

class HeadlessGl {
 public:
  HeadlessGl() = default;
  ~HeadlessGl();
  HeadlessGl(const HeadlessGl&) = delete;
  HeadlessGl& operator=(const HeadlessGl&) = delete;

  /// Creates an OpenGL 3.3 core context with no surface and a width x height RGBA8 FBO bound as the
  /// draw target. Returns "" or a one-line error.
  std::string open(int width, int height);
  /// After a GPU reset: drops the lost context and makes a new one of the same size, on another EGL
  /// device when there is one (a second GPU, Mesa's software device), else on the same display again.
  /// Returns "" or a one-line error (then nothing can draw).
  std::string reopen();
  /// "" while the context is usable; after a GPU reset (robust contexts only), one line saying so.
  std::string reset_status() const;
  /// Which EGL display and renderer draw, e.g. "EGL default display (NVIDIA H200/PCIe/SSE2)"; for messages.
  const std::string& description() const { return description_; }
  /// Reads the FBO back (rows flipped to top-down) and writes an RGB PNG atomically (via FILE.tmp).
  /// Returns "" or a one-line error.
  std::string save_png(const std::string& path) const;

 private:
  void close();
  std::string make_context(void* display, int width, int height);
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  bool robust_ = false;      // created with reset notification (EGL 1.5 robustness)
  unsigned fbo_ = 0, color_ = 0;
  int width_ = 0, height_ = 0;
  std::string description_;
};

}  // namespace ws::gui
