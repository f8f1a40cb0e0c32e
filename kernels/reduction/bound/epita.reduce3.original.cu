// warpscope: pattern=reduction block=256 items=1 shared=block*4
// epita.reduce3 ("Efficient Reduction Trees" of the EPITA lecture) written against the reduction contract, one launch:
// the original the two copies
// beside it are timed against ("Code Optimizations", J. Filipovic, slides "Code Modifications").
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int partialSum[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  partialSum[tid] = in[i];  // unguarded: the contract pads the input with zeros up to the last block
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    if (tid < stride) partialSum[tid] += partialSum[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partialSum[0]);
}
