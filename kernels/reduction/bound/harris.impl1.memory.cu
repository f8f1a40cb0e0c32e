// warpscope: pattern=reduction block=256 items=1 shared=block*4
// harris.impl1, memory-only ("Code Optimizations", J. Filipovic, slide "Code Modifications": "we comment-out
// the computation, but we need to somehow use loaded data"). The loads stay as they are; each loaded value
// is stored to the shared array before the barrier, and thread 0 stores one of them as the block's
// result: the compiler cannot tell which slot thread 0 reads, so no load is dropped. The array keeps the
// original's size (the header's shared=block*4): the slides' dummy shared array, same blocks per SM.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int sv[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sv[tid] = in[i];
  __syncthreads();
  // The tree, commented out:
  // for (unsigned s = 1; s < blockDim.x; s *= 2) {
  //   if (tid % (2 * s) == 0) sv[tid] += sv[tid + s];
  //   __syncthreads();
  // }
  if (tid == 0) out[blockIdx.x] = sv[0];
}
