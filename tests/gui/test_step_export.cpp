// Step export: the GIF writer (giflib) on its own, and `warpscope --export-steps DIR` headless: one PNG
// per step of the trace the view shows and an animated GIF with as many frames.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gif_write.hpp"
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
  ui::TraceKey key;
  key.variant = v->id;
  key.n = 16;
  key.block = 16;
  key.input = "sequence";
  std::string why;
  const auto trace = ui::compute_trace(*v, key, why);
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

}  // namespace
}  // namespace ws::gui
