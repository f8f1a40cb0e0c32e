// Dashed polylines (widgets/dashed_polyline.hpp): the pattern's pieces where the pattern puts them, carried
// across vertices, a far-off point cut to the clip rect, and a line drawn again in the next frame written
// from the kept quads with the very same vertices.
#include <gtest/gtest.h>
#include <imgui.h>

#include <vector>

#include "headless_imgui.hpp"
#include "widgets/dashed_polyline.hpp"

namespace ws::ui {
namespace {

/// A headless ImGui context with one frame open (headless_imgui.hpp); gone with the object.
struct Frames {
  Frames() {
    test::start_headless_imgui(800, 600);
    ImGui::NewFrame();
  }
  ~Frames() {
    ImGui::EndFrame();
    ImGui::DestroyContext();
  }
  void next() {  // ends this frame and opens the next
    ImGui::EndFrame();
    ImGui::NewFrame();
  }
};

/// The vertices `draw` adds to the foreground draw list, and their indices less the first vertex's.
struct Drawn {
  std::vector<ImVec2> pos;
  std::vector<unsigned> idx;
};
template <class F>
Drawn drawn(F draw) {
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const int v0 = dl->VtxBuffer.Size, i0 = dl->IdxBuffer.Size;
  const unsigned base = dl->_VtxCurrentIdx;
  draw(dl);
  Drawn d;
  for (int i = v0; i < dl->VtxBuffer.Size; ++i) d.pos.push_back(dl->VtxBuffer[i].pos);
  for (int i = i0; i < dl->IdxBuffer.Size; ++i) d.idx.push_back(dl->IdxBuffer[i] - base);
  return d;
}

const DashPattern kTenFive{{10, 5}, 2};

TEST(DashedPolyline, PiecesFollowThePatternAcrossVertices) {
  Frames frames;
  // 100 px in 10 on, 5 off: on at 0, 15, 30, ..., 90: 7 quads, AddLine's (ends moved by half a pixel).
  const Drawn one = drawn([](ImDrawList* dl) {
    DashedPolyline(dl, {ImVec2(0, 10), ImVec2(100, 10)}, 0xffffffff, 2, kTenFive, 0);
  });
  ASSERT_EQ(one.pos.size(), 28u);
  ASSERT_EQ(one.idx.size(), 42u);
  for (int q = 0; q < 7; ++q) {
    EXPECT_FLOAT_EQ(one.pos[4 * q].x, 15.f * q + 0.5f) << q;
    EXPECT_FLOAT_EQ(one.pos[4 * q + 1].x, 15.f * q + 10.5f) << q;
    EXPECT_FLOAT_EQ(one.pos[4 * q].y, 10.5f - 1.f) << q;  // half the thickness either side
    EXPECT_FLOAT_EQ(one.pos[4 * q + 3].y, 10.5f + 1.f) << q;
  }
  EXPECT_EQ(one.idx[6], 4u);
  EXPECT_EQ(one.idx[11], 7u);
  // The same length over two segments: the pattern goes on at the vertex (on 0-10, off 10-15 across x = 12,
  // on 15-24), so the pieces' ends are those of one straight segment.
  const Drawn two = drawn([](ImDrawList* dl) {
    DashedPolyline(dl, {ImVec2(0, 10), ImVec2(12, 10), ImVec2(24, 10)}, 0xffffffff, 2, kTenFive, 0);
  });
  ASSERT_EQ(two.pos.size(), 8u);
  EXPECT_FLOAT_EQ(two.pos[4].x, 15.5f);
  EXPECT_FLOAT_EQ(two.pos[5].x, 24.5f);
  // A phase of a third of the period (5 px) starts 5 px into the first on piece.
  const Drawn shifted = drawn([](ImDrawList* dl) {
    DashedPolyline(dl, {ImVec2(0, 10), ImVec2(30, 10)}, 0xffffffff, 2, kTenFive, 1.f / 3);
  });
  ASSERT_EQ(shifted.pos.size(), 12u);
  EXPECT_FLOAT_EQ(shifted.pos[1].x, 5.5f);
  EXPECT_FLOAT_EQ(shifted.pos[4].x, 10.5f);
  // Nothing for fewer than two points or a pattern with a zero length.
  EXPECT_TRUE(
      drawn([](ImDrawList* dl) { DashedPolyline(dl, {ImVec2(0, 0)}, 0xffffffff, 2, kTenFive, 0); }).pos.empty());
  EXPECT_TRUE(drawn([](ImDrawList* dl) {
                DashedPolyline(dl, {ImVec2(0, 0), ImVec2(50, 0)}, 0xffffffff, 2, DashPattern{{10, 0}, 2}, 0);
              }).pos.empty());
}

TEST(DashedPolyline, AFarOffPointIsCutToTheClipRect) {
  Frames frames;
  // A point mapped 10^9 px below an 800x600 frame: the pieces that can show, not 10^8 of them.
  const Drawn far = drawn([](ImDrawList* dl) {
    DashedPolyline(dl, {ImVec2(100, 100), ImVec2(100, 1e9f)}, 0xffffffff, 2, kTenFive, 0);
  });
  EXPECT_GT(far.pos.size(), 4u * 30);
  EXPECT_LT(far.pos.size(), 4u * 60);
  for (const ImVec2& p : far.pos) EXPECT_LT(p.y, 700.f);
  // The pattern within the rect is where the uncut line has it: the first pieces are the same.
  const Drawn near = drawn([](ImDrawList* dl) {
    DashedPolyline(dl, {ImVec2(100, 100), ImVec2(100, 500)}, 0xffffffff, 2, kTenFive, 0);
  });
  ASSERT_GE(near.pos.size(), 8u);
  for (int i = 0; i < 8; ++i) EXPECT_FLOAT_EQ(far.pos[i].y, near.pos[i].y) << i;
}

TEST(DashedPolyline, ALineDrawnAgainInTheNextFrameIsWrittenFromItsKeptQuads) {
  Frames frames;
  std::vector<ImVec2> pts;
  for (int i = 0; i < 250; ++i) pts.push_back(ImVec2(10 + 3.f * i, 300 + 40 * float((i * 37) % 11) / 11));
  const DashPattern dash{{12, 7.5f}, 2}, dash_dot{{12, 4.5f, 3.6f, 4.5f}, 4};
  auto draw = [&](ImDrawList* dl) {
    DashedPolyline(dl, pts, 0xff00ffff, 2, dash, 0.3f);
    DashedPolyline(dl, pts, 0xff00ff00, 2, dash_dot, 0.7f);
  };
  const DashedPolylineCacheStats s0 = dashed_polyline_cache_stats();
  const Drawn first = drawn(draw);
  frames.next();
  const Drawn again = drawn(draw);  // unchanged for two frames: made once more
  frames.next();
  drawn(draw);  // and a third: made once more, and kept
  const DashedPolylineCacheStats s1 = dashed_polyline_cache_stats();
  EXPECT_EQ(s1.misses, s0.misses + 6);
  EXPECT_EQ(s1.hits, s0.hits);
  frames.next();
  const Drawn second = drawn(draw);
  const DashedPolylineCacheStats s2 = dashed_polyline_cache_stats();
  EXPECT_EQ(s2.hits, s1.hits + 2);
  EXPECT_EQ(s2.misses, s1.misses);
  EXPECT_EQ(again.idx, first.idx);
  ASSERT_GT(first.pos.size(), 400u);
  ASSERT_EQ(second.pos.size(), first.pos.size());
  for (std::size_t i = 0; i < first.pos.size(); ++i) {
    ASSERT_EQ(second.pos[i].x, first.pos[i].x) << i;
    ASSERT_EQ(second.pos[i].y, first.pos[i].y) << i;
  }
  EXPECT_EQ(second.idx, first.idx);
  // One point moved every second frame (Live while it runs): made every time, never kept. Then unchanged:
  // kept in its third frame running. A line not drawn for a frame is dropped.
  auto dashed_once = [&](ImDrawList* dl) { DashedPolyline(dl, pts, 0xff00ffff, 2, dash, 0.3f); };
  for (int f = 0; f < 6; ++f) {
    if (f % 2 == 0) pts[100].y += 1;
    frames.next();
    drawn(dashed_once);
  }
  EXPECT_EQ(dashed_polyline_cache_stats().misses, s2.misses + 6);
  EXPECT_EQ(dashed_polyline_cache_stats().hits, s2.hits);
  for (int f = 0; f < 3; ++f) {  // its third unchanged frame (the last above was its second) keeps it
    frames.next();
    drawn(dashed_once);
  }
  EXPECT_EQ(dashed_polyline_cache_stats().misses, s2.misses + 7);
  EXPECT_EQ(dashed_polyline_cache_stats().hits, s2.hits + 2);
  frames.next();
  frames.next();
  drawn(dashed_once);
  EXPECT_EQ(dashed_polyline_cache_stats().misses, s2.misses + 8);
  EXPECT_EQ(dashed_polyline_cache_stats().kept, 1);
}

}  // namespace
}  // namespace ws::ui
