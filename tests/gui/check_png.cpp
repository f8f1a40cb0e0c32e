// Checks a headless screenshot for content, without a GPU: size, not blank, text drawn in the
// panels, and the status colours present. One line per failure; exit 0 when all checks pass.
//   ws_check_png FILE --size W H [--min-colors N] [--min-foreground FRAC]
//                [--bright X0 Y0 X1 Y1 MIN]...   (region as fractions of the image; MIN pixels)
//                [--color RRGGBB MIN]...          (pixels within 40 of the colour per channel)
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

struct Region {
  double x0, y0, x1, y1;
  long min;
};
struct Color {
  int r, g, b;
  long min;
  std::string hex;
};

bool near(const unsigned char* p, const Color& c) {
  return std::abs(p[0] - c.r) <= 40 && std::abs(p[1] - c.g) <= 40 && std::abs(p[2] - c.b) <= 40;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ws_check_png FILE --size W H [options]\n");
    return 2;
  }
  const char* path = argv[1];
  int want_w = 0, want_h = 0;
  long min_colors = 64;
  double min_foreground = 0.05;
  std::vector<Region> regions;
  std::vector<Color> colors;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto need = [&](int k) {
      if (i + k >= argc) {
        std::fprintf(stderr, "ws_check_png: %s needs %d values\n", a.c_str(), k);
        std::exit(2);
      }
    };
    if (a == "--size") {
      need(2);
      want_w = std::atoi(argv[++i]);
      want_h = std::atoi(argv[++i]);
    } else if (a == "--min-colors") {
      need(1);
      min_colors = std::atol(argv[++i]);
    } else if (a == "--min-foreground") {
      need(1);
      min_foreground = std::atof(argv[++i]);
    } else if (a == "--bright") {
      need(5);
      Region r{};
      r.x0 = std::atof(argv[++i]);
      r.y0 = std::atof(argv[++i]);
      r.x1 = std::atof(argv[++i]);
      r.y1 = std::atof(argv[++i]);
      r.min = std::atol(argv[++i]);
      regions.push_back(r);
    } else if (a == "--color") {
      need(2);
      Color c{};
      c.hex = argv[++i];
      const unsigned long v = std::strtoul(c.hex.c_str(), nullptr, 16);
      c.r = int((v >> 16) & 0xff);
      c.g = int((v >> 8) & 0xff);
      c.b = int(v & 0xff);
      c.min = std::atol(argv[++i]);
      colors.push_back(c);
    } else {
      std::fprintf(stderr, "ws_check_png: unknown option %s\n", a.c_str());
      return 2;
    }
  }

  int w = 0, h = 0, channels = 0;
  unsigned char* px = stbi_load(path, &w, &h, &channels, 3);
  if (!px) {
    std::fprintf(stderr, "ws_check_png: cannot read %s: %s\n", path, stbi_failure_reason());
    return 1;
  }
  int failures = 0;
  auto fail = [&](const std::string& line) {
    std::fprintf(stderr, "ws_check_png: %s: %s\n", path, line.c_str());
    ++failures;
  };
  if (want_w && (w != want_w || h != want_h))
    fail("size " + std::to_string(w) + "x" + std::to_string(h) + ", expected " + std::to_string(want_w) + "x" +
         std::to_string(want_h));

  // Distinct colours and the background (the most common colour).
  std::map<unsigned, long> histogram;
  for (long i = 0; i < long(w) * h; ++i) {
    const unsigned char* p = px + 3 * i;
    ++histogram[(unsigned(p[0]) << 16) | (unsigned(p[1]) << 8) | p[2]];
  }
  long background = 0;
  for (const auto& [rgb, n] : histogram) background = std::max(background, n);
  const double foreground = 1.0 - double(background) / (double(w) * h);
  std::printf("%s: %dx%d, %zu colours, %.1f %% foreground\n", path, w, h, histogram.size(), 100 * foreground);
  if (long(histogram.size()) < min_colors)
    fail(std::to_string(histogram.size()) + " distinct colours, expected at least " + std::to_string(min_colors) +
         " (blank image?)");
  if (foreground < min_foreground)
    fail("only " + std::to_string(100 * foreground) + " % of pixels differ from the background");

  // Text: bright pixels (white-ish glyphs on the dark theme) inside each region.
  for (const Region& r : regions) {
    long bright = 0;
    const int x0 = int(r.x0 * w), x1 = int(r.x1 * w), y0 = int(r.y0 * h), y1 = int(r.y1 * h);
    for (int y = y0; y < y1 && y < h; ++y)
      for (int x = x0; x < x1 && x < w; ++x) {
        const unsigned char* p = px + 3 * (long(y) * w + x);
        if (p[0] > 180 && p[1] > 180 && p[2] > 180) ++bright;
      }
    std::printf("  bright pixels in [%.2f,%.2f]-[%.2f,%.2f]: %ld\n", r.x0, r.y0, r.x1, r.y1, bright);
    if (bright < r.min)
      fail("only " + std::to_string(bright) + " bright pixels in region [" + std::to_string(r.x0) + "," +
           std::to_string(r.y0) + "]-[" + std::to_string(r.x1) + "," + std::to_string(r.y1) + "], expected text (" +
           std::to_string(r.min) + ")");
  }
  for (const Color& c : colors) {
    long n = 0;
    for (long i = 0; i < long(w) * h; ++i) n += near(px + 3 * i, c);
    std::printf("  pixels near #%s: %ld\n", c.hex.c_str(), n);
    if (n < c.min) fail("only " + std::to_string(n) + " pixels near #" + c.hex + ", expected " + std::to_string(c.min));
  }
  stbi_image_free(px);
  return failures ? 1 : 0;
}
