// Which EGL device the headless picture draws on (issue 24). After a CUDA fault on a GPU, NVIDIA's driver
// resets any OpenGL context that lives through CUDA work on that GPU until the GPU is reset
// (docs/device/gl-after-fault.md); the CUDA backend leaves a mark (gpu_fault_marks.hpp) and this choice
// draws elsewhere: another NVIDIA GPU, else Mesa (software), else the faulted GPU with a warning.
#pragma once
#include <string>
#include <vector>

#include "gpu_fault_marks.hpp"

namespace ws::gui {

/// One EGL device as EGL_EXT_device_query describes it.
struct EglDeviceFacts {
  int index = 0;          ///< position in eglQueryDevicesEXT's list
  bool nvidia = false;    ///< NVIDIA's driver (EGL_NV_device_cuda)
  bool software = false;  ///< Mesa's software renderer (EGL_MESA_device_software)
  GpuIdentity gpu;        ///< EGL_EXT_device_persistent_id's UUID and/or the DRM device's PCI bus id
  bool left = false;      ///< the device being left (its context was reset, or a user's kernel will run there)
};

/// The choice: a device index, or one of the two special values; `notice` is one line for the status
/// bar when the picture is not drawn where it would have been ("" otherwise).
struct GlDeviceChoice {
  static constexpr int kPlatformOrder = -1;  ///< no NVIDIA device listed: the usual order (Mesa surfaceless, default)
  int device = kPlatformOrder;
  std::string notice;
};

/// Picks where to draw: the first NVIDIA device neither marked (a fault) nor being left; else Mesa's software
/// device (never Mesa's surfaceless platform: NVIDIA's EGL answers that one too); else the first NVIDIA
/// device not being left (or the one being left) with a notice saying its picture may be reset and what to
/// do. Without NVIDIA devices: kPlatformOrder. The notice says why when a fault mark decided; `now_unix`
/// (seconds) words it ("3 min ago").
GlDeviceChoice choose_gl_device(const std::vector<EglDeviceFacts>& devices, const std::vector<GpuFaultMark>& marks,
                                long long now_unix);

/// Whether drawing on `device` after these marks risks a reset: an NVIDIA device with a mark, or one
/// that cannot be identified while some mark exists.
bool faulted_device(const EglDeviceFacts& device, const std::vector<GpuFaultMark>& marks);

/// Mesa's EGL vendor file for glvnd (a JSON naming libEGL_mesa.so.0), searched in __EGL_VENDOR_LIBRARY_DIRS or
/// glvnd's default folders (/etc/glvnd/egl_vendor.d, /usr/share/glvnd/egl_vendor.d); "" when Mesa's EGL is
/// not installed.
std::string mesa_egl_vendor_file();

/// Before the process's first EGL call: makes glvnd load only Mesa's EGL (`vendor_file`) and Mesa draw in
/// software (LIBGL_ALWAYS_SOFTWARE), so that a GLFW window made with GLFW_EGL_CONTEXT_API draws on the CPU.
void use_mesa_egl_only(const std::string& vendor_file);

}  // namespace ws::gui
