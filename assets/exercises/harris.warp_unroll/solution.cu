// warpscope: pattern=reduction block=256 items=2 shared=block*4
// A solution of harris.warp_unroll: the last warp with shuffles on a register (correct without lock step).
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  sdata[tid] = in[i] + in[i + blockDim.x];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    int v = sdata[tid] + sdata[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid == 0) atomicAdd(out, v);
  }
}
