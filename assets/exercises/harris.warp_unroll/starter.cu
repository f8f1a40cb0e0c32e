// warpscope: pattern=reduction block=256 items=2 shared=block*4
// Exercise harris.warp_unroll (warpscope-cli grade --exercise harris.warp_unroll --kernel FILE).
// Implementation 4 whose loop stops at s > 32: write the last warp's six steps.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  sdata[tid] = in[i] + in[i + blockDim.x];  // first add during load; the input is padded with zeros
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  // TODO: warp 0 adds sdata[tid + 32], + 16, + 8, + 4, + 2, + 1 into sdata[tid] (or a register).

  if (tid == 0) atomicAdd(out, sdata[0]);
}
