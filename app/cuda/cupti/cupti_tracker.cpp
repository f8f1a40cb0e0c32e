#include "cupti/cupti_tracker.hpp"

#include <cupti.h>
#include <cupti_pcsampling.h>

#include <atomic>
#include <deque>
#include <mutex>

#include "cupti/cupti_check.hpp"

namespace ws::cuda {

void check_cupti(CUptiResult r, const char* call, const char* file, int line) {
  if (r == CUPTI_SUCCESS) return;
  const char* msg = nullptr;
  cuptiGetResultString(r, &msg);
  const char* base = file;
  for (const char* p = file; *p; ++p)
    if (*p == '/') base = p + 1;
  throw CuptiError(r,
                   std::string(base) + ":" + std::to_string(line) + ": " + call + ": " + (msg ? msg : "CUPTI error"));
}

std::string explain_cupti_error(const CuptiError& e) {
  if (e.code == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
    return "no permission to read GPU performance counters (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, ERR_NVGPUCTRPERM): "
           "run as root, or load the driver with NVreg_RestrictProfilingToAdminUsers=0 "
           "(options nvidia NVreg_RestrictProfilingToAdminUsers=0 in /etc/modprobe.d, then reboot); timings are "
           "unaffected";
  if (e.code == CUPTI_ERROR_NOT_SUPPORTED || e.code == CUPTI_ERROR_NOT_COMPATIBLE)
    return std::string("this GPU or driver does not support CUPTI profiling here: ") + e.what();
  return std::string("CUPTI: ") + e.what();
}

namespace {

struct Tracker {
  std::mutex mu;
  CUpti_SubscriberHandle sub = nullptr;
  bool started = false;
  std::string error;
  std::deque<LoadedCubin> cubins;  // deque: pointers stay valid as modules are added
  std::atomic<bool> capturing{false};
  std::vector<CapturedLaunch> launches;
};

Tracker& tracker() {
  static Tracker t;
  return t;
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  Tracker& t = tracker();
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
    const auto* rd = static_cast<const CUpti_ResourceData*>(data);
    const auto* mod = static_cast<const CUpti_ModuleResourceData*>(rd->resourceDescriptor);
    if (!mod || !mod->pCubin || mod->cubinSize == 0) return;
    LoadedCubin c;
    c.image.assign(mod->pCubin, mod->pCubin + mod->cubinSize);
    CUpti_GetCubinCrcParams p{};
    p.size = CUpti_GetCubinCrcParamsSize;
    p.cubin = c.image.data();
    p.cubinSize = c.image.size();
    if (cuptiGetCubinCrc(&p) == CUPTI_SUCCESS) c.crc = p.cubinCrc;
    std::lock_guard<std::mutex> lock(t.mu);
    t.cubins.push_back(std::move(c));
    return;
  }
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API || !t.capturing.load()) return;
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  if (cb->callbackSite != CUPTI_API_ENTER) return;
  CapturedLaunch l;
  if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel || cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz) {
    const auto* p = static_cast<const cuLaunchKernel_params*>(cb->functionParams);
    l.function = p->f;
    l.grid = p->gridDimX * p->gridDimY * p->gridDimZ;
    l.block = p->blockDimX * p->blockDimY * p->blockDimZ;
    l.dynamic_smem = p->sharedMemBytes;
  } else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
             cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz) {
    const auto* p = static_cast<const cuLaunchKernelEx_params*>(cb->functionParams);
    l.function = p->f;
    if (p->config) {
      l.grid = p->config->gridDimX * p->config->gridDimY * p->config->gridDimZ;
      l.block = p->config->blockDimX * p->config->blockDimY * p->config->blockDimZ;
      l.dynamic_smem = p->config->sharedMemBytes;
    }
  } else {
    return;
  }
  if (cb->symbolName) l.name = cb->symbolName;
  std::lock_guard<std::mutex> lock(t.mu);
  t.launches.push_back(std::move(l));
}

}  // namespace

std::string start_cupti_tracking() {
  Tracker& t = tracker();
  std::lock_guard<std::mutex> lock(t.mu);
  if (t.started) return t.error;
  t.started = true;
  try {
    WS_CUPTI(cuptiSubscribe(&t.sub, on_callback, nullptr));
    WS_CUPTI(cuptiEnableCallback(1, t.sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED));
  } catch (const CuptiError& e) { t.error = explain_cupti_error(e); }
  return t.error;
}

namespace {
// Launch callbacks are on only while capturing, so timed launches pay nothing for them.
void enable_launch_callbacks(Tracker& t, bool on) {
  if (!t.sub) return;
  for (CUpti_CallbackId id : {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                              CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz})
    cuptiEnableCallback(on ? 1 : 0, t.sub, CUPTI_CB_DOMAIN_DRIVER_API, id);
}
}  // namespace

void begin_launch_capture() {
  Tracker& t = tracker();
  std::lock_guard<std::mutex> lock(t.mu);
  t.launches.clear();
  t.capturing = true;
  enable_launch_callbacks(t, true);
}

std::vector<CapturedLaunch> end_launch_capture() {
  Tracker& t = tracker();
  t.capturing = false;
  enable_launch_callbacks(t, false);
  std::lock_guard<std::mutex> lock(t.mu);
  return std::move(t.launches);
}

std::vector<const LoadedCubin*> loaded_cubins() {
  Tracker& t = tracker();
  std::lock_guard<std::mutex> lock(t.mu);
  std::vector<const LoadedCubin*> out;
  for (const auto& c : t.cubins) out.push_back(&c);
  return out;
}

}  // namespace ws::cuda
