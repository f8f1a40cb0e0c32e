// The Grid view's renderer (app/ui/grid_renderer.hpp) in OpenGL 3.3 core: the per-warp values in an
// R8UI data texture, the colour map in a fragment shader (shaders/grid_heatmap.*, embedded at build
// time), drawn into a framebuffer texture that the view shows as an ImGui image. GL entry points come
// from libOpenGL (glvnd) as in headless.cpp; the window's GLX context and the headless EGL one both
// dispatch through it.
#include "gl_api.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "limits.hpp"
#include "shader_sources.hpp"
#include "views/grid_renderer.hpp"

namespace ws::gui {

namespace {

#ifdef __EMSCRIPTEN__
constexpr int kMinGlVersion = 30;  // WebGL2 is OpenGL ES 3.0
constexpr const char* kMinGlName = "OpenGL ES 3.0 (WebGL2)";
#else
constexpr int kMinGlVersion = 33;
constexpr const char* kMinGlName = "OpenGL 3.3";
#endif

/// The GLSL of shaders/ (written for GLSL 3.30 core) for this context: unchanged on the desktop; in the
/// browser its first line becomes GLSL ES 3.00's, with the precisions ES asks for.
std::string glsl_for_context(const char* src) {
  std::string text = src;
#ifdef __EMSCRIPTEN__
  const std::string desktop = "#version 330 core";
  if (text.compare(0, desktop.size(), desktop) == 0)
    text.replace(0, desktop.size(),
                 "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp usampler2D;");
#endif
  return text;
}

struct GlGrid {
  std::string vert_src = glsl_for_context(shaders::kGridHeatmapVert);
  std::string frag_src = glsl_for_context(shaders::kGridHeatmapFrag);
  std::string source_error;  ///< the shader files could not be read (--shader-dir)
  bool tried = false;        ///< program built (or failed: `failure` says why)
  std::string failure;
  GLuint program = 0, vao = 0, data_tex = 0, color_tex = 0, fbo = 0;
  int tex_width = 0;
  int color_w = 0, color_h = 0;
  std::uint64_t uploaded_version = 0;
  const controller::GridSummary* uploaded = nullptr;
  bool have_picture = false;
  ui::GridImageRequest last;  ///< what color_tex holds
};

GlGrid& state() {
  static GlGrid g;
  return g;
}

std::string first_line(const std::string& s) {
  const std::size_t e = s.find('\n');
  return e == std::string::npos ? s : s.substr(0, e);
}

/// Compiles one stage; 0 and `err` on failure.
GLuint compile(GLenum kind, const std::string& src, const char* name, std::string& err) {
  GLuint sh = glCreateShader(kind);
  const char* text = src.c_str();
  glShaderSource(sh, 1, &text, nullptr);
  glCompileShader(sh);
  GLint ok = GL_FALSE;
  glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
  if (ok == GL_TRUE) return sh;
  GLint len = 0;
  glGetShaderiv(sh, GL_INFO_LOG_LENGTH, &len);
  std::string log(std::size_t(len > 1 ? len : 1), '\0');
  glGetShaderInfoLog(sh, GLsizei(log.size()), nullptr, log.data());
  log.resize(std::strlen(log.c_str()));
  err = std::string("shader compile error in ") + name + ": " + first_line(log);
  glDeleteShader(sh);
  return 0;
}

/// Builds the program once; "" or why not (no GL 3.3 / ES 3.0, compile or link error).
std::string build(GlGrid& g) {
  if (g.tried) return g.failure;
  g.tried = true;
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  glGetError();  // GL_MAJOR_VERSION is unknown before 3.0: the check below then fails with 0.0
  if (major * 10 + minor < kMinGlVersion) {
    const char* ver = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    return g.failure =
               std::string("the Grid view needs ") + kMinGlName + "; this context is " + (ver ? ver : "unknown");
  }
  if (!g.source_error.empty()) return g.failure = g.source_error;
  std::string err;
  GLuint vs = compile(GL_VERTEX_SHADER, g.vert_src, "grid_heatmap.vert", err);
  if (!vs) return g.failure = err;
  GLuint fs = compile(GL_FRAGMENT_SHADER, g.frag_src, "grid_heatmap.frag", err);
  if (!fs) {
    glDeleteShader(vs);
    return g.failure = err;
  }
  g.program = glCreateProgram();
  glAttachShader(g.program, vs);
  glAttachShader(g.program, fs);
  glLinkProgram(g.program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(g.program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    char log[512] = {0};
    glGetProgramInfoLog(g.program, sizeof log, nullptr, log);
    glDeleteProgram(g.program);
    g.program = 0;
    return g.failure = "shader link error: " + first_line(log);
  }
  glGenVertexArrays(1, &g.vao);
  glGenTextures(1, &g.data_tex);
  glGenTextures(1, &g.color_tex);
  glGenFramebuffers(1, &g.fbo);
  return "";
}

/// The GL state ImGui's backend and the headless FBO rely on, put back after the picture is drawn.
struct SavedState {
  GLint draw_fbo = 0, read_fbo = 0, program = 0, vao = 0, tex = 0, active = 0, unpack = 4;
  GLint viewport[4] = {0, 0, 0, 0};
  GLboolean blend = GL_FALSE, scissor = GL_FALSE, depth = GL_FALSE, cull = GL_FALSE;
  SavedState() {
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fbo);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fbo);
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &tex);
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &unpack);
    glGetIntegerv(GL_VIEWPORT, viewport);
    blend = glIsEnabled(GL_BLEND), scissor = glIsEnabled(GL_SCISSOR_TEST), depth = glIsEnabled(GL_DEPTH_TEST);
    cull = glIsEnabled(GL_CULL_FACE);
  }
  ~SavedState() {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(draw_fbo));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(read_fbo));
    glUseProgram(GLuint(program));
    glBindVertexArray(GLuint(vao));
    glBindTexture(GL_TEXTURE_2D, GLuint(tex));
    glActiveTexture(GLenum(active));
    glPixelStorei(GL_UNPACK_ALIGNMENT, unpack);
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    auto set = [](GLenum cap, GLboolean on) { on ? glEnable(cap) : glDisable(cap); };
    set(GL_BLEND, blend), set(GL_SCISSOR_TEST, scissor), set(GL_DEPTH_TEST, depth), set(GL_CULL_FACE, cull);
  }
};

/// Uploads the metric's cells as an R8UI texture; "" or why not.
std::string upload(GlGrid& g, const ui::GridImageRequest& req) {
  const std::vector<std::uint8_t>& cells = req.data->values[int(req.metric)];
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
  const std::int64_t width = std::min<std::int64_t>(max_size, 4096);
  const std::int64_t height = (std::int64_t(cells.size()) + width - 1) / width;
  if (width <= 0 || height > max_size)
    return "the grid's " + std::to_string(cells.size()) + " cells do not fit one texture (GL_MAX_TEXTURE_SIZE " +
           std::to_string(max_size) + ")";
  std::vector<std::uint8_t> padded(std::size_t(width * std::max<std::int64_t>(height, 1)), controller::kGridNoStep);
  std::copy(cells.begin(), cells.end(), padded.begin());
  glBindTexture(GL_TEXTURE_2D, g.data_tex);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);  // integer textures take no filtering
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8UI, GLsizei(width), GLsizei(std::max<std::int64_t>(height, 1)), 0, GL_RED_INTEGER,
               GL_UNSIGNED_BYTE, padded.data());
  g.tex_width = int(width);
  return "";
}

bool same_picture(const ui::GridImageRequest& a, const ui::GridImageRequest& b) {
  return a.data == b.data && a.data_version == b.data_version && a.metric == b.metric && a.warp0 == b.warp0 &&
         a.warp1 == b.warp1 && a.step0 == b.step0 && a.step1 == b.step1 && a.width == b.width && a.height == b.height &&
         std::memcmp(a.background, b.background, sizeof a.background) == 0;
}

ImTextureID render(const ui::GridImageRequest& req, std::string& error) {
  GlGrid& g = state();
  auto id = [&] { return reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(g.color_tex)); };
  if (g.have_picture && same_picture(req, g.last)) return id();
  if (!req.data || req.width <= 0 || req.height <= 0) {
    error = "nothing to draw";
    return ImTextureID();
  }
  SavedState saved;
  if (std::string err = build(g); !err.empty()) {
    error = err;
    return ImTextureID();
  }
  while (glGetError() != GL_NO_ERROR) {}
  if (g.uploaded != req.data || g.uploaded_version != req.data_version || g.last.metric != req.metric ||
      !g.have_picture) {
    if (std::string err = upload(g, req); !err.empty()) {
      error = err;
      return ImTextureID();
    }
    g.uploaded = req.data, g.uploaded_version = req.data_version;
  }
  if (g.color_w != req.width || g.color_h != req.height) {
    glBindTexture(GL_TEXTURE_2D, g.color_tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, req.width, req.height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindFramebuffer(GL_FRAMEBUFFER, g.fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, g.color_tex, 0);
    if (GLenum st = glCheckFramebufferStatus(GL_FRAMEBUFFER); st != GL_FRAMEBUFFER_COMPLETE) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "the Grid view's framebuffer is incomplete (status 0x%04x)", unsigned(st));
      error = buf;
      g.color_w = g.color_h = 0;
      return ImTextureID();
    }
    g.color_w = req.width, g.color_h = req.height;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, g.fbo);
  glViewport(0, 0, req.width, req.height);
  glDisable(GL_BLEND), glDisable(GL_SCISSOR_TEST), glDisable(GL_DEPTH_TEST), glDisable(GL_CULL_FACE);
  glUseProgram(g.program);
  glBindVertexArray(g.vao);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, g.data_tex);
  auto loc = [&](const char* name) { return glGetUniformLocation(g.program, name); };
  glUniform1i(loc("u_data"), 0);
  glUniform1i(loc("u_tex_width"), g.tex_width);
  glUniform1i(loc("u_stride"), controller::kGridStepStride);
  glUniform1i(loc("u_warps"), GLint(req.data->warps()));
  glUniform1i(loc("u_steps"), req.data->steps);
  glUniform2f(loc("u_warp_range"), float(req.warp0), float(req.warp1));
  glUniform2f(loc("u_step_range"), float(req.step0), float(req.step1));
  glUniform2f(loc("u_pixels"), float(req.width), float(req.height));
  glUniform1i(loc("u_metric"), int(req.metric));
  float lo = 0, hi = 1;
  ui::grid_metric_range(req.metric, lo, hi);
  glUniform2f(loc("u_range"), lo, hi);
  glUniform3fv(loc("u_stops"), ui::kGridColorStops, &ui::grid_color_map(req.metric).rgb[0][0]);
  glUniform3fv(loc("u_background"), 1, req.background);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  if (GLenum e = glGetError(); e != GL_NO_ERROR) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "drawing the grid failed (GL error 0x%04x)", unsigned(e));
    error = buf;
    g.have_picture = false;
    return ImTextureID();
  }
  g.last = req;
  g.have_picture = true;
  return id();
}

/// Forgets the GL objects without deleting them: their context is gone (a GPU reset), and their names may
/// already belong to objects of the next context.
void abandon() {
  GlGrid& g = state();
  const std::string vert = g.vert_src, frag = g.frag_src, source_error = g.source_error;
  g = GlGrid{};
  g.vert_src = vert, g.frag_src = frag, g.source_error = source_error;
}

void release() {
  GlGrid& g = state();
  if (g.program) glDeleteProgram(g.program);
  if (g.vao) glDeleteVertexArrays(1, &g.vao);
  if (g.data_tex) glDeleteTextures(1, &g.data_tex);
  if (g.color_tex) glDeleteTextures(1, &g.color_tex);
  if (g.fbo) glDeleteFramebuffers(1, &g.fbo);
  abandon();
}

/// A GLSL source is a few KiB: /dev/zero or a 2 GB file in --shader-dir is refused, not read.
constexpr std::uintmax_t kMaxShaderFileBytes = kMiB;

}  // namespace

/// Installs the Grid view's GL renderer; call with the GL context current. `shader_dir` non-empty:
/// grid_heatmap.vert/.frag found there replace the embedded copies (one missing: the embedded one;
/// neither there, or one unreadable: the view's error message says so).
void install_gl_grid_renderer(const std::string& shader_dir) {
  GlGrid& g = state();
  if (!shader_dir.empty()) {
    int found = 0;
    for (auto [name, dst] :
         {std::pair{"grid_heatmap.vert", &g.vert_src}, std::pair{"grid_heatmap.frag", &g.frag_src}}) {
      const std::string path = shader_dir + "/" + name;
      std::error_code ec;
      if (!std::filesystem::exists(path, ec)) continue;
      ++found;
      std::string text;
      if (std::string err = read_file_bounded(path, kMaxShaderFileBytes, "shader", text); !err.empty())
        g.source_error = err;
      else
        *dst = std::move(text);
    }
    if (found == 0) g.source_error = "no grid_heatmap.vert or grid_heatmap.frag in --shader-dir " + shader_dir;
  }
  ui::set_grid_renderer(ui::GridRendererApi{render, release});
}

void abandon_gl_grid_renderer() {
  abandon();
  ui::set_grid_renderer({});
}

}  // namespace ws::gui
