// run_allreduce_on_gpus and visible_gpu_count in the CUDA build (collective/allreduce_run.hpp; the build
// without CUDA answers from collective/allreduce_gpus_none.cpp, in ws_backend_none). Checks the request
// and the machine, runs the method (methods.hpp) and fills what every method shares: bandwidths, the link,
// the measured peer copy and the device names. Every failure is a one-line error, never an exception.
#include <algorithm>
#include <exception>

#include "collective/methods.hpp"
#include "collective/schedule.hpp"
#include "collective/topology.hpp"
#include "common/check_cuda.hpp"

namespace ws::collective {

namespace cc = ws::cuda::collective;

int visible_gpu_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();  // no driver or no device: none visible
    return 0;
  }
  return n;
}

namespace {

/// The request's checks that need no GPU; "" when it can run.
std::string refusal(const AllReduceRequest& r, int visible, int gpus) {
  if (r.length < 1 || r.length > (std::int64_t(1) << 30))
    return "length must be 1 to 2^30 elements per GPU, not " + std::to_string(r.length);
  if (r.warmup < 0 || r.repeats < 0) return "warm-up and repeats must be >= 0";
  if (r.gpus < 0 || r.gpus > kMaxGpus) return "gpus must be 0 (all visible) to " + std::to_string(kMaxGpus);
  if (visible == 0) return "no CUDA GPU is visible to this process";
  if (gpus > visible)
    return std::string(to_string(r.method)) + " asks for " + std::to_string(gpus) + " GPUs; this machine shows " +
           std::to_string(visible);
  if (r.method != Method::HostAdd && gpus < 2)
    return std::string(to_string(r.method)) + " needs at least 2 GPUs; this machine shows " + std::to_string(visible);
  return "";
}

/// Makes the caller's current device current again when a run ends, however it ends (the methods leave
/// another device current; a worker's later single-GPU runs must stay on the device it opened).
class CurrentDeviceGuard {
 public:
  CurrentDeviceGuard() { saved_ = cudaGetDevice(&device_) == cudaSuccess; }
  ~CurrentDeviceGuard() {
    if (saved_) (void)cudaSetDevice(device_);  // no check: a destructor must not throw
  }
  CurrentDeviceGuard(const CurrentDeviceGuard&) = delete;
  CurrentDeviceGuard& operator=(const CurrentDeviceGuard&) = delete;

 private:
  int device_ = 0;
  bool saved_ = false;
};

/// The first line of an exception's message (WS_CUDA's are one line already).
std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

AllReduceResult run_allreduce_on_gpus(const AllReduceRequest& r) {
  AllReduceResult out;
  out.method = r.method;
  out.length = r.length;
  const int visible = visible_gpu_count();
  const int gpus = r.gpus > 0 ? r.gpus : std::min(visible, kMaxGpus);
  out.gpus = gpus;
  out.error = refusal(r, visible, gpus);
  if (!out.error.empty()) return out;
  const CurrentDeviceGuard keep_device;
  try {
    for (int g = 0; g < gpus; ++g) {
      cudaDeviceProp p{};
      WS_CUDA(cudaGetDeviceProperties(&p, g));
      out.device_names.push_back(p.name);
    }
    if (r.method != Method::HostAdd) {
      out.error = cc::enable_peer_access(gpus);
      if (!out.error.empty()) return out;
    }
    switch (r.method) {
      case Method::HostAdd:
      case Method::PeerToGpu0: cc::run_scalar_reduce(r, gpus, out); break;
      case Method::Ring:
      case Method::Tree: cc::run_schedule_all_reduce(r, gpus, out); break;
      case Method::NcclRing:
      case Method::NcclTree: cc::run_nccl_all_reduce(r, gpus, out); break;
    }
    if (!out.ran) return out;
    const std::int64_t bytes = r.length * std::int64_t(sizeof(float));  // int32 and float32 alike
    out.algbw_gbs = algorithm_bandwidth_gbs(bytes, out.median_ms);
    out.busbw_gbs = bus_bandwidth_gbs(bytes, out.median_ms, gpus);
    if (gpus >= 2) {
      const cc::Link link = cc::link_between(0, 1);
      out.link = link.name;
      out.link_gbs = link.gbs;
      try {  // the run stands without it: a failed measurement leaves peer_gbs 0
        // The link's copy, not a copy staged through the host: HostAdd enabled no peer access above (it
        // needs none); where it cannot be enabled, the copy measured is the one the machine offers.
        (void)cc::enable_peer_access(gpus);
        out.peer_gbs = cc::peer_copy_gbs(0, 1, bytes, std::clamp(r.warmup, 1, 3), std::clamp(r.repeats, 1, 10));
      } catch (const std::exception&) { out.peer_gbs = 0; }
    }
  } catch (const std::exception& e) {
    out.ran = false;
    out.correct = false;
    out.error = first_line(e.what());
  }
  return out;
}

}  // namespace ws::collective
