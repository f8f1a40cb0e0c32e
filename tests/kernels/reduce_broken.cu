// warpscope: pattern=reduction block=256
// Does not compile: line 7 names a variable that does not exist.
extern "C" __global__ void kernel(const int* in, int* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = 0;
  if (i < n) v = in[i];
  atomicAdd(out, v + undeclared_value);
}
