// warpscope: pattern=atomics block=256 shared=0
// A solution of cs121.privatized_histogram: per-block bins in shared memory, one global atomic per bin.
extern "C" __global__ void kernel(const unsigned char* in, unsigned* bins, unsigned n) {
  __shared__ unsigned histo_s[256];
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) histo_s[b] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&histo_s[in[i]], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
    if (histo_s[b]) atomicAdd(&bins[b], histo_s[b]);
}
