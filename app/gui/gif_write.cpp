#include "gif_write.hpp"

#include <gif_lib.h>

#include <algorithm>
#include <cstdio>

#include "file_write.hpp"

namespace ws::gui {

namespace {

int put_bytes(GifFileType* gif, const GifByteType* data, int size) {
  return int(std::fwrite(data, 1, std::size_t(size), static_cast<std::FILE*>(gif->UserData)));
}

std::string gif_error(int code) {
  const char* e = GifErrorString(code);
  return std::string("GIF encoding failed: ") + (e ? e : "unknown giflib error");
}

/// Encodes into `f`; "" or the reason.
std::string encode(std::FILE* f, const std::vector<RgbFrame>& frames, int delay_cs) {
  int err = 0;
  GifFileType* gif = EGifOpen(f, put_bytes, &err);
  if (!gif) return gif_error(err);
  int W = 0, H = 0;
  for (const auto& fr : frames) W = std::max(W, fr.w), H = std::max(H, fr.h);
  std::string why;
  auto ok = [&](int rc) {
    if (rc != GIF_OK && why.empty()) why = gif_error(gif->Error);
    return rc == GIF_OK;
  };
  EGifSetGifVersion(gif, true);  // GIF89a: delays and the loop extension
  if (ok(EGifPutScreenDesc(gif, W, H, 8, 0, nullptr))) {
    // NETSCAPE2.0 application extension: loop forever.
    static const GifByteType app[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    static const GifByteType loop[] = {1, 0, 0};
    ok(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE)) && ok(EGifPutExtensionBlock(gif, sizeof app, app)) &&
        ok(EGifPutExtensionBlock(gif, sizeof loop, loop)) && ok(EGifPutExtensionTrailer(gif));
  }
  for (std::size_t k = 0; k < frames.size() && why.empty(); ++k) {
    const RgbFrame& fr = frames[k];
    const std::size_t px = std::size_t(fr.w) * std::size_t(fr.h);
    std::vector<GifByteType> r(px), g(px), b(px), index(px);
    for (std::size_t i = 0; i < px; ++i) r[i] = fr.rgb[3 * i], g[i] = fr.rgb[3 * i + 1], b[i] = fr.rgb[3 * i + 2];
    GifColorType colors[256];
    int size = 256;
    if (GifQuantizeBuffer(unsigned(fr.w), unsigned(fr.h), &size, r.data(), g.data(), b.data(), index.data(), colors) !=
        GIF_OK) {
      why = "GIF encoding failed: colour quantization of frame " + std::to_string(k);
      break;
    }
    GraphicsControlBlock gcb;
    gcb.DisposalMode = DISPOSE_DO_NOT;
    gcb.UserInputFlag = false;
    gcb.DelayTime = delay_cs;
    gcb.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType ext[4];
    EGifGCBToExtension(&gcb, ext);
    if (!ok(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, ext))) break;
    ColorMapObject* map = GifMakeMapObject(256, colors);
    if (!map) {
      why = "GIF encoding failed: out of memory";
      break;
    }
    const bool desc = ok(EGifPutImageDesc(gif, 0, 0, fr.w, fr.h, false, map));
    GifFreeMapObject(map);
    if (!desc) break;
    for (int y = 0; y < fr.h && why.empty(); ++y)
      ok(EGifPutLine(gif, index.data() + std::size_t(y) * std::size_t(fr.w), fr.w));
  }
  if (EGifCloseFile(gif, &err) != GIF_OK && why.empty()) why = gif_error(err);
  return why;
}

}  // namespace

std::string write_gif_atomic(const std::string& path, const std::vector<RgbFrame>& frames, int delay_cs,
                             const OutputPolicy& policy) {
  if (frames.empty()) return "no frames to write to " + path;
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const RgbFrame& f = frames[k];
    if (f.w <= 0 || f.h <= 0 || f.w > 65535 || f.h > 65535 || f.rgb.size() != std::size_t(f.w) * std::size_t(f.h) * 3)
      return "frame " + std::to_string(k) + " is " + std::to_string(f.w) + " x " + std::to_string(f.h) + " with " +
             std::to_string(f.rgb.size()) + " bytes: not a GIF frame";
  }
  std::string why;
  const std::string err = write_file_atomic(
      path,
      [&](std::FILE* f) {
        why = encode(f, frames, std::clamp(delay_cs, 0, 65535));
        return why.empty();
      },
      policy);
  return why.empty() ? err : path + ": " + why;
}

int gif_frame_count(const std::string& path, std::string& error) {
  int err = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &err);
  if (!gif) {
    error = path + ": " + (GifErrorString(err) ? GifErrorString(err) : "cannot open");
    return -1;
  }
  int count = -1;
  if (DGifSlurp(gif) == GIF_OK)
    count = gif->ImageCount;
  else
    error = path + ": " + (GifErrorString(gif->Error) ? GifErrorString(gif->Error) : "does not decode");
  DGifCloseFile(gif, &err);
  return count;
}

}  // namespace ws::gui
