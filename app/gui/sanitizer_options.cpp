// Sanitized builds only (the asan preset): the sanitizer options of the warpscope program. eglTerminate
// unloads Mesa's GL driver (swrast_dri.so) with allocations the driver keeps, so at exit LeakSanitizer
// reports leaks in an "<unknown module>" it can neither attribute nor suppress (tests/lsan.supp matches
// by module name). The window's code is still leak-checked in ws_gui_tests and ws_perf_tests, which
// draw the same views without a GL driver; AddressSanitizer and UBSan stay on here.
#if defined(__SANITIZE_ADDRESS__)
#define WS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WS_ASAN 1
#endif
#endif

#ifdef WS_ASAN
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
#endif
