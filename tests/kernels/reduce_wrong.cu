// warpscope: pattern=reduction block=256 shared=block*4
// Wrong on purpose: the tree stops one step early (stride > 1), so each block adds only half its values.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int partial[];
  unsigned tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 1; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}
