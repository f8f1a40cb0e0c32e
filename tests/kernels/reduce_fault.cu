// warpscope: pattern=reduction block=256
// Faults on purpose: writes 4 TiB past the output (an illegal address), as a mistyped index would.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[(1ull << 40) + i] = in[i];
}
