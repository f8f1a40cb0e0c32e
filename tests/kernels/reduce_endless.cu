// warpscope: pattern=reduction block=256
// Never ends on purpose: a loop whose exit depends on memory no thread writes (the watchdog's case).
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  volatile int* flag = out;
  while (flag[0] != 123456789) {}
  if (threadIdx.x == 0 && n == 0) out[0] = in[0];
}
