// The slides' own timings (assets/slides/timings.json): loaded, cited, and refused when malformed.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "views/slide_timings.hpp"

namespace ws::ui {
namespace {

const std::string kFile = std::string(WS_GUI_ASSETS) + "/slides/timings.json";

TEST(SlideTimings, TheSlidesTablesAsPrinted) {
  std::vector<SlideTiming> t;
  ASSERT_EQ(load_slide_timings(kFile, t), "");
  EXPECT_EQ(t.size(), 10u + 7u);  // seed 000's GTX 1060 table (reduce4 has none), seed 002's seven implementations
  const SlideTiming* r2 = find_slide_timing(t, "epita.reduce2");
  ASSERT_NE(r2, nullptr);
  EXPECT_EQ(r2->value, 29.45);
  EXPECT_EQ(r2->unit, "ms");
  EXPECT_EQ(r2->device, "GTX 1060");
  EXPECT_EQ(r2->seed, "000_27438c05e47b0926.txt");
  EXPECT_EQ(r2->slide, "Performance summary");
  EXPECT_EQ(slide_timing_text(*r2), "29.45 ms");
  EXPECT_NE(slide_timing_source(*r2).find("not this GPU's"), std::string::npos);
  EXPECT_EQ(find_slide_timing(t, "epita.reduce4"), nullptr);        // the slide's X
  EXPECT_EQ(find_slide_timing(t, "epita.reduce8_fixed"), nullptr);  // the slide timed the buggy one
  const SlideTiming* i7 = find_slide_timing(t, "harris.impl7");
  ASSERT_NE(i7, nullptr);
  EXPECT_EQ(slide_timing_text(*i7), "77.21 GB/s");
  EXPECT_EQ(i7->device, "GTX 280");
  EXPECT_EQ(find_slide_timing(t, "harris.impl1")->value, 3.77);
}

TEST(SlideTimings, MalformedFilesAreOneLine) {
  const auto dir = std::filesystem::temp_directory_path();
  auto write = [&](const std::string& name, const std::string& text) {
    const std::string p = (dir / name).string();
    std::ofstream(p) << text;
    return p;
  };
  std::vector<SlideTiming> t;
  const std::string head =
      R"({"format": "warpscope-slide-timings", "version": 1, "tables": [{"seed": "s", "slide": "x",)"
      R"( "device": "d", "workload": "w", )";
  EXPECT_NE(
      load_slide_timings(write("ws_st_unit.json", head + R"("unit": "s", "rows": []}]})"), t).find("unit must be"),
      std::string::npos);
  EXPECT_NE(
      load_slide_timings(
          write("ws_st_var.json", head + R"("unit": "ms", "rows": [{"variant": "nope.x", "row": "r", "value": 1}]}]})"),
          t)
          .find("unknown variant 'nope.x'"),
      std::string::npos);
  EXPECT_NE(load_slide_timings(
                write("ws_st_val.json",
                      head + R"("unit": "ms", "rows": [{"variant": "epita.reduce0", "row": "r", "value": -1}]}]})"),
                t)
                .find("value"),
            std::string::npos);
  EXPECT_NE(load_slide_timings(write("ws_st_json.json", "{"), t).find("not valid JSON"), std::string::npos);
  EXPECT_NE(load_slide_timings((dir / "ws_st_missing.json").string(), t).find("cannot open"), std::string::npos);
  EXPECT_TRUE(t.empty());
  for (const char* n : {"ws_st_unit.json", "ws_st_var.json", "ws_st_val.json", "ws_st_json.json"})
    std::filesystem::remove(dir / n);
}

}  // namespace
}  // namespace ws::ui
