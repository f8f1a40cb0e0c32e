// The product's look-back scan (kernels/scan/decoupled_lookback.cu) built again with another wait before
// its first look-back read: bench/CMakeLists.txt compiles this file once per wait, WS_LOOKBACK_WAIT_NS=<ns>,
// and renames the launcher table to lookback_scan_launchers_wait_<ns> so that the copies link beside the
// product's own (ws_scan_ab's "product B=... wait ..." candidates). The kernel's text is the product's: the
// macro below makes its one __nanosleep (the wait) sleep WS_LOOKBACK_WAIT_NS instead of kLookbackWaitNs
// (the CUDA headers, which declare __nanosleep, are included before this file's first line).
#define __nanosleep(ns) __nanosleep(WS_LOOKBACK_WAIT_NS)
#define WS_CAT2(a, b) a##b
#define WS_CAT(a, b) WS_CAT2(a, b)
#define lookback_scan_launchers WS_CAT(lookback_scan_launchers_wait_, WS_LOOKBACK_WAIT_NS)
#include "scan/decoupled_lookback.cu"
