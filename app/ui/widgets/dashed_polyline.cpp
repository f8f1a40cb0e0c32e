#include "widgets/dashed_polyline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "widgets/plot_style.hpp"

namespace ws::ui {

namespace {

/// Everything a line's quads follow from: two calls with equal keys write equal vertices.
struct Key {
  std::vector<ImVec2> pts;
  ImU32 col = 0;
  float thickness = 0, phase = 0;
  DashPattern pattern;
  ImVec2 uv;    ///< the font atlas's white pixel (it moves when the atlas is built again)
  ImVec4 clip;  ///< the draw list's clip rect (long segments are cut to it)
};

bool same_key(const Key& k, const std::vector<ImVec2>& pts, ImU32 col, float thickness, const DashPattern& pattern,
              float phase, ImVec2 uv, ImVec4 clip) {
  return k.col == col && k.thickness == thickness && k.phase == phase && k.uv.x == uv.x && k.uv.y == uv.y &&
         k.clip.x == clip.x && k.clip.y == clip.y && k.clip.z == clip.z && k.clip.w == clip.w &&
         k.pattern.count == pattern.count && std::memcmp(k.pattern.len, pattern.len, sizeof(pattern.len)) == 0 &&
         k.pts.size() == pts.size() && std::memcmp(k.pts.data(), pts.data(), pts.size() * sizeof(ImVec2)) == 0;
}

/// FNV-1a over the style's bytes, the point count and at most 64 of the points spread over the line: only a
/// bucket (same_key compares every point), cheap for the lines that change every frame.
std::uint64_t hash_of(const std::vector<ImVec2>& pts, ImU32 col, float thickness, float phase) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i + 4 <= n; i += 4) {
      std::uint32_t w;
      std::memcpy(&w, b + i, 4);
      h = (h ^ w) * 1099511628211ull;
    }
  };
  const std::size_t count = pts.size(), stride = count / 64 + 1;
  mix(&count, sizeof count);
  for (std::size_t i = 0; i < count; i += stride) mix(&pts[i], sizeof(ImVec2));
  mix(&pts.back(), sizeof(ImVec2));
  mix(&col, sizeof col);
  mix(&thickness, sizeof thickness);
  mix(&phase, sizeof phase);
  return h;
}

struct Entry {
  Key key;
  ImVector<ImDrawVert> verts;  ///< 4 per on piece, in AddLine's order, once kept
  bool kept = false;           ///< drawn unchanged in kFramesBeforeKeeping frames running: quads in `verts`
  int unchanged = 0;           ///< frames running it was drawn again unchanged
  int frame = 0;               ///< the last frame that drew it
};

struct Cache {
  std::unordered_multimap<std::uint64_t, Entry> lines;
  int swept = -1;  ///< the frame whose first call dropped the lines older than the frame before
  long hits = 0, misses = 0;
};

Cache& cache() {
  static Cache c;
  return c;
}

/// A line's quads are kept once it was drawn unchanged in this many frames running.
constexpr int kFramesBeforeKeeping = 3;

/// At most this many lines are kept (a view drawing ever new lines draws the rest without keeping them).
constexpr std::size_t kMaxKept = 4096;

/// At a frame's first call: the lines not drawn in the frame before go.
void sweep(Cache& c, int frame) {
  if (frame == c.swept) return;
  c.swept = frame;
  for (auto it = c.lines.begin(); it != c.lines.end();)
    it = it->second.frame < frame - 1 ? c.lines.erase(it) : std::next(it);
}

/// One on piece a..b as AddLine makes it, written at `v` (4 vertices): both ends moved by half a pixel,
/// the corners `offset` (the segment's direction turned a quarter, half the thickness long) either side.
inline void put_quad(ImDrawVert* v, ImVec2 a, ImVec2 b, ImVec2 offset, ImU32 col, ImVec2 uv) {
  a.x += 0.5f, a.y += 0.5f, b.x += 0.5f, b.y += 0.5f;
  v[0] = ImDrawVert{ImVec2(a.x + offset.x, a.y + offset.y), uv, col};
  v[1] = ImDrawVert{ImVec2(b.x + offset.x, b.y + offset.y), uv, col};
  v[2] = ImDrawVert{ImVec2(b.x - offset.x, b.y - offset.y), uv, col};
  v[3] = ImDrawVert{ImVec2(a.x - offset.x, a.y - offset.y), uv, col};
}

/// Draws the quads of `pts` in `pattern` straight into the draw list (4 vertices and 6 indices each), in
/// one reservation for the line, or one per segment when the line would take more than 4096 quads (a
/// quarter of a 16-bit index block: PrimReserve starts a new block where the indices of one would run
/// out); what a reservation did not use is given back, so the line's vertices end the vertex buffer. A
/// segment far longer than the clip rect (a point mapped far off the plot) is cut to the rect first, the
/// pattern moved on by the part cut away: its pieces would otherwise number in the millions.
void draw_quads(ImDrawList* dl, const std::vector<ImVec2>& pts, ImU32 col, float thickness, const DashPattern& pattern,
                float phase, ImVec2 uv, ImVec2 clip_lo, ImVec2 clip_hi) {
  const float* pat = pattern.len;
  const int n = pattern.count;
  int k = 0;
  float left = pat[0];  // of the current on/off piece
  float period = 0, shortest = pat[0];
  for (int i = 0; i < n; ++i) period += pat[i], shortest = std::min(shortest, pat[i]);
  auto advance = [&](float skip) {  // the pattern moved on by `skip` pixels
    if (!(skip > 0)) return;        // (most calls: fmod is dear)
    for (skip = std::fmod(skip, period); skip > 0;) {
      const float step = std::min(skip, left);
      skip -= step, left -= step;
      if (left <= 0) k = (k + 1) % n, left = pat[k];
    }
  };
  advance(std::fmod(std::max(0.f, phase), 1.f) * period);
  const float half = thickness * 0.5f, margin = thickness + period;
  const ImVec2 lo(clip_lo.x - margin, clip_lo.y - margin), hi(clip_hi.x + margin, clip_hi.y + margin);
  const float far = 4 * (std::fabs(hi.x - lo.x) + std::fabs(hi.y - lo.y));
  // A length of len holds at most len / (2 shortest) + 2 on pieces (each piece of the pattern is at least
  // `shortest` long, every other one is on, and the segment may start and end inside one); one more for
  // rounding. A segment cut to the rect is at most `far` long.
  auto most_in = [&](float len) { return int(std::min(len, far) / (2 * shortest)) + 3; };
  thread_local std::vector<float> lens;
  lens.resize(pts.size() - 1);
  int bound = 0;
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    const float dx = pts[i + 1].x - pts[i].x, dy = pts[i + 1].y - pts[i].y;
    lens[i] = std::sqrt(dx * dx + dy * dy);
    if (lens[i] > 0 && std::isfinite(lens[i])) bound += most_in(lens[i]);
  }
  const bool whole = bound <= 4096;
  int room = 0;  // quads reserved and not yet written
  ImDrawVert* v = nullptr;
  ImDrawIdx* ix = nullptr;
  unsigned next = 0;  // the next vertex's index
  auto reserve = [&](int quads) {
    dl->PrimReserve(6 * quads, 4 * quads);
    room = quads, v = dl->_VtxWritePtr, ix = dl->_IdxWritePtr, next = dl->_VtxCurrentIdx;
  };
  auto give_back = [&] {  // the write pointers where the writing stopped, the rest returned
    dl->_VtxWritePtr = v, dl->_IdxWritePtr = ix, dl->_VtxCurrentIdx = next;
    dl->PrimUnreserve(6 * room, 4 * room);
    room = 0;
  };
  if (whole) reserve(bound);
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    float len = lens[i];
    if (!(len > 0) || !std::isfinite(len)) continue;
    ImVec2 a = pts[i];
    const ImVec2 d((pts[i + 1].x - a.x) / len, (pts[i + 1].y - a.y) / len), offset(d.y * half, -d.x * half);
    float after = 0;  // the part past the rect: moves the pattern on once the part inside is drawn
    if (len > far) {
      double u0 = 0, u1 = 0;  // where it enters and leaves the rect, 0..1 of it
      if (!clip_segment(a, pts[i + 1], lo, hi, u0, u1)) {
        advance(len);
        continue;
      }
      const float t0 = float(u0 * len), t1 = float(u1 * len);
      advance(t0);
      a = ImVec2(a.x + d.x * t0, a.y + d.y * t0);
      after = len - t1;
      len = t1 - t0;
    }
    if (!whole) reserve(most_in(len));
    while (len > 0) {
      const float step = std::min(left, len);
      const ImVec2 e(a.x + d.x * step, a.y + d.y * step);
      if ((k & 1) == 0 && room > 0) {
        put_quad(v, a, e, offset, col, uv);
        const auto b = ImDrawIdx(next);
        ix[0] = b, ix[1] = ImDrawIdx(b + 1), ix[2] = ImDrawIdx(b + 2);
        ix[3] = b, ix[4] = ImDrawIdx(b + 2), ix[5] = ImDrawIdx(b + 3);
        v += 4, ix += 6, next += 4, --room;
      }
      a = e, len -= step, left -= step;
      if (left <= 0) k = (k + 1) % n, left = pat[k];
    }
    if (!whole) give_back();
    advance(after);
  }
  if (whole) give_back();
}

/// Writes kept quads (4 vertices each) into the draw list, two triangles a quad, in reservations of at
/// most 4096 quads (as draw_quads).
void put_quads(ImDrawList* dl, const ImVector<ImDrawVert>& v) {
  constexpr int kChunk = 4096;
  const int quads = v.Size / 4;
  for (int first = 0; first < quads; first += kChunk) {
    const int c = std::min(kChunk, quads - first);
    dl->PrimReserve(6 * c, 4 * c);
    std::memcpy(dl->_VtxWritePtr, v.Data + 4 * std::size_t(first), sizeof(ImDrawVert) * 4 * std::size_t(c));
    ImDrawIdx* ix = dl->_IdxWritePtr;
    const unsigned base = dl->_VtxCurrentIdx;
    for (int q = 0; q < c; ++q, ix += 6) {
      const auto b = ImDrawIdx(base + 4 * unsigned(q));
      ix[0] = b, ix[1] = ImDrawIdx(b + 1), ix[2] = ImDrawIdx(b + 2);
      ix[3] = b, ix[4] = ImDrawIdx(b + 2), ix[5] = ImDrawIdx(b + 3);
    }
    dl->_VtxWritePtr += 4 * c;
    dl->_IdxWritePtr += 6 * c;
    dl->_VtxCurrentIdx += 4 * unsigned(c);
  }
}

}  // namespace

void DashedPolyline(ImDrawList* dl, const std::vector<ImVec2>& pts, ImU32 col, float thickness,
                    const DashPattern& pattern, float phase) {
  if (pts.size() < 2 || pattern.count < 2 || pattern.count > 4) return;
  for (int i = 0; i < pattern.count; ++i)
    if (!(pattern.len[i] > 0)) return;
  Cache& c = cache();
  const int frame = ImGui::GetFrameCount();
  sweep(c, frame);
  const ImVec2 uv = ImGui::GetFontTexUvWhitePixel();
  const ImVec2 clip_lo = dl->GetClipRectMin(), clip_hi = dl->GetClipRectMax();
  const ImVec4 clip(clip_lo.x, clip_lo.y, clip_hi.x, clip_hi.y);
  const std::uint64_t h = hash_of(pts, col, thickness, phase);
  const auto [lo, hi] = c.lines.equal_range(h);
  for (auto it = lo; it != hi; ++it) {
    Entry& e = it->second;
    if (!same_key(e.key, pts, col, thickness, pattern, phase, uv, clip)) continue;
    e.frame = frame;
    if (e.kept) {
      ++c.hits;
      put_quads(dl, e.verts);
      return;
    }
    // Unchanged since the frame before: drawn; its quads kept for the next frames from the third frame
    // running on (Live while it runs brings new points about every second frame: keeping them then would
    // only cost a copy).
    ++c.misses;
    const int v0 = dl->VtxBuffer.Size;
    draw_quads(dl, pts, col, thickness, pattern, phase, uv, clip_lo, clip_hi);
    if (++e.unchanged < kFramesBeforeKeeping - 1) return;
    e.verts.resize(dl->VtxBuffer.Size - v0);
    if (e.verts.Size > 0) std::memcpy(e.verts.Data, dl->VtxBuffer.Data + v0, sizeof(ImDrawVert) * e.verts.Size);
    e.kept = true;
    return;
  }
  // New: drawn, and its key noted (a line that changes every frame, as Live's while it runs, never pays
  // for the keeping).
  ++c.misses;
  draw_quads(dl, pts, col, thickness, pattern, phase, uv, clip_lo, clip_hi);
  static const bool off = std::getenv("WS_NO_DASH_CACHE") != nullptr;  // a switch to measure without it
  if (off || c.lines.size() >= kMaxKept) return;
  // Made in place: ImVector has no move, and 1.86's copy of an empty one passes memcpy a null pointer.
  Entry& e = c.lines.emplace(std::piecewise_construct, std::forward_as_tuple(h), std::forward_as_tuple())->second;
  e.key = Key{pts, col, thickness, phase, pattern, uv, clip};
  e.frame = frame;
}

DashedPolylineCacheStats dashed_polyline_cache_stats() {
  const Cache& c = cache();
  return {int(c.lines.size()), c.hits, c.misses};
}

}  // namespace ws::ui
