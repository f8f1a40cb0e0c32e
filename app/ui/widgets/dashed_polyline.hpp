// Dashed polylines as the plots draw them: each "on" piece of the pattern a quad, and a line that stays
// unchanged written again from the quads kept.
#pragma once
#include <imgui.h>

#include <vector>

namespace ws::ui {

/// A dash pattern: `count` (2 or 4) lengths in pixels, alternately on and off, starting with on.
struct DashPattern {
  float len[4] = {};
  int count = 2;
};

/// Draws the polyline `pts` (screen pixels) in `pattern`, the pattern carried across its vertices and
/// shifted by `phase` (0..1 of its period, so that parallel lines do not line up their gaps). Each on
/// piece is a quad `thickness` pixels wide as ImDrawList::AddLine makes it (not anti-aliased, both ends
/// moved by half a pixel), in `col`. A line drawn with the same points, style and clip rect in three frames
/// running has its quads kept, and is written from them while it stays so (a static report's Live plot,
/// 40 dashed series of 250 points, has 24,000 pieces a frame); a line that changes every frame (Live while
/// it runs) is drawn as it comes and nothing is kept. $WS_NO_DASH_CACHE set: nothing is ever kept (a
/// switch to measure). Fewer than 2 points, or a pattern with a length <= 0: nothing.
void DashedPolyline(ImDrawList* dl, const std::vector<ImVec2>& pts, ImU32 col, float thickness,
                    const DashPattern& pattern, float phase);

/// The lines noted (drawn in this frame or the one before), and how many calls since the program started
/// wrote a line from its kept quads (hits) or made its quads (misses). For tests.
struct DashedPolylineCacheStats {
  int kept = 0;  ///< lines noted
  long hits = 0, misses = 0;
};
DashedPolylineCacheStats dashed_polyline_cache_stats();

}  // namespace ws::ui
