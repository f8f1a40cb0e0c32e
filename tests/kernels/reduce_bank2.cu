// warpscope: pattern=reduction block=256 shared=block*8
// Correct, with 2-way bank conflicts on the store of line 9: thread t writes word 2t, so lanes t and t + 16
// of a warp hit the same bank. The per-line counters must put the extra wavefronts on line 9.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int partial[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  partial[2 * tid] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    if (tid < stride) partial[2 * tid] += partial[2 * (tid + stride)];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}
