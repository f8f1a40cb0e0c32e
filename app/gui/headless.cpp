#include "headless.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#include <stb_image_write.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "gl_device_choice.hpp"
#include "png_region.hpp"

namespace ws::gui {

namespace {

std::string egl_error(const char* what) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s failed (EGL error 0x%04x)", what, unsigned(eglGetError()));
  return buf;
}

bool has_extension(const char* list, const char* name) {
  if (!list) return false;
  const std::size_t n = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

/// Tries Mesa's surfaceless platform, then the driver's default display (NVIDIA via glvnd), then
/// the first EGL device. Returns an initialised display or EGL_NO_DISPLAY.
EGLDisplay open_display(std::string& description, std::string& error) {
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);  // null without EGL_EXT_client_extensions
  auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  EGLint major = 0, minor = 0;
  if (get_platform_display && has_extension(client, "EGL_MESA_platform_surfaceless")) {
    EGLDisplay d = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) {
      description = "EGL surfaceless";
      return d;
    }
  }
  if (EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY); d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) {
    description = "EGL default display";
    return d;
  }
  auto query_devices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  if (get_platform_display && query_devices && has_extension(client, "EGL_EXT_platform_device")) {
    EGLDeviceEXT devices[8];
    EGLint count = 0;
    if (query_devices(8, devices, &count) && count > 0) {
      EGLDisplay d = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[0], nullptr);
      if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) {
        description = "EGL device platform";
        return d;
      }
    }
  }
  error = egl_error("no EGL display: surfaceless, default and device platforms all");
  return EGL_NO_DISPLAY;
}

/// The PCI bus id ("0000:19:00.0") of a DRM device file ("/dev/dri/card1"), from sysfs; "" if unknown.
std::string pci_bus_of_drm(const char* file) {
  if (!file || !*file) return "";
  std::error_code ec;
  const auto dev = std::filesystem::canonical(
      std::filesystem::path("/sys/class/drm") / std::filesystem::path(file).filename() / "device", ec);
  return ec ? "" : dev.filename().string();
}

/// Every EGL device (EGL_EXT_device_enumeration) with what EGL_EXT_device_query tells of it; `handles`
/// gets the devices themselves in the same order. Empty when the extensions are missing.
std::vector<EglDeviceFacts> list_egl_devices(std::vector<EGLDeviceEXT>& handles) {
  std::vector<EglDeviceFacts> out;
  handles.clear();
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  auto query_devices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto device_string = reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(eglGetProcAddress("eglQueryDeviceStringEXT"));
  auto device_binary = reinterpret_cast<PFNEGLQUERYDEVICEBINARYEXTPROC>(eglGetProcAddress("eglQueryDeviceBinaryEXT"));
  if (!query_devices || !device_string || !has_extension(client, "EGL_EXT_platform_device")) return out;
  EGLDeviceEXT devices[16];
  EGLint count = 0;
  if (!query_devices(16, devices, &count)) return out;
  for (EGLint i = 0; i < count; ++i) {
    EglDeviceFacts f;
    f.index = int(i);
    const char* ext = device_string(devices[i], EGL_EXTENSIONS);
    f.nvidia = has_extension(ext, "EGL_NV_device_cuda");
    f.software = has_extension(ext, "EGL_MESA_device_software");
    unsigned char uuid[16];
    EGLint size = 0;
    if (device_binary && has_extension(ext, "EGL_EXT_device_persistent_id") &&
        device_binary(devices[i], EGL_DEVICE_UUID_EXT, 16, uuid, &size) && size == 16)
      f.gpu.uuid = format_gpu_uuid(uuid);
    if (has_extension(ext, "EGL_EXT_device_drm"))
      f.gpu.pci_bus_id = pci_bus_of_drm(device_string(devices[i], EGL_DRM_DEVICE_FILE_EXT));
    out.push_back(f);
    handles.push_back(devices[i]);
  }
  eglGetError();  // a device that answered no query leaves an error that is not the context's
  return out;
}

long long unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void GLAPIENTRY print_gl_message(GLenum, GLenum type, GLuint id, GLenum severity, GLsizei, const GLchar* message,
                                 const void*) {
  static int printed = 0;
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION && printed > 20) return;  // high, medium, low: always
  ++printed;
  std::fprintf(stderr, "warpscope: GL debug (type 0x%x, id %u, severity 0x%x): %s\n", unsigned(type), unsigned(id),
               unsigned(severity), message);
}

/// Sends the driver's debug messages to stderr (synchronously, so a message comes before what follows it).
void install_gl_debug_output() {
  auto callback = reinterpret_cast<PFNGLDEBUGMESSAGECALLBACKPROC>(eglGetProcAddress("glDebugMessageCallback"));
  if (!callback) {
    std::fprintf(stderr, "warpscope: WARPSCOPE_GL_DEBUG: this driver has no glDebugMessageCallback\n");
    return;
  }
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  callback(print_gl_message, nullptr);
  std::fprintf(stderr, "warpscope: GL debug output on (%s)\n", reinterpret_cast<const char*>(glGetString(GL_VERSION)));
}

}  // namespace

HeadlessGl::~HeadlessGl() { close(); }

std::string HeadlessGl::reset_status() const {
  if (!robust_) return "";
  static const auto status_of =
      reinterpret_cast<PFNGLGETGRAPHICSRESETSTATUSPROC>(eglGetProcAddress("glGetGraphicsResetStatus"));
  if (!status_of) return "";
  switch (status_of()) {
    case GL_NO_ERROR: return "";
    case GL_GUILTY_CONTEXT_RESET: return "the GPU reset this OpenGL context (caused by its own commands)";
    case GL_INNOCENT_CONTEXT_RESET: return "the GPU reset this OpenGL context (caused by other work on the GPU)";
    default: return "the GPU reset this OpenGL context (cause unknown)";
  }
}

std::string HeadlessGl::open(int width, int height) { return open_avoiding(width, height, nullptr); }

std::string HeadlessGl::open_avoiding(int width, int height, void* left_device) {
  notice_.clear();
  device_ = EglDeviceFacts{};
  on_device_ = false;
  std::vector<EGLDeviceEXT> handles;
  std::vector<EglDeviceFacts> devices = list_egl_devices(handles);
  for (std::size_t i = 0; i < devices.size(); ++i)
    devices[i].left = handles[i] == static_cast<EGLDeviceEXT>(left_device);
  const GlDeviceChoice choice = choose_gl_device(devices, gpu_fault_marks(), unix_now());
  auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (choice.device >= 0 && get_platform_display) {
    const std::size_t k = std::size_t(choice.device);
    EGLint major = 0, minor = 0;
    EGLDisplay d = get_platform_display(EGL_PLATFORM_DEVICE_EXT, handles[k], nullptr);
    if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) {
      description_ = "EGL device " + std::to_string(choice.device);
      if (make_context(d, width, height).empty()) {
        notice_ = choice.notice;
        device_ = devices[k];
        on_device_ = true;
        return "";
      }
      close();
    }
  }
  std::string error;
  EGLDisplay dpy = open_display(description_, error);  // the usual order: Mesa surfaceless, default, first device
  if (dpy == EGL_NO_DISPLAY) return error;
  return make_context(dpy, width, height);
}

std::string HeadlessGl::reopen() {
  const int width = width_, height = height_;
  EGLDisplay lost = static_cast<EGLDisplay>(display_);
  // The device the lost context drew on (EGL_EXT_device_query): another one is chosen first (a second GPU;
  // Mesa when this one is the only GPU), then this one again if nothing else draws.
  EGLAttrib lost_device = 0;
  auto display_attrib =
      reinterpret_cast<PFNEGLQUERYDISPLAYATTRIBEXTPROC>(eglGetProcAddress("eglQueryDisplayAttribEXT"));
  if (lost && display_attrib) display_attrib(lost, EGL_DEVICE_EXT, &lost_device);
  close();
  return open_avoiding(width, height, reinterpret_cast<void*>(lost_device));
}

bool HeadlessGl::on_faulted_gpu() const {
  if (!on_device_ || !device_.nvidia) return false;
  // Read the marks again only when their directory changed (a mark is a file renamed into it): one stat a frame.
  if (const long long stamp = gpu_fault_marks_stamp(); stamp != marks_stamp_) {
    marks_stamp_ = stamp;
    faulted_ = faulted_device(device_, gpu_fault_marks());
  }
  return faulted_;
}

std::string HeadlessGl::make_context(void* display, int width, int height) {
  EGLDisplay dpy = static_cast<EGLDisplay>(display);
  display_ = dpy;
  if (!eglBindAPI(EGL_OPENGL_API)) return egl_error("eglBindAPI(EGL_OPENGL_API)");

  EGLint with_pbuffer[] = {EGL_SURFACE_TYPE,
                           EGL_PBUFFER_BIT,
                           EGL_RENDERABLE_TYPE,
                           EGL_OPENGL_BIT,
                           EGL_RED_SIZE,
                           8,
                           EGL_GREEN_SIZE,
                           8,
                           EGL_BLUE_SIZE,
                           8,
                           EGL_NONE};
  EGLint any_surface[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(dpy, with_pbuffer, &config, 1, &count) || count == 0) {
    // Some surfaceless setups list no pbuffer configs; we render to an FBO, so any GL config will do.
    if (!eglChooseConfig(dpy, any_surface, &config, 1, &count) || count == 0)
      return egl_error("eglChooseConfig (an OpenGL config)");
  }
  // A context that reports a GPU reset (glGetGraphicsResetStatus) instead of leaving the driver to end
  // the process; drivers without EGL 1.5's robustness get the plain context. WARPSCOPE_GL_DEBUG=1 also
  // asks for a debug context whose messages go to stderr.
  const bool debug = std::getenv("WARPSCOPE_GL_DEBUG") != nullptr;
  const EGLint robust_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                   3,
                                   EGL_CONTEXT_MINOR_VERSION,
                                   3,
                                   EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                   EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                   EGL_CONTEXT_OPENGL_ROBUST_ACCESS,
                                   EGL_TRUE,
                                   EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
                                   EGL_LOSE_CONTEXT_ON_RESET,
                                   EGL_CONTEXT_OPENGL_DEBUG,
                                   debug ? EGL_TRUE : EGL_FALSE,
                                   EGL_NONE};
  const EGLint ctx_attribs[] = {
      EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, robust_attribs);
  robust_ = ctx != EGL_NO_CONTEXT;
  if (!robust_) ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attribs);
  if (ctx == EGL_NO_CONTEXT) return egl_error("eglCreateContext (OpenGL 3.3 core)");
  context_ = ctx;
  if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) return egl_error("eglMakeCurrent without a surface");
  if (debug) install_gl_debug_output();
  if (const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER)))
    description_ += std::string(" (") + renderer + ")";

  width_ = width;
  height_ = height;
  glGenFramebuffers(1, &fbo_);
  glGenRenderbuffers(1, &color_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "framebuffer of %dx%d incomplete (status 0x%04x)", width, height, unsigned(status));
    return buf;
  }
  return "";
}

std::string HeadlessGl::save_png(const std::string& path) const {
  std::vector<unsigned char> rgba(std::size_t(width_) * height_ * 4), rgb(std::size_t(width_) * height_ * 3);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  if (GLenum e = glGetError(); e != GL_NO_ERROR) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "glReadPixels failed (GL error 0x%04x)", unsigned(e));
    return buf;
  }
  // GL's rows start at the bottom; PNG's at the top. Alpha is dropped: the UI is opaque.
  for (int y = 0; y < height_; ++y) {
    const unsigned char* src = &rgba[std::size_t(height_ - 1 - y) * width_ * 4];
    unsigned char* dst = &rgb[std::size_t(y) * width_ * 3];
    for (int x = 0; x < width_; ++x) std::memcpy(dst + 3 * x, src + 4 * x, 3);
  }
  return write_png_atomic(path, width_, height_, rgb);
}

void HeadlessGl::close() {
  if (!display_) return;
  EGLDisplay dpy = static_cast<EGLDisplay>(display_);
  if (context_) {
    if (fbo_) glDeleteFramebuffers(1, &fbo_);
    if (color_) glDeleteRenderbuffers(1, &color_);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, static_cast<EGLContext>(context_));
  }
  eglTerminate(dpy);
  display_ = context_ = nullptr;
  fbo_ = color_ = 0;
}

}  // namespace ws::gui
