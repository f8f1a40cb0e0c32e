// The pieces of surviving a GPU reset of the picture's GL context (issue 24) that need no GL: the reset
// budget, the test hook, Live paused on the same GPU, the session saved, and the views' textures of a lost
// context never used or deleted in the next one.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "gl_recovery.hpp"
#include "report.hpp"
#include "request.hpp"
#include "widgets/image_texture.hpp"

using namespace ws;

namespace {

struct EnvVar {  // sets a variable for one test, puts the old value back
  std::string name, old;
  bool had = false;
  EnvVar(const char* n, const std::string& value) : name(n) {
    if (const char* v = std::getenv(n)) had = true, old = v;
    setenv(n, value.c_str(), 1);
  }
  ~EnvVar() { had ? (void)setenv(name.c_str(), old.c_str(), 1) : (void)unsetenv(name.c_str()); }
};

}  // namespace

TEST(GlRecovery, TheTestHookResetsTheNamedFramesAndTheDriverLineWins) {
  EnvVar hook("WARPSCOPE_TEST_GL_RESET_AT_FRAMES", "1,3");
  gui::GlRecovery r;
  EXPECT_EQ(r.check(""), "");
  EXPECT_NE(r.check("").find("a test's reset, frame 1"), std::string::npos);
  EXPECT_EQ(r.check("the GPU reset this OpenGL context (caused by its own commands)"),
            "the GPU reset this OpenGL context (caused by its own commands)");
  EXPECT_NE(r.check("").find("frame 3"), std::string::npos);
  EXPECT_EQ(r.check(""), "");
}

TEST(GlRecovery, AtMostThreeRecoveriesAMinute) {
  gui::GlRecovery r;
  for (int i = 0; i < gui::GlRecovery::kMaxResets; ++i) EXPECT_TRUE(r.may_recover()) << i;
  EXPECT_FALSE(r.may_recover());
}

TEST(GlRecovery, LiveStopsBeforeTheNewContextAndGoesOnOnlyOnAnotherGpu) {
  controller::AppState s;
  gui::GlRecovery r;
  s.perf.live_wanted = s.perf.live_running = true;
  int pumps = 0;
  // The worker answers on the third exchange that Live stopped.
  EXPECT_TRUE(gui::GlRecovery::stop_live(s, [&] { s.perf.live_running = ++pumps < 3; }));
  EXPECT_EQ(pumps, 3);
  EXPECT_FALSE(s.perf.live_wanted);
  r.recovered(s, "the GPU reset this OpenGL context", "EGL device 1 (NVIDIA H100 80GB HBM3/PCIe/SSE2)", false, true);
  EXPECT_TRUE(s.perf.live_wanted);  // another GPU draws now
  ASSERT_FALSE(s.messages.empty());
  EXPECT_NE(s.messages.back().text.find("Drawing again in a new context on EGL device 1"), std::string::npos);
  EXPECT_EQ(s.messages.back().text.find("Live is paused"), std::string::npos);
  EXPECT_TRUE(gui::GlRecovery::stop_live(s, [&] { s.perf.live_running = false; }));
  r.recovered(s, "the GPU reset this OpenGL context", "EGL default display (NVIDIA H100)", true, true);
  EXPECT_FALSE(s.perf.live_wanted);
  EXPECT_NE(s.messages.back().text.find("Live is paused"), std::string::npos);
  EXPECT_EQ(s.messages.back().level, controller::Message::Warning);
  EXPECT_FALSE(gui::GlRecovery::stop_live(s, [] {}));  // Live was off: nothing to stop or resume
}

TEST(GlRecovery, GivingUpSavesTheSessionWhereItSaysAndTheReportReopens) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "ws_gl_recovery_test";
  std::filesystem::remove_all(dir);
  EnvVar xdg("XDG_DATA_HOME", dir.string());
  controller::AppState s;
  gui::GlRecovery r;
  // An empty session: nothing saved, and the line says so.
  std::string line = r.give_up(s, "the GPU reset this OpenGL context");
  EXPECT_NE(line.find("not saved (nothing to save"), std::string::npos) << line;
  RunRequest req;
  req.variant = "amp.sequential";
  req.n = 1000;
  req.input = "sequence";
  s.add_result(execute(req, nullptr, "test"));
  line = r.give_up(s, "the GPU reset this OpenGL context");
  const std::string marker = "the session is saved to ";
  const std::size_t at = line.find(marker);
  ASSERT_NE(at, std::string::npos) << line;
  const std::string path = line.substr(at + marker.size(), line.find(". ", at) - at - marker.size());
  EXPECT_EQ(path.rfind((dir / "warpscope" / "autosave").string(), 0), 0u) << path;
  const Report back = load_report(path);
  ASSERT_EQ(back.runs.size(), 1u);
  EXPECT_EQ(back.runs[0].variant, "amp.sequential");
  EXPECT_EQ(back.runs[0].result, s.session.runs[0].result);
  EXPECT_NE(line.find("warpscope-cli runs everything"), std::string::npos);
  std::filesystem::remove_all(dir);
}

namespace {
std::vector<ImTextureID> g_destroyed;
int g_next = 1;
ImTextureID fake_create(int, int, const std::uint32_t*) {
  return reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(g_next++));
}
void fake_destroy(ImTextureID id) { g_destroyed.push_back(id); }
}  // namespace

TEST(GlRecovery, ATextureOfALostContextIsInvalidAndNeverDeletedInTheNextOne) {
  g_destroyed.clear();
  ui::set_image_texture_api({fake_create, fake_destroy});
  const std::uint32_t px[4] = {0, 0, 0, 0};
  ui::ImageTexture tex;
  ASSERT_TRUE(tex.set(2, 2, px));
  const ImTextureID first = tex.id();
  // The context is lost; the renderer installs its functions again in the new one.
  ui::set_image_texture_api({});
  ui::set_image_texture_api({fake_create, fake_destroy});
  EXPECT_FALSE(tex.valid());
  EXPECT_EQ(tex.id(), ImTextureID());
  ASSERT_TRUE(tex.set(2, 2, px));    // the view uploads again, as it does for an invalid texture
  EXPECT_TRUE(g_destroyed.empty());  // the old name may already belong to an object of the new context
  EXPECT_NE(tex.id(), first);
  tex.reset();
  ASSERT_EQ(g_destroyed.size(), 1u);
  ui::set_image_texture_api({});
}
