// warpscope: pattern=reduction block=256
// Faults on purpose: writes far outside the output (an illegal address), as a mistyped index would.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i * 4096u + (1u << 30)] = in[i];
}
