// warpscope: pattern=reduction block=256 shared=block*4
// Exercise epita.reduce2_to_reduce3 (warpscope-cli grade --exercise epita.reduce2_to_reduce3 --kernel FILE).
// reduce2 with its tree loop removed: write the loop with sequential addressing.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  extern __shared__ int partialSum[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  partialSum[tid] = in[i];  // unguarded: the input is padded with zeros up to the last block
  __syncthreads();

  // TODO: the tree. reduce2 did
  //   for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
  //     if (tid % (2 * stride) == 0) partialSum[tid] += partialSum[tid + stride];
  //     __syncthreads();
  //   }
  // Write it with sequential addressing instead.

  if (tid == 0) atomicAdd(out, partialSum[0]);
}
