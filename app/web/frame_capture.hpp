// The page's pictures for its scripts and tests: the canvas read back with glReadPixels right after a frame
// is drawn (before the browser composites it), without the DevTools protocol's screenshots.
#pragma once

namespace ws::web {

/// After a frame was drawn into the `fb_width` x `fb_height` canvas: when ws_capture() asked, reads it
/// into Module.wsCapture = {width, height, frame, rgba (Uint8Array, top row first), png (Uint8Array)}.
void capture_if_asked(int fb_width, int fb_height);

}  // namespace ws::web
