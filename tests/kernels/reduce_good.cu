// warpscope: pattern=reduction block=256 shared=block*4
// epita.reduce3 written against the reduction contract: sequential addressing, one atomicAdd per block.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int partial[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[tid] = in[i];  // unguarded: the contract pads the input with zeros up to the last block
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}
