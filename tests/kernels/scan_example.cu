// warpscope: pattern=scan block=256 shared=block*4
// A single-pass inclusive scan for any n: each block scans its 256 elements in shared memory
// (Kogge-Stone), then waits for the running total of the blocks before it (chained scan: block b
// publishes its inclusive total in scratch[b] with flag scratch[grid + b] = 1) and adds it.
// Blocks are numbered in launch order through a ticket (scratch[2 * grid]), so a block never waits
// for one that has not started.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n, int* scratch) {
  extern __shared__ int s[];
  __shared__ unsigned block;
  __shared__ int carry;
  const unsigned grid = gridDim.x;
  if (threadIdx.x == 0) block = atomicAdd(reinterpret_cast<unsigned*>(&scratch[2 * grid]), 1u);
  __syncthreads();
  const unsigned i = block * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    const int add = threadIdx.x >= stride ? s[threadIdx.x - stride] : 0;
    __syncthreads();
    s[threadIdx.x] += add;
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    int before = 0;
    if (block > 0) {
      volatile int* flags = scratch + grid;
      while (flags[block - 1] == 0) {}
      __threadfence();
      before = reinterpret_cast<volatile int*>(scratch)[block - 1];
    }
    carry = before;
    scratch[block] = before + s[blockDim.x - 1];
    __threadfence();
    atomicExch(&scratch[grid + block], 1);
  }
  __syncthreads();
  if (i < n) out[i] = s[threadIdx.x] + carry;
}
