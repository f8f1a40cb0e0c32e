// The product's CS121 atomics kernels (kernels/atomics/cs121_atomics.cu) built again with another wait before
// cs121.filter_scan_vec's first look-back read: bench/CMakeLists.txt compiles this file once per wait,
// WS_FILTER_LOOKBACK_WAIT_NS=<ns>, and renames the launcher table to cs121_atomics_launchers_wait_<ns> so
// that the copies link beside the product's own (ws_filter_ab's "wait N" / "no wait" candidates). The macro
// below makes the file's one __nanosleep (the wait) sleep WS_FILTER_LOOKBACK_WAIT_NS ("no wait": 0 ns, a
// sleep instruction that returns at once) instead of kFilterLookbackWaitNs.
#define __nanosleep(ns) __nanosleep(WS_FILTER_LOOKBACK_WAIT_NS)
#define WS_CAT2(a, b) a##b
#define WS_CAT(a, b) WS_CAT2(a, b)
#define cs121_atomics_launchers WS_CAT(cs121_atomics_launchers_wait_, WS_FILTER_LOOKBACK_WAIT_NS)
#include "atomics/cs121_atomics.cu"
