// warpscope: pattern=reduction block=256 grid=1024 shared=block*4
// Exercise multigpu.shard_partials (warpscope-cli grade --exercise multigpu.shard_partials --kernel FILE).
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int warp_sums[];
  unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  int sum = 0;
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) sum += in[i];
  // TODO: sum the warp's 32 registers with __shfl_down_sync (lane 0 ends with the warp's sum).

  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
    // TODO: the same shuffle over the block's warp sums, then lane 0 writes out[blockIdx.x].
  }
}
