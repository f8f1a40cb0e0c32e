#include "user_kernel_run.hpp"

#include <cuda.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "common/check_cuda.hpp"
#include "cupti/cupti_metrics.hpp"
#include "kernel_compile.hpp"
#include "launch_rules.hpp"
#include "parallel.hpp"
#include "patterns/convolution/conv_inputs.hpp"
#include "timing.hpp"
#include "trace/user_trace_build.hpp"
#include "user_kernel.hpp"

namespace ws::cuda {

namespace {

/// The driver API entry points, found through the runtime (cudaGetDriverEntryPointByVersion), so the
/// program links no libcuda and still starts on a machine without the NVIDIA driver.
struct Driver {
  CUresult (*module_load_data)(CUmodule*, const void*) = nullptr;
  CUresult (*module_get_function)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*module_get_global)(CUdeviceptr*, std::size_t*, CUmodule, const char*) = nullptr;
  CUresult (*memcpy_htod)(CUdeviceptr, const void*, std::size_t) = nullptr;
  CUresult (*func_get_attribute)(int*, CUfunction_attribute, CUfunction) = nullptr;
  CUresult (*func_set_attribute)(CUfunction, CUfunction_attribute, int) = nullptr;
  CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                            void**, void**) = nullptr;
  CUresult (*get_error_string)(CUresult, const char**) = nullptr;
};

template <typename F>
void entry(const char* name, F& fn) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess || !p)
    throw std::runtime_error(std::string("the CUDA driver has no ") + name);
  fn = reinterpret_cast<F>(p);
}

const Driver& driver() {
  static const Driver d = [] {
    Driver x;
    entry("cuModuleLoadData", x.module_load_data);
    entry("cuModuleGetFunction", x.module_get_function);
    entry("cuModuleGetGlobal", x.module_get_global);
    entry("cuMemcpyHtoD", x.memcpy_htod);
    entry("cuFuncGetAttribute", x.func_get_attribute);
    entry("cuFuncSetAttribute", x.func_set_attribute);
    entry("cuLaunchKernel", x.launch_kernel);
    entry("cuGetErrorString", x.get_error_string);
    return x;
  }();
  return d;
}

void check(CUresult e, const std::string& what) {
  if (e == CUDA_SUCCESS) return;
  const char* s = nullptr;
  if (driver().get_error_string) driver().get_error_string(e, &s);
  throw std::runtime_error(what + ": " + (s ? s : "CUDA driver error " + std::to_string(int(e))));
}

/// Modules loaded in this process, by compile key (kernel_cache_key): a second run of the same source
/// neither compiles nor loads. Never unloaded: a worker lives for one session.
struct Loaded {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
};
std::mutex g_modules_mutex;
std::map<std::string, Loaded> g_modules;

Loaded load(const CompileResult& c) {
  const std::lock_guard<std::mutex> lock(g_modules_mutex);
  if (auto it = g_modules.find(c.key); it != g_modules.end()) return it->second;
  Loaded l;
  check(driver().module_load_data(&l.module, c.image.data()), "loading the compiled kernel (cuModuleLoadData)");
  check(driver().module_get_function(&l.function, l.module, c.lowered_entry.c_str()),
        "finding the kernel in its module");
  g_modules[c.key] = l;
  return l;
}

/// Points the traced module's recorder at `sink` and switches it on: its one launch records block sink.block.
void arm_user_trace(const Loaded& l, const TraceSink& sink) {
  CUdeviceptr symbol = 0;
  std::size_t bytes = 0;
  check(driver().module_get_global(&symbol, &bytes, l.module, kUserTraceSinkSymbol),
        "finding the trace sink in the traced kernel's module");
  if (bytes != sizeof sink)
    throw std::runtime_error("the traced kernel's trace sink has " + std::to_string(bytes) + " bytes, not " +
                             std::to_string(sizeof sink));
  WS_CUDA(cudaMemcpy(reinterpret_cast<void*>(symbol), &sink, sizeof sink, cudaMemcpyHostToDevice));
  const int on = 1;
  WS_CUDA(cudaMemcpy(sink.enabled, &on, sizeof on, cudaMemcpyHostToDevice));
}

/// Copies the run's mask into the module's `__constant__ float NAME[...]` (the header's mask_symbol), as
/// the slides' host code does with cudaMemcpyToSymbol. Throws one line when the module has no such
/// symbol or it holds fewer floats than the mask.
void fill_mask_symbol(CUmodule m, const std::string& name, const std::vector<float>& mask, const std::string& file) {
  CUdeviceptr sym = 0;
  std::size_t bytes = 0;
  if (driver().module_get_global(&sym, &bytes, m, name.c_str()) != CUDA_SUCCESS)
    throw std::runtime_error(file + ": mask_symbol=" + name + " names no __constant__ array of the compiled kernel " +
                             "(declare `__constant__ float " + name + "[...]` at file scope, outside any namespace)");
  const std::size_t need = mask.size() * sizeof(float);
  if (bytes < need)
    throw std::runtime_error(file + ": __constant__ " + name + " holds " + std::to_string(bytes / sizeof(float)) +
                             " floats, the run's mask " + std::to_string(mask.size()) + " (--mask-width): declare it " +
                             "with at least " + std::to_string(mask.size()));
  check(driver().memcpy_htod(sym, mask.data(), need), "filling __constant__ " + name + " with the mask");
}

std::string seconds(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", ms / 1000);
  return buf;
}

/// run_user_kernel, or with `sink` its traced build, launched once untimed (run_user_kernel_traced).
RunResult run(CudaContext& ctx, const VariantInfo& v, const RunRequest& req, const Input& in,
              const LaunchConfig& launch, const TraceSink* sink) {
  const UserKernel& k = req.kernel;
  KernelHeader h;
  if (std::string e = parse_kernel_header(k.source, k.file, h); !e.empty()) throw std::runtime_error(e);
  HostClock clock;
  RunResult r;
  CompileOptions co;
  co.cc_major = ctx.device.cc_major;
  co.cc_minor = ctx.device.cc_minor;
  co.file = k.file;
  co.entry = !k.entry.empty() ? k.entry : !h.entry.empty() ? h.entry : "kernel";
  if (sink)
    if (std::string why = traced_compile_options(k.source, co); !why.empty()) throw std::runtime_error(why);
  const CompileResult c = compile_user_kernel(k.source, co);
  if (!c.ok()) {
    r.status = RunStatus::Error;
    const std::string all = format_diagnostics(c.diagnostics, k.file);
    r.message = c.status == CompileStatus::Failed && !all.empty() ? all.substr(0, all.size() - 1) : c.error;
    return r;
  }
  const std::string what = sink ? "your kernel's traced build" : "your kernel";
  r.code_path = c.cached ? what + ": module cached (" + c.key + ")"
                         : what + ": NVRTC " + nvrtc_version() + ", sm_" + std::to_string(co.cc_major) +
                               std::to_string(co.cc_minor) + ", compiled in " + seconds(c.ms);
  for (const KernelDiagnostic& d : c.diagnostics)
    if (d.severity == "warning") r.message += format_diagnostics({d}, k.file);
  while (!r.message.empty() && r.message.back() == '\n') r.message.pop_back();
  WS_CUDA(cudaFree(nullptr));  // the runtime's primary context current on this thread, for the driver calls
  const Loaded loaded = load(c);
  const CUfunction f = loaded.function;

  // The launch against the function's own limits: a clear refusal, not a launch error.
  const int block = launch.block;
  const int items = v.rules.items_per_thread;
  // Patterns that build their own input (convolution) leave the grid to the runner: one window per block.
  std::int64_t grid = launch.grid;
  if (grid == 0) {
    grid = (in.n() + std::int64_t(block) * items - 1) / (std::int64_t(block) * items);
    if (v.rules.max_grid) grid = std::min(grid, std::int64_t(v.rules.max_grid));
  }
  const std::size_t elem = dtype_size(in.type);
  std::int64_t shared =
      h.shared.empty() ? std::int64_t(block) * items * std::int64_t(elem) : shared_bytes(h.shared, block, items);
  int max_threads = 0, static_shared = 0, max_optin = 0;
  check(driver().func_get_attribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f), "kernel attributes");
  check(driver().func_get_attribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f), "kernel attributes");
  if (cudaDeviceGetAttribute(&max_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0) != cudaSuccess) max_optin = 49152;
  if (block > max_threads)
    throw std::runtime_error(k.file + ": " + std::to_string(block) + " threads per block, but the compiled kernel " +
                             "takes at most " + std::to_string(max_threads) + " (registers per thread)");
  if (shared + static_shared > max_optin)
    throw std::runtime_error(k.file + ": " + std::to_string(shared) + " bytes of dynamic + " +
                             std::to_string(static_shared) + " of static shared memory per block, the GPU allows " +
                             std::to_string(max_optin));
  if (shared > 48 * 1024)
    check(driver().func_set_attribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(shared)),
          "allowing more than 48 KiB of dynamic shared memory");

  const std::int64_t n = in.n();
  unsigned n32 = static_cast<unsigned>(n);
  const auto stream = reinterpret_cast<CUstream>(ctx.stream);
  auto launch_with = [&](void** params) {
    check(driver().launch_kernel(f, unsigned(grid), 1, 1, unsigned(block), 1, 1, unsigned(shared), stream, params,
                                 nullptr),
          "launching " + k.file);
  };
  std::function<void()> enqueue;
  void* d_in = nullptr;
  void* d_out = nullptr;
  void* d_scratch = nullptr;
  std::size_t out_bytes = 0, scratch_bytes = 0;
  int mask_width = req.params.mask_width;
  std::vector<float> mask;
  std::vector<int> max_identity;  // a max reduction's starting values (int only: atomicMax has no float form)
  // Reductions: zeros past n up to the last block's window, so the slides' unguarded loads stay safe.
  const std::int64_t capacity = round_up(std::max(n, grid * block * items), std::int64_t(block) * items);
  switch (v.pattern) {
    case PatternKind::Reduction: {
      d_in = ctx.buffer("user_in", std::size_t(capacity) * elem);
      ctx.upload(d_in, in.data(), std::size_t(n) * elem);
      WS_CUDA(cudaMemsetAsync(static_cast<char*>(d_in) + std::size_t(n) * elem, 0, std::size_t(capacity - n) * elem,
                              ctx.stream));
      out_bytes = std::size_t(grid) * sizeof(int);
      d_out = ctx.buffer("user_out", out_bytes);
      if (v.op == ReduceOp::Max) {
        // A maximum's identity is the smallest int, not 0 (cs121.atomic_max's launcher sets its global maximum
        // so): the padding past n and every output start there, as the variant's own buffers do.
        max_identity.assign(std::max<std::size_t>(std::size_t(capacity - n), std::size_t(grid)),
                            std::numeric_limits<int>::min());
        WS_CUDA(cudaMemcpy(static_cast<char*>(d_in) + std::size_t(n) * elem, max_identity.data(),
                           std::size_t(capacity - n) * elem, cudaMemcpyHostToDevice));
      }
      break;
    }
    case PatternKind::Scan: {
      d_in = ctx.buffer("user_in", std::size_t(n) * elem);
      ctx.upload(d_in, in.data(), std::size_t(n) * elem);
      out_bytes = std::size_t(n) * elem;
      d_out = ctx.buffer("user_out", out_bytes);
      WS_CUDA(cudaMemsetAsync(d_out, 0xff, out_bytes, ctx.stream));  // a skipped element cannot pass by luck
      scratch_bytes = std::size_t(2 * grid + 2) * sizeof(int);
      d_scratch = ctx.buffer("user_scratch", scratch_bytes);
      break;
    }
    case PatternKind::Atomics: {
      d_in = ctx.buffer("user_in", std::size_t(std::max<std::int64_t>(n, 16)));
      ctx.upload(d_in, in.data(), std::size_t(n));
      out_bytes = 256 * sizeof(unsigned);
      d_out = ctx.buffer("user_out", out_bytes);
      break;
    }
    case PatternKind::Convolution: {
      if (in.f32.empty() && n > 0) throw std::runtime_error("the convolution contract takes a 1-D float32 signal");
      if (std::string e = make_conv_mask(req.params.mask, 1, mask_width, mask); !e.empty()) throw std::runtime_error(e);
      d_in = ctx.buffer("user_in", std::size_t(n) * sizeof(float));
      ctx.upload(d_in, in.f32.data(), std::size_t(n) * sizeof(float));
      out_bytes = std::size_t(n) * sizeof(float);
      d_out = ctx.buffer("user_out", out_bytes);
      WS_CUDA(cudaMemsetAsync(d_out, 0xff, out_bytes, ctx.stream));  // NaN where no thread writes
      d_scratch = ctx.buffer("user_mask", mask.size() * sizeof(float));
      WS_CUDA(cudaMemcpyAsync(d_scratch, mask.data(), mask.size() * sizeof(float), cudaMemcpyHostToDevice, ctx.stream));
      // A kernel that reads the mask from __constant__ memory gets it there too (the header names the array).
      if (!h.mask_symbol.empty()) fill_mask_symbol(loaded.module, h.mask_symbol, mask, k.file);
      break;
    }
    default:
      throw std::runtime_error(std::string("the ") + to_string(v.pattern) +
                               " pattern cannot run a user's kernel in this build");
  }
  if (!h.mask_symbol.empty() && v.pattern != PatternKind::Convolution)
    throw std::runtime_error(k.file + ": mask_symbol=" + h.mask_symbol +
                             " is for the convolution contract's mask, not " + to_string(v.pattern));
  WS_CUDA(cudaStreamSynchronize(ctx.stream));
  r.host_ms.upload = clock.lap();

  const void* in_ptr = d_in;
  void* out_ptr = d_out;
  void* scratch_ptr = d_scratch;
  void* reduce_params[] = {&in_ptr, &out_ptr, &n32};
  void* scan_params[] = {&in_ptr, &out_ptr, &n32, &scratch_ptr};
  unsigned mask_width32 = static_cast<unsigned>(mask_width);
  void* conv_params[] = {&in_ptr, &scratch_ptr, &out_ptr, &n32, &mask_width32};
  enqueue = [&] {
    // Each launch starts from the contract's zeroed buffers (the memsets are timed, as the built-in
    // launchers' own zeroing is).
    if (v.pattern == PatternKind::Scan) {
      WS_CUDA(cudaMemsetAsync(d_scratch, 0, scratch_bytes, ctx.stream));
      launch_with(scan_params);
    } else if (v.pattern == PatternKind::Convolution) {
      launch_with(conv_params);  // writes every output: nothing to reset
    } else {
      if (max_identity.empty())
        WS_CUDA(cudaMemsetAsync(d_out, 0, out_bytes, ctx.stream));
      else
        WS_CUDA(cudaMemcpyAsync(d_out, max_identity.data(), out_bytes, cudaMemcpyHostToDevice, ctx.stream));
      launch_with(reduce_params);  // reduction and histogram share the (in, out, n) shape
    }
  };
  if (sink) {
    arm_user_trace(loaded, *sink);
    enqueue();
    WS_CUDA(cudaStreamSynchronize(ctx.stream));
    WS_CUDA(cudaGetLastError());
  } else {
    r.timing = time_launches(ctx, enqueue, req.warmup, req.repeat);
    r.timed = req.repeat > 0;
  }
  r.launches = 1;
  r.launch = LaunchConfig{block, grid};
  r.host_ms.launches = clock.lap();

  if (v.pattern == PatternKind::Reduction) {
    std::vector<std::int32_t> partials(static_cast<std::size_t>(grid));
    WS_CUDA(cudaMemcpy(partials.data(), d_out, out_bytes, cudaMemcpyDeviceToHost));
    if (v.op == ReduceOp::Max) {  // a max: the largest of the outputs (each started at the smallest int)
      r.result = double(*std::max_element(partials.begin(), partials.end()));
    } else {
      std::uint32_t s = 0;
      for (std::int32_t p : partials) s += std::uint32_t(p);  // int32 wraps, as on the GPU
      r.result = double(std::int32_t(s));
    }
  } else if (v.pattern == PatternKind::Scan) {
    r.output.resize(std::size_t(n));
    ctx.download(d_out, out_bytes, [&](std::size_t off, const void* host, std::size_t len) {
      widen_to_double(static_cast<const std::int32_t*>(host), std::int64_t(len / 4), r.output.data() + off / 4);
    });
    r.output_rows = 0;
    r.output_cols = n;
  } else if (v.pattern == PatternKind::Convolution) {
    r.output.resize(std::size_t(n));
    ctx.download(d_out, out_bytes, [&](std::size_t off, const void* host, std::size_t len) {
      widen_to_double(static_cast<const float*>(host), std::int64_t(len / 4), r.output.data() + off / 4);
    });
    r.output_rows = 0;
    r.output_cols = n;
  } else {
    std::vector<unsigned> bins(256);
    WS_CUDA(cudaMemcpy(bins.data(), d_out, out_bytes, cudaMemcpyDeviceToHost));
    r.output.assign(bins.begin(), bins.end());
    r.output_rows = 0;
    r.output_cols = 256;
  }
  r.host_ms.download = clock.lap();
  r.status = RunStatus::Ran;
  if (!req.metrics.empty() && !sink) {
    r.metrics = collect_metrics(req.metrics, 0, ctx.stream, enqueue);
    r.host_ms.metrics = clock.lap();
  }
  return r;
}

}  // namespace

RunResult run_user_kernel(CudaContext& ctx, const VariantInfo& v, const RunRequest& req, const Input& in,
                          const LaunchConfig& launch) {
  return run(ctx, v, req, in, launch, nullptr);
}

RunResult run_user_kernel_traced(CudaContext& ctx, const VariantInfo& v, const RunRequest& req, const Input& in,
                                 const LaunchConfig& launch, const TraceSink& sink) {
  return run(ctx, v, req, in, launch, &sink);
}

}  // namespace ws::cuda
