// warpscope: pattern=reduction block=256 grid=1024 shared=block*4
// A solution of multigpu.shard_partials: a register sum over a grid-stride loop, then two rounds of shuffles.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int warp_sums[];
  unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  int sum = 0;
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) sum += in[i];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) out[blockIdx.x] = sum;
  }
}
