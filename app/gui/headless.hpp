// Rendering without a window system: an EGL context (Mesa surfaceless, or the driver's default
// display) drawing into an FBO, read back to a PNG. Used by --screenshot on CI and the GPU machine.
#pragma once
#include <string>

#include "gl_device_choice.hpp"

namespace ws::gui {

class HeadlessGl {
 public:
  HeadlessGl() = default;
  ~HeadlessGl();
  HeadlessGl(const HeadlessGl&) = delete;
  HeadlessGl& operator=(const HeadlessGl&) = delete;

  /// Creates an OpenGL 3.3 core context with no surface and a width x height RGBA8 FBO bound as the
  /// draw target, on the device choose_gl_device() picks (an NVIDIA GPU without a fault mark first; Mesa
  /// when every NVIDIA GPU has one; the usual order, Mesa surfaceless first, without NVIDIA devices).
  /// Returns "" or a one-line error.
  std::string open(int width, int height);
  /// After a GPU reset, or to leave a GPU that faulted: drops the context and makes a new one of the same
  /// size, on another EGL device when there is one (a second GPU, Mesa's software device), else on the
  /// same display again. Returns "" or a one-line error (then nothing can draw).
  std::string reopen();
  /// Whether the context draws on an NVIDIA GPU that has a fault mark now (gpu_fault_marks.hpp): its next
  /// frame beside CUDA work would be reset, so the caller reopens first.
  bool on_faulted_gpu() const;
  /// Whether the context draws on an NVIDIA GPU (EGL's device platform, EGL_NV_device_cuda).
  bool on_nvidia() const { return on_device_ && device_.nvidia; }
  /// One line for the status bar when the picture is not drawn where it would have been (a GPU faulted
  /// earlier: Mesa draws), else "".
  const std::string& notice() const { return notice_; }
  /// "" while the context is usable; after a GPU reset (robust contexts only), one line saying so.
  std::string reset_status() const;
  /// Which EGL display and renderer draw, e.g. "EGL default display (NVIDIA H200/PCIe/SSE2)"; for messages.
  const std::string& description() const { return description_; }
  /// Reads the FBO back (rows flipped to top-down) and writes an RGB PNG atomically (via FILE.tmp).
  /// Returns "" or a one-line error.
  std::string save_png(const std::string& path) const;

 private:
  void close();
  std::string open_avoiding(int width, int height, void* left_device);  // left_device: an EGLDeviceEXT or null
  std::string make_context(void* display, int width, int height);
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  bool robust_ = false;      // created with reset notification (EGL 1.5 robustness)
  unsigned fbo_ = 0, color_ = 0;
  int width_ = 0, height_ = 0;
  std::string description_;
  std::string notice_;
  EglDeviceFacts device_;  // the EGL device drawn on, when on_device_ (the device platform)
  bool on_device_ = false;
  mutable long long marks_stamp_ = -2;  // the marks directory's mtime (ns) when faulted_ was read
  mutable bool faulted_ = false;
};

}  // namespace ws::gui
