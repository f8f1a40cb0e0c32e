// ws_gl_probe: the smallest OpenGL programs between "glClear works" and "warpscope draws", for bisecting
// what makes a GL context fail on a GPU (issue 24: the GUI's context is reset after a CUDA kernel faulted
// on the same GPU). Not part of the product; scripts/device-gui-faults.sh runs it on the GPU machine.
//
//   ws_gl_probe MODE [--pbuffer] [--plain] [--frames N] [--device K]
//     MODE     clear     glClear of the target, read back one pixel
//              triangle  one triangle from a vertex buffer (VAO + VBO + shader program)
//              indexed   the same from an index buffer (glDrawElements with an element buffer, as ImGui does)
//              imgui     ImGui's OpenGL3 backend alone: its demo window, its own font, N frames
//   ws_gl_probe devices
//              every EGL device (EGL_EXT_device_enumeration): index, its extensions, DRM file, UUID if given
//   ws_gl_probe cuda-hold|cuda-copy SECONDS
//              a CUDA context (driver API, dlopen'ed: no link to CUDA) held for SECONDS, idle or copying
//              256 MiB device to device in a loop: the second process beside a GL one
//     --pbuffer  draw into a 64x64 pbuffer surface (default: no surface, an FBO, as warpscope does)
//     --plain    a plain context (default: robust, lose context on reset, as warpscope asks)
//     --device K the K-th EGL device (EGL_EXT_platform_device) instead of the default display
//     --priority high|low  ask for that context priority (EGL_IMG_context_priority)
//     --lock FILE  hold flock(FILE) around each frame's GL work (and, for cuda-copy, around each copy):
//                  the two processes' GPU work never overlaps
// Prints one line: "MODE surface context: ok|RESET|FAIL ..." with the pixel read back and the reset
// status; exit 0 when the pixel is right and no reset was reported, 1 on a reset, 2 on a setup failure.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>

namespace {

int g_lock_fd = -1;  // --lock: the file both processes lock around their GPU work
struct Locked {
  Locked() {
    if (g_lock_fd >= 0) flock(g_lock_fd, LOCK_EX);
  }
  ~Locked() {
    if (g_lock_fd >= 0) flock(g_lock_fd, LOCK_UN);
  }
};

const char* reset_name(GLenum s) {
  switch (s) {
    case GL_NO_ERROR: return "none";
    case GL_GUILTY_CONTEXT_RESET: return "guilty";
    case GL_INNOCENT_CONTEXT_RESET: return "innocent";
    default: return "unknown";
  }
}

GLuint compile(GLenum type, const char* src) {
  GLuint sh = glCreateShader(type);
  glShaderSource(sh, 1, &src, nullptr);
  glCompileShader(sh);
  GLint ok = 0;
  glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[512] = "";
    glGetShaderInfoLog(sh, sizeof log, nullptr, log);
    std::fprintf(stderr, "shader: %s\n", log);
  }
  return sh;
}

GLuint program() {
  const char* vs =
      "#version 330 core\nlayout(location=0) in vec2 p;\nvoid main(){ gl_Position = vec4(p, 0.0, 1.0); }\n";
  const char* fs = "#version 330 core\nout vec4 c;\nvoid main(){ c = vec4(0.0, 1.0, 0.0, 1.0); }\n";
  GLuint p = glCreateProgram();
  GLuint v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
  glAttachShader(p, v);
  glAttachShader(p, f);
  glLinkProgram(p);
  glDeleteShader(v);
  glDeleteShader(f);
  return p;
}

/// One covering triangle in green, from a VBO, or from a VBO and an element buffer.
void draw_triangle(bool indexed) {
  const float verts[] = {-1.f, -1.f, 3.f, -1.f, -1.f, 3.f};
  const unsigned short idx[] = {0, 1, 2};
  GLuint vao = 0, vbo = 0, ebo = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof verts, verts, GL_STREAM_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  GLuint p = program();
  glUseProgram(p);
  if (indexed) {
    glGenBuffers(1, &ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STREAM_DRAW);
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, nullptr);
  } else {
    glDrawArrays(GL_TRIANGLES, 0, 3);
  }
  glFinish();
  glDeleteProgram(p);
  glDeleteBuffers(1, &vbo);
  if (ebo) glDeleteBuffers(1, &ebo);
  glDeleteVertexArrays(1, &vao);
}

void draw_imgui(int w, int h, int frames) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(float(w), float(h));
  ImGui_ImplOpenGL3_Init("#version 330 core");
  for (int i = 0; i < frames; ++i) {
    io.DeltaTime = 1.f / 60.f;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x / 2, io.DisplaySize.y / 2));
    ImGui::Begin("probe", nullptr, ImGuiWindowFlags_NoDecoration);
    for (int k = 0; k < 40; ++k) ImGui::Text("line %d: the quick brown fox", k);
    ImGui::End();
    ImGui::ShowDemoWindow();
    ImGui::Render();
    Locked lock;
    glViewport(0, 0, w, h);
    glClearColor(0.f, 1.f, 0.f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glFinish();
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
}

/// cuda-hold / cuda-copy: a CUDA context on device 0 for `seconds`, through libcuda.so.1 opened at run time.
int hold_cuda(bool copy, double seconds) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) {
    std::printf("cuda: FAIL no libcuda.so.1\n");
    return 2;
  }
  using Fn0 = int (*)(unsigned);
  using FnDev = int (*)(int*, int);
  using FnRetain = int (*)(void**, int);
  using FnSet = int (*)(void*);
  using FnAlloc = int (*)(unsigned long long*, std::size_t);
  using FnCopy = int (*)(unsigned long long, unsigned long long, std::size_t);
  using FnSync = int (*)();
  auto init = reinterpret_cast<Fn0>(dlsym(lib, "cuInit"));
  auto dev_get = reinterpret_cast<FnDev>(dlsym(lib, "cuDeviceGet"));
  auto retain = reinterpret_cast<FnRetain>(dlsym(lib, "cuDevicePrimaryCtxRetain"));
  auto set = reinterpret_cast<FnSet>(dlsym(lib, "cuCtxSetCurrent"));
  auto alloc = reinterpret_cast<FnAlloc>(dlsym(lib, "cuMemAlloc_v2"));
  auto dtod = reinterpret_cast<FnCopy>(dlsym(lib, "cuMemcpyDtoD_v2"));
  auto sync = reinterpret_cast<FnSync>(dlsym(lib, "cuCtxSynchronize"));
  int dev = 0;
  void* ctx = nullptr;
  if (!init || init(0) || dev_get(&dev, 0) || retain(&ctx, dev) || set(ctx)) {
    std::printf("cuda: FAIL no context\n");
    return 2;
  }
  const std::size_t bytes = std::size_t(256) << 20;
  unsigned long long a = 0, b = 0;
  if (copy && (alloc(&a, bytes) || alloc(&b, bytes))) {
    std::printf("cuda: FAIL cuMemAlloc\n");
    return 2;
  }
  std::fprintf(stderr, "cuda: context open (%s)\n", copy ? "copying" : "idle");
  const auto t0 = std::chrono::steady_clock::now();
  long copies = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds) {
    if (copy) {
      Locked lock;
      if (dtod(b, a, bytes) || sync()) {
        std::printf("cuda: FAIL copy %ld\n", copies);
        return 1;
      }
      ++copies;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  std::printf("cuda-%s: ok %ld copies in %.1f s\n", copy ? "copy" : "hold", copies, seconds);
  return 0;
}

}  // namespace

/// devices: one line per EGL device, what warpscope's choice of device (gl_device_choice.hpp) reads.
int list_devices() {
  auto query = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto str = reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(eglGetProcAddress("eglQueryDeviceStringEXT"));
  auto bin = reinterpret_cast<PFNEGLQUERYDEVICEBINARYEXTPROC>(eglGetProcAddress("eglQueryDeviceBinaryEXT"));
  EGLDeviceEXT devs[16];
  EGLint n = 0;
  if (!query || !str || !query(16, devs, &n)) {
    std::printf("devices: none (no EGL_EXT_device_enumeration)\n");
    return 2;
  }
  for (EGLint i = 0; i < n; ++i) {
    const char* ext = str(devs[i], EGL_EXTENSIONS);
    const char* drm = ext && std::strstr(ext, "EGL_EXT_device_drm") ? str(devs[i], EGL_DRM_DEVICE_FILE_EXT) : nullptr;
    unsigned char uuid[16];
    EGLint size = 0;
    char hex[40] = "-";
    if (bin && ext && std::strstr(ext, "EGL_EXT_device_persistent_id") &&
        bin(devs[i], EGL_DEVICE_UUID_EXT, 16, uuid, &size) && size == 16)
      for (int k = 0; k < 16; ++k) std::snprintf(hex + 2 * k, 3, "%02x", uuid[k]);
    std::printf("device %d: drm %s uuid %s extensions %s\n", int(i), drm ? drm : "-", hex, ext ? ext : "-");
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ws_gl_probe clear|triangle|indexed|imgui [--pbuffer] [--plain] [--frames N]\n");
    return 2;
  }
  const std::string mode = argv[1];
  for (int i = 2; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--lock")) g_lock_fd = open(argv[i + 1], O_CREAT | O_RDWR, 0600);
  if (mode == "devices") return list_devices();
  if (mode == "cuda-hold" || mode == "cuda-copy")
    return hold_cuda(mode == "cuda-copy", argc > 2 ? std::atof(argv[2]) : 10);
  bool pbuffer = false, robust = true;
  int frames = 3, device = -1;
  EGLint priority = 0;  // 0: not asked
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--pbuffer"))
      pbuffer = true;
    else if (!std::strcmp(argv[i], "--plain"))
      robust = false;
    else if (!std::strcmp(argv[i], "--frames") && i + 1 < argc)
      frames = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--device") && i + 1 < argc)
      device = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--lock") && i + 1 < argc)
      ++i;  // read above
    else if (!std::strcmp(argv[i], "--priority") && i + 1 < argc)
      priority = !std::strcmp(argv[++i], "high") ? 0x3101 : 0x3103;  // EGL_CONTEXT_PRIORITY_HIGH_IMG / _LOW_IMG
  }
  const char* label_surface = pbuffer ? "pbuffer" : "fbo";
  const char* label_ctx = priority == 0x3101 ? (robust ? "robust-high" : "plain-high")
                          : priority         ? (robust ? "robust-low" : "plain-low")
                          : robust           ? "robust"
                                             : "plain";
  auto fail = [&](const char* what) {
    std::printf("%s %s %s: FAIL %s (EGL 0x%04x)\n", mode.c_str(), label_surface, label_ctx, what, eglGetError());
    return 2;
  };
  EGLDisplay dpy = EGL_NO_DISPLAY;
  if (device >= 0) {
    auto query = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    auto get = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    EGLDeviceEXT devs[16];
    EGLint n = 0;
    if (!query || !get || !query(16, devs, &n) || device >= n) return fail("no such EGL device");
    dpy = get(EGL_PLATFORM_DEVICE_EXT, devs[device], nullptr);
  } else {
    dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  }
  EGLint major = 0, minor = 0;
  if (device < 0 && (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor))) {  // Mesa without X: surfaceless
    auto get = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    dpy = get ? get(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr) : EGL_NO_DISPLAY;
  }
  if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) return fail("eglInitialize");
  eglBindAPI(EGL_OPENGL_API);
  const EGLint cfg_attr[] = {EGL_SURFACE_TYPE,
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
  EGLConfig cfg = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &count) || count == 0) return fail("eglChooseConfig");
  const EGLint robust_attr[] = {EGL_CONTEXT_MAJOR_VERSION,
                                3,
                                EGL_CONTEXT_MINOR_VERSION,
                                3,
                                EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                EGL_CONTEXT_OPENGL_ROBUST_ACCESS,
                                EGL_TRUE,
                                EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
                                EGL_LOSE_CONTEXT_ON_RESET,
                                EGL_NONE};
  const EGLint plain_attr[] = {
      EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLint attr[16];
  const EGLint* base = robust ? robust_attr : plain_attr;
  int k = 0;
  for (; base[k] != EGL_NONE; ++k) attr[k] = base[k];
  if (priority) attr[k++] = 0x3100, attr[k++] = priority;  // EGL_CONTEXT_PRIORITY_LEVEL_IMG
  attr[k] = EGL_NONE;
  EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attr);
  if (priority && ctx != EGL_NO_CONTEXT) {
    EGLint got = 0;
    eglQueryContext(dpy, ctx, 0x3100, &got);
    std::fprintf(stderr, "context priority asked 0x%x, got 0x%x\n", unsigned(priority), unsigned(got));
  }
  if (ctx == EGL_NO_CONTEXT) return fail("eglCreateContext");
  // ImGui's demo window opens at x = 650 and is about 550 wide: the probed pixel (bottom right) stays clear of it.
  const int w = mode == "imgui" ? 1600 : pbuffer ? 64 : 640, h = mode == "imgui" ? 900 : pbuffer ? 64 : 480;
  EGLSurface surf = EGL_NO_SURFACE;
  if (pbuffer) {
    const EGLint pb[] = {EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE};
    surf = eglCreatePbufferSurface(dpy, cfg, pb);
    if (surf == EGL_NO_SURFACE) return fail("eglCreatePbufferSurface");
  }
  if (!eglMakeCurrent(dpy, surf, surf, ctx)) return fail("eglMakeCurrent");
  GLuint fbo = 0, rb = 0;
  if (!pbuffer) {
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  }
  glViewport(0, 0, w, h);
  glClearColor(1.f, 0.f, 0.f, 1.f);  // red: any mode that draws turns the probed pixel green
  glClear(GL_COLOR_BUFFER_BIT);
  if (mode == "clear") {
    glClearColor(0.f, 1.f, 0.f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
  } else if (mode == "triangle" || mode == "indexed") {
    draw_triangle(mode == "indexed");
  } else if (mode == "imgui") {
    draw_imgui(w, h, frames);
  } else {
    return fail("unknown mode");
  }
  glFinish();
  unsigned char px[4] = {0, 0, 0, 0};
  glReadPixels(w - 2, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);  // bottom right: no ImGui window there
  auto status_of = reinterpret_cast<PFNGLGETGRAPHICSRESETSTATUSPROC>(eglGetProcAddress("glGetGraphicsResetStatus"));
  const GLenum reset = robust && status_of ? status_of() : GL_NO_ERROR;
  const bool green = px[0] < 16 && px[1] > 240 && px[2] < 16;
  std::printf("%s %s %s: %s pixel %u,%u,%u reset %s\n", mode.c_str(), label_surface, label_ctx,
              reset != GL_NO_ERROR ? "RESET"
              : green              ? "ok"
                                   : "WRONG",
              px[0], px[1], px[2], reset_name(reset));
  if (fbo) glDeleteFramebuffers(1, &fbo);
  if (rb) glDeleteRenderbuffers(1, &rb);
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (surf != EGL_NO_SURFACE) eglDestroySurface(dpy, surf);
  eglDestroyContext(dpy, ctx);
  eglTerminate(dpy);
  return reset != GL_NO_ERROR ? 1 : green ? 0 : 1;
}
