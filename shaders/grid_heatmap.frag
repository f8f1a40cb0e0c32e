#version 330 core
// The Grid view's heat map: x = step, y = warp of the launch (block-major). One data texel per
// (warp, step) holds the metric's value (255 = no such step); a pixel that covers many warps shows
// their mean (active lanes) or their worst (bank-conflict ways, sectors per request).
in vec2 v_uv;
out vec4 frag_color;

uniform usampler2D u_data;  // R8UI, texel i = warp * u_stride + step, rows of u_tex_width texels
uniform int u_tex_width;
uniform int u_stride;       // steps stored per warp
uniform int u_warps;        // warps in the launch
uniform int u_steps;        // steps with data
uniform vec2 u_warp_range;  // warps shown, top to bottom
uniform vec2 u_step_range;  // steps shown, left to right
uniform vec2 u_pixels;      // the image's size in pixels
uniform int u_metric;       // 0 = active lanes (linear, mean), else ways or sectors (log2, worst)
uniform vec2 u_range;       // the values the colour map spans (grid_metric_range)
uniform vec3 u_stops[5];    // the colour map, low to high
uniform vec3 u_background;

const uint kNoStep = 255u;

uint cell(int warp, int step) {
  int i = warp * u_stride + step;
  return texelFetch(u_data, ivec2(i % u_tex_width, i / u_tex_width), 0).r;
}

vec3 ramp(float t) {
  float x = clamp(t, 0.0, 1.0) * 4.0;
  int i = min(int(x), 3);
  return mix(u_stops[i], u_stops[i + 1], x - float(i));
}

void main() {
  float stepf = mix(u_step_range.x, u_step_range.y, v_uv.x);
  int step = int(floor(stepf));
  if (step < 0 || step >= u_steps) { frag_color = vec4(u_background, 1.0); return; }
  // A one-pixel gap between steps and between warps once they are wide enough to read one by one.
  float step_px = u_pixels.x / (u_step_range.y - u_step_range.x);
  float warp_px = u_pixels.y / (u_warp_range.y - u_warp_range.x);
  float row = floor(v_uv.y * u_pixels.y);
  float wa = mix(u_warp_range.x, u_warp_range.y, row / u_pixels.y);
  float wb = mix(u_warp_range.x, u_warp_range.y, (row + 1.0) / u_pixels.y);
  if ((step_px >= 8.0 && fract(stepf) * step_px < 1.0) ||
      (warp_px >= 6.0 && fract(mix(u_warp_range.x, u_warp_range.y, v_uv.y)) * warp_px < 1.0)) {
    frag_color = vec4(u_background, 1.0);
    return;
  }
  // The mean of active lanes takes the warps whose centres fall in this pixel row, so that rows of
  // equal warps get equal colours; the worst of ways or sectors takes every warp the row touches, so
  // that one conflicted warp among many still shows. A warp taller than a pixel: the one under its centre.
  int first, last;  // inclusive
  if (u_metric == 0) {
    first = int(ceil(wa - 0.5));
    last = int(ceil(wb - 0.5)) - 1;
  } else {
    first = int(floor(wa));
    last = int(ceil(wb)) - 1;
  }
  if (last < first) first = last = int(floor(0.5 * (wa + wb)));
  first = max(first, 0);
  last = min(last, u_warps - 1);
  if (first >= u_warps) { frag_color = vec4(u_background, 1.0); return; }
  // Up to 32 warps per pixel are read one by one; more are sampled evenly.
  int span = last - first + 1;
  int samples = min(span, 32);
  float sum = 0.0, worst = 0.0;
  int count = 0;
  for (int k = 0; k < samples; ++k) {
    int w = first + (span <= 32 ? k : (k * span) / samples);
    uint v = cell(w, step);
    if (v == kNoStep || (u_metric != 0 && v == 0u)) continue;
    sum += float(v);
    worst = max(worst, float(v));
    ++count;
  }
  if (count == 0) { frag_color = vec4(u_background, 1.0); return; }
  float t = u_metric == 0 ? (sum / float(count) - u_range.x) / (u_range.y - u_range.x)
                          : log2(max(worst, u_range.x) / u_range.x) / log2(u_range.y / u_range.x);
  frag_color = vec4(ramp(t), 1.0);
}
