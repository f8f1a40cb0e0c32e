// warpscope: pattern=reduction block=256 grid=1024 shared=block*4
// Exercise amp.cascade (warpscope-cli grade --exercise amp.cascade --kernel FILE).
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  int sum = 0;
  // TODO: add every element a whole grid apart, starting at this thread's index (a grid-stride loop).

  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
