// warpscope: pattern=reduction block=256 shared=block*4
// A solution of epita.reduce2_to_reduce3: reduce3's sequential addressing.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int partialSum[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  partialSum[tid] = in[i];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    if (tid < stride) partialSum[tid] += partialSum[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partialSum[0]);
}
