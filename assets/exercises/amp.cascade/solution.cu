// warpscope: pattern=reduction block=256 grid=1024 shared=block*4
// A solution of amp.cascade: a register sum over a grid-stride loop, then one tree per tile.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  int sum = 0;
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) sum += in[i];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
