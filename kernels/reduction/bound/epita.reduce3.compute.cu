// warpscope: pattern=reduction block=256 items=1 shared=block*4
// epita.reduce3, compute-only ("Code Optimizations", J. Filipovic, slide "Code Modifications": "we comment-out
// data movement, but the resulting data is needed to be stored ... into condition which is evaluated as
// false during computation (but not during compilation)"). No global load: each value is made from its
// index. The result is stored only when n == 0xffffffff, which the compiler cannot rule out and the host
// never passes (n <= 2^30), so the tree is kept and nothing is written. Same shared array as the original:
// same occupancy.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int partialSum[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  partialSum[tid] = (int)i;  // was: in[i]
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    if (tid < stride) partialSum[tid] += partialSum[tid + stride];
    __syncthreads();
  }
  if (tid == 0 && n == 0xffffffffu) atomicAdd(out, partialSum[0]);
}
