#include "gl_device_choice.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ws::gui {

namespace {

std::string ago(long long then, long long now) {
  const long long s = now - then;
  if (then <= 0 || s < 0) return "earlier";
  if (s < 90) return std::to_string(s) + " s ago";
  if (s < 90 * 60) return std::to_string((s + 30) / 60) + " min ago";
  return std::to_string((s + 1800) / 3600) + " h ago";
}

}  // namespace

bool faulted_device(const EglDeviceFacts& device, const std::vector<GpuFaultMark>& marks) {
  if (!device.nvidia || marks.empty()) return false;
  if (device.gpu.uuid.empty() && device.gpu.pci_bus_id.empty()) return true;  // cannot tell: assume it is
  return find_fault_mark(marks, device.gpu) != nullptr;
}

GlDeviceChoice choose_gl_device(const std::vector<EglDeviceFacts>& devices, const std::vector<GpuFaultMark>& marks,
                                long long now_unix) {
  GlDeviceChoice c;
  const EglDeviceFacts *first_nvidia = nullptr, *fallback_nvidia = nullptr, *software = nullptr;
  for (const auto& d : devices) {
    if (d.software && !software) software = &d;
    if (!d.nvidia) continue;
    if (!first_nvidia) first_nvidia = &d;
    if (!d.left && !fallback_nvidia) fallback_nvidia = &d;
    if (!d.left && !faulted_device(d, marks)) {
      c.device = d.index;
      return c;
    }
  }
  if (!first_nvidia) return c;  // no NVIDIA device: nothing of this concerns the picture
  if (!fallback_nvidia) fallback_nvidia = first_nvidia;
  // Why the NVIDIA GPUs are passed over: a fault mark, said in the notice; or only being left (the caller says why).
  const GpuFaultMark* m = find_fault_mark(marks, first_nvidia->gpu);
  if (!m && !marks.empty() && faulted_device(*first_nvidia, marks)) m = &marks.front();
  std::string what;
  if (m) {
    const std::string gpu = m->gpu.name.empty() ? (m->gpu.uuid.empty() ? m->gpu.pci_bus_id : m->gpu.uuid) : m->gpu.name;
    what = "a CUDA kernel faulted on the " + gpu + " " + ago(m->unix_time, now_unix) +
           (m->why.empty() ? "" : " (" + m->why + ")") +
           ", and NVIDIA's driver then resets OpenGL beside CUDA work on that GPU until it is reset";
  }
  if (software) {
    c.device = software->index;
    if (m)
      c.notice = "Drawing on the CPU (Mesa): " + what +
                 ". After a GPU reset, WARPSCOPE_IGNORE_GPU_FAULTS=1 draws on the GPU again.";
  } else {
    c.device = fallback_nvidia->index;
    c.notice = "The picture may be reset: " + (m ? what : std::string("nothing but this NVIDIA GPU can draw it")) +
               ". Install Mesa's EGL (libegl-mesa0) to draw on the CPU" +
               (m ? ", or have the GPU reset (nvidia-smi -r)." : ".");
  }
  return c;
}

std::string mesa_egl_vendor_file() {
  std::string dirs = "/etc/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d";
  if (const char* env = std::getenv("__EGL_VENDOR_LIBRARY_DIRS"); env && *env) dirs = env;
  std::stringstream list(dirs);
  for (std::string dir; std::getline(list, dir, ':');) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      if (e.path().extension() != ".json") continue;
      std::ifstream in(e.path());
      std::stringstream text;
      text << in.rdbuf();
      if (text.str().find("libEGL_mesa") != std::string::npos) return e.path().string();
    }
  }
  return "";
}

void use_mesa_egl_only(const std::string& vendor_file) {
  ::setenv("__EGL_VENDOR_LIBRARY_FILENAMES", vendor_file.c_str(), 1);
  ::setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
}

}  // namespace ws::gui
