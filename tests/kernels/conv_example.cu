// warpscope: pattern=convolution block=256
// Seed 001, "Simple 1D Covolution Kernel": one output per thread, ghost cells count 0.
extern "C" __global__ void kernel(const float* in, const float* mask, float* out, unsigned n, unsigned mask_width) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0;
  const int start = int(i) - int(mask_width / 2);
  for (unsigned j = 0; j < mask_width; ++j) {
    const int k = start + int(j);
    if (k >= 0 && k < int(n)) sum += in[k] * mask[j];
  }
  out[i] = sum;
}
