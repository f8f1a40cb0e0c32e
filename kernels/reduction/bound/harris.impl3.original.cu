// warpscope: pattern=reduction block=256 items=1 shared=block*4
// harris.impl3 (slide "Implementation 3") written against the reduction contract, one launch: the original the two
// copies
// beside it are timed against ("Code Optimizations", J. Filipovic, slides "Code Modifications").
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int sv[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sv[tid] = in[i];  // unguarded: the contract pads the input with zeros up to the last block
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sv[tid] += sv[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sv[0];
}
