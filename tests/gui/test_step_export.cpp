// Step export: the GIF writer (giflib) on its own, and `warpscope --export-steps DIR` headless: one PNG
// per step of the trace the view shows and an animated GIF with as many frames.
#include <gtest/gtest.h>

#include <stb_image.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gif_write.hpp"
#include "perf_state.hpp"
#include "registry.hpp"
#include "trace_source.hpp"

namespace ws::gui {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("ws_step_export_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
}

RgbFrame solid(int w, int h, unsigned char r, unsigned char g, unsigned char b) {
  RgbFrame f;
  f.w = w, f.h = h;
  for (int i = 0; i < w * h; ++i) f.rgb.insert(f.rgb.end(), {r, g, b});
  return f;
}

TEST(GifWrite, FramesDecodeWithTheirCount) {
  const fs::path dir = fresh_dir("gif");
  fs::create_directories(dir);
  const std::string path = (dir / "x.gif").string();
  // Frames of different sizes (the canvas is the largest) and a many-coloured one (quantized to 256).
  RgbFrame ramp;
  ramp.w = 64, ramp.h = 48;
  for (int i = 0; i < ramp.w * ramp.h; ++i)
    ramp.rgb.insert(ramp.rgb.end(), {(unsigned char)(i % 251), (unsigned char)(i % 241), (unsigned char)(i % 239)});
  ASSERT_EQ(write_gif_atomic(path, {solid(40, 30, 255, 0, 0), solid(20, 10, 0, 255, 0), ramp}, 50), "");
  std::string err;
  EXPECT_EQ(gif_frame_count(path, err), 3) << err;
  EXPECT_NE(write_gif_atomic(path, {}, 50), "");  // no frames
  RgbFrame bad = solid(4, 4, 1, 2, 3);
  bad.rgb.pop_back();
  EXPECT_NE(write_gif_atomic(path, {bad}, 50).find("not a GIF frame"), std::string::npos);
  EXPECT_EQ(gif_frame_count(path, err), 3);  // a refused write leaves the old file whole
  EXPECT_EQ(gif_frame_count((dir / "missing.gif").string(), err), -1);
  EXPECT_NE(err, "");
  fs::remove_all(dir);
}

TEST(StepExport, OnePngPerStepAndAGifOfThemAll) {
  // reduce3 on a 16-thread block: the model's steps (load, strides 8 4 2 1, the block's atomicAdd).
  const VariantInfo* v = find_variant("epita.reduce3");
  ASSERT_NE(v, nullptr);
  controller::TraceKey key;
  key.variant = v->id;
  key.n = 16;
  key.block = 16;
  key.input = "sequence";
  std::string why;
  const auto trace = controller::compute_trace(*v, key, why);
  ASSERT_TRUE(trace) << why;
  const int steps = int(trace->steps.size());
  EXPECT_EQ(steps, 6);

  const fs::path dir = fresh_dir("run");
  const std::string cmd = std::string("\"") + WS_GUI_PATH + "\" --export-steps \"" + dir.string() +
                          "\" --view tree --variant epita.reduce3 --block 16 --n 16 --input sequence --width 1024 "
                          "--height 700 2>/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  int pngs = 0;
  for (const auto& e : fs::directory_iterator(dir)) pngs += e.path().extension() == ".png";
  EXPECT_EQ(pngs, steps);
  EXPECT_TRUE(fs::exists(dir / "step_000.png"));
  EXPECT_TRUE(fs::exists(dir / ("step_00" + std::to_string(steps - 1) + ".png")));
  std::string err;
  EXPECT_EQ(gif_frame_count((dir / "steps.gif").string(), err), steps) << err;
  fs::remove_all(dir);
  // A file where the folder should be: exit 2 before rendering.
  const fs::path file = fresh_dir("file");
  fs::create_directories(file.parent_path());
  {
    std::FILE* f = std::fopen(file.string().c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
  }
  const std::string bad = std::string("\"") + WS_GUI_PATH + "\" --export-steps \"" + file.string() + "\" 2>/dev/null";
  const int rc = std::system(bad.c_str());
  EXPECT_EQ(WEXITSTATUS(rc), 2);
  fs::remove(file);
}

/// The pixels of a PNG (RGB, top row first); empty when it does not decode.
struct Png {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
  /// Distinct colours in rows [y0, y1).
  std::size_t colours_in_rows(int y0, int y1) const {
    std::vector<unsigned> seen;
    for (int y = y0; y < y1 && y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const unsigned char* p = &rgb[(std::size_t(y) * w + x) * 3];
        const unsigned c = unsigned(p[0]) << 16 | unsigned(p[1]) << 8 | p[2];
        if (std::find(seen.begin(), seen.end(), c) == seen.end()) seen.push_back(c);
      }
    return seen.size();
  }
};

Png read_png(const fs::path& path) {
  Png p;
  int channels = 0;
  if (unsigned char* px = stbi_load(path.string().c_str(), &p.w, &p.h, &channels, 3)) {
    p.rgb.assign(px, px + std::size_t(p.w) * p.h * 3);
    stbi_image_free(px);
  }
  return p;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Runs warpscope with `args` (stderr to `err_file`); returns the exit status.
int run_gui(const std::string& args, const fs::path& err_file) {
  const std::string cmd = std::string("\"") + WS_GUI_PATH + "\" " + args + " 2>\"" + err_file.string() + "\"";
  return WEXITSTATUS(std::system(cmd.c_str()));
}

TEST(HandoutExport, StepsAreTheViewAloneAtTheSizeAskedAndTheGifPlaysAtGifFps) {
  const fs::path dir = fresh_dir("handout");
  fs::create_directories(dir);
  const fs::path steps = dir / "steps", err = dir / "err.txt";
  // The command: 1200 x 700 must be 1200 x 700 (the centre panel gave 1184 x 658, with the tab bar,
  // the step player and the values switch in it). The screenshot of the same run is the whole window.
  ASSERT_EQ(run_gui("--export-steps \"" + steps.string() + "\" --screenshot \"" + (dir / "window.png").string() +
                        "\" --view tree --variant epita.reduce2 --block 16 --n 16 --focus --width 1200 --height 700 "
                        "--gif-fps 5",
                    err),
            0)
      << slurp(err);
  for (int k = 0; k < 5; ++k) {
    const Png step = read_png(steps / ("step_00" + std::to_string(k) + ".png"));
    ASSERT_EQ(step.w, 1200) << k;
    ASSERT_EQ(step.h, 700) << k;
    // No tab bar, step player or switches: above the leaves the top 40 rows are the background alone
    // (at step 0 the lit row is the leaves', which starts at the top).
    if (k > 0) EXPECT_EQ(step.colours_in_rows(0, 40), 1u) << "step " << k;
    EXPECT_GT(step.colours_in_rows(40, 700), 20u) << "step " << k;  // the tree itself
  }
  const Png window = read_png(dir / "window.png");
  ASSERT_EQ(window.w, 1200);
  EXPECT_GT(window.colours_in_rows(0, 40), 20u);  // the window's own picture keeps its tab bar and controls
  // steps.gif: the frame delay is 100 / 5 = 20 centiseconds (the Graphic Control Extension's bytes 4-5).
  const std::string gif = slurp(steps / "steps.gif");
  const std::size_t gce = gif.find("\x21\xF9\x04");
  ASSERT_NE(gce, std::string::npos);
  EXPECT_EQ((unsigned char)gif[gce + 4] | (unsigned char)gif[gce + 5] << 8, 20);
  fs::remove_all(dir);
}

TEST(HandoutExport, AViewWithoutStepsIsRefusedAndSvgIsWrittenOnlyForCharts) {
  const fs::path dir = fresh_dir("handout_refusals");
  fs::create_directories(dir);
  const fs::path err = dir / "err.txt";
  // Results has no steps: one line naming the views that have them, exit 2, no folder made.
  EXPECT_EQ(run_gui("--export-steps \"" + (dir / "d").string() + "\" --view results", err), 2);
  EXPECT_NE(slurp(err).find("the results view has no steps (views with steps: tree, warps"), std::string::npos)
      << slurp(err);
  EXPECT_FALSE(fs::exists(dir / "d"));
  // The Plots chart of a report's runs as SVG at the size asked: bars (rect with a title) and the peak line.
  const std::string report = std::string(WS_GUI_TEST_DIR) + "/fixtures/report_h200.json";
  ASSERT_EQ(run_gui("--export-view \"" + (dir / "plots.svg").string() + "\" --view plots --lesson harris --report \"" +
                        report + "\" --width 1200 --height 700",
                    err),
            0)
      << slurp(err);
  const std::string svg = slurp(dir / "plots.svg");
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1200\" height=\"700\"", 0), 0u);
  EXPECT_NE(svg.find("</title></rect>"), std::string::npos);
  EXPECT_NE(svg.find("theoretical peak"), std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  // The tree is a picture of cells and text, not a chart: refused with the views that have SVG, exit 1.
  EXPECT_EQ(run_gui("--export-view \"" + (dir / "tree.svg").string() + "\" --view tree", err), 1);
  EXPECT_NE(slurp(err).find("the tree view has no chart to write as SVG"), std::string::npos) << slurp(err);
  fs::remove_all(dir);
}

TEST(GuiOutputs, AnExistingPictureIsKeptUnlessForce) {
  const fs::path dir = fresh_dir("force");
  fs::create_directories(dir / "steps");
  const fs::path err = dir / "err.txt", shot = dir / "shot.png", view = dir / "view.png", link = dir / "link.png";
  for (const fs::path& f : {shot, view, dir / "steps" / "step_000.png", dir / "target.png"}) std::ofstream(f) << "old";
  fs::create_symlink(dir / "target.png", link);
  const std::string small = " --width 320 --height 240";
  // Each refused with one line naming --force, exit 2, the old file whole.
  EXPECT_EQ(run_gui("--screenshot \"" + shot.string() + "\"" + small, err), 2);
  EXPECT_NE(slurp(err).find("--screenshot '" + shot.string() + "' exists: it is kept (give --force"), std::string::npos)
      << slurp(err);
  EXPECT_EQ(run_gui("--export-view \"" + view.string() + "\" --view tree" + small, err), 2);
  EXPECT_NE(slurp(err).find("--export-view '" + view.string() + "' exists"), std::string::npos) << slurp(err);
  EXPECT_EQ(run_gui("--export-steps \"" + (dir / "steps").string() +
                        "\" --view tree --variant epita.reduce2 --block 16 --n 16" + small,
                    err),
            2);
  EXPECT_NE(slurp(err).find("already holds step_000.png: it is kept (give --force"), std::string::npos) << slurp(err);
  EXPECT_EQ(run_gui("--screenshot \"" + link.string() + "\"" + small, err), 2);
  const std::string link_err = slurp(err);
  EXPECT_NE(link_err.find("is a symbolic link: it is not followed"), std::string::npos) << link_err;
  EXPECT_EQ(std::count(link_err.begin(), link_err.end(), '\n'), 1) << link_err;  // one line
  for (const fs::path& f : {shot, view, dir / "steps" / "step_000.png", dir / "target.png"})
    EXPECT_EQ(slurp(f), "old") << f;
  // With --force: replaced (the link itself, not its target).
  ASSERT_EQ(run_gui("--force --screenshot \"" + shot.string() + "\"" + small, err), 0) << slurp(err);
  EXPECT_EQ(read_png(shot).w, 320);
  ASSERT_EQ(run_gui("-f --export-view \"" + view.string() + "\" --view tree" + small, err), 0) << slurp(err);
  EXPECT_EQ(read_png(view).h, 240);
  ASSERT_EQ(run_gui("--force --export-steps \"" + (dir / "steps").string() +
                        "\" --view tree --variant epita.reduce2 --block 16 --n 16" + small,
                    err),
            0)
      << slurp(err);
  EXPECT_EQ(read_png(dir / "steps" / "step_000.png").w, 320);
  ASSERT_EQ(run_gui("--force --screenshot \"" + link.string() + "\"" + small, err), 0) << slurp(err);
  EXPECT_FALSE(fs::is_symlink(link));
  EXPECT_EQ(slurp(dir / "target.png"), "old");
  fs::remove_all(dir);
}

TEST(GuiOutputs, TheExportButtonsTakeANewNameUnlessForce) {
  const fs::path dir = fresh_dir("buttons");
  fs::create_directories(dir);
  controller::PerfState p;
  p.export_dir = dir.string();
  EXPECT_EQ(controller::export_path(p, "warpscope-compare.png"), (dir / "warpscope-compare.png").string());
  std::ofstream(dir / "warpscope-compare.png") << "old";
  EXPECT_EQ(controller::export_path(p, "warpscope-compare.png"), (dir / "warpscope-compare-2.png").string());
  EXPECT_FALSE(controller::export_policy(p).overwrite);
  p.export_force = true;  // --force: the name itself, replaced
  EXPECT_EQ(controller::export_path(p, "warpscope-compare.png"), (dir / "warpscope-compare.png").string());
  EXPECT_TRUE(controller::export_policy(p).overwrite);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ws::gui
