// warpscope: pattern=scan block=1024 grid=1 shared=0
// A solution of stevens.kogge_stone_db: two buffers, one __syncthreads() per step.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n, int* scratch) {
  __shared__ int buf[2][1024];
  unsigned t = threadIdx.x;
  buf[0][t] = t < n ? in[t] : 0;
  __syncthreads();
  int src = 0;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    buf[1 - src][t] = t >= stride ? buf[src][t] + buf[src][t - stride] : buf[src][t];
    src = 1 - src;
    __syncthreads();
  }
  if (t < n) out[t] = buf[src][t];
}
