// warpscope: pattern=scan block=1024 grid=1 shared=0
// Exercise stevens.kogge_stone_db (warpscope-cli grade --exercise stevens.kogge_stone_db --kernel FILE).
// One block scans n <= 1024 ints: out[i] = in[0] + ... + in[i].
extern "C" __global__ void kernel(const int* in, int* out, unsigned n, int* scratch) {
  __shared__ int buf[2][1024];
  unsigned t = threadIdx.x;
  buf[0][t] = t < n ? in[t] : 0;
  __syncthreads();
  int src = 0;
  // TODO: for stride = 1, 2, 4, ... < blockDim.x: read buf[src], write buf[1 - src], swap, one barrier.

  if (t < n) out[t] = buf[src][t];
}
