// warpscope: pattern=reduction block=256 items=1 shared=block*4
// harris.impl1, compute-only ("Code Optimizations", J. Filipovic, slide "Code Modifications": "we comment-out
// data movement, but the resulting data is needed to be stored ... into condition which is evaluated as
// false during computation (but not during compilation)"). No global load: each value is made from its
// index. The result is stored only when n == 0xffffffff, which the compiler cannot rule out and the host
// never passes (n <= 2^30), so the tree is kept and nothing is written. Same shared array as the original:
// same occupancy.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int sv[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sv[tid] = (int)i;  // was: in[i]
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sv[tid] += sv[tid + s];
    __syncthreads();
  }
  if (tid == 0 && n == 0xffffffffu) out[blockIdx.x] = sv[0];
}
