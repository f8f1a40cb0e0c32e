// The GUI's long runs (Live, Sweep) allocate and free large buffers (plot points, draw lists, worker
// answers) every frame; glibc keeps freed pages in its heaps, so the process's RSS creeps and jumps
// without any memory being in use. Returning them now and then keeps RSS at what is really held.
#pragma once

namespace ws::gui {

/// Returns the allocator's free pages to the system (glibc malloc_trim) if the last time was at least
/// 10 s ago; call it once per frame. Costs about a millisecond when it runs, nothing otherwise.
void trim_free_memory_now_and_then();

}  // namespace ws::gui
