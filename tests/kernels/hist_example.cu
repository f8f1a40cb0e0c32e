// warpscope: pattern=atomics block=256
// The slide's first histogram: one global atomicAdd per byte, over a grid-stride loop.
extern "C" __global__ void kernel(const unsigned char* in, unsigned* bins, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&bins[in[i]], 1u);
}
