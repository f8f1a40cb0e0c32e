#include "collective/nccl_api.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>

#if WS_HAVE_NCCL
#include <nccl.h>
#endif

namespace ws::cuda::collective {

#if WS_HAVE_NCCL

namespace {

struct Nccl {
  decltype(&ncclGetVersion) get_version = nullptr;
  decltype(&ncclCommInitAll) comm_init_all = nullptr;
  decltype(&ncclAllReduce) all_reduce = nullptr;
  decltype(&ncclGroupStart) group_start = nullptr;
  decltype(&ncclGroupEnd) group_end = nullptr;
  decltype(&ncclGetErrorString) error_string = nullptr;
};

template <typename F>
void bind(void* lib, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
}

/// The library, opened once: libnccl.so.2 from the loader's path, else the one CMake found.
const Nccl* nccl(std::string& error) {
  static std::string load_error;
  static const Nccl* loaded = []() -> const Nccl* {
    void* lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_GLOBAL);
#ifdef WS_NCCL_LIBRARY
    if (!lib) lib = dlopen(WS_NCCL_LIBRARY, RTLD_NOW | RTLD_GLOBAL);
#endif
    if (!lib) {
      const char* why = dlerror();
      load_error =
          std::string("NCCL is not installed on this machine (") + (why ? why : "libnccl.so.2 not found") + ")";
      return nullptr;
    }
    static Nccl n;
    bind(lib, "ncclGetVersion", n.get_version);
    bind(lib, "ncclCommInitAll", n.comm_init_all);
    bind(lib, "ncclAllReduce", n.all_reduce);
    bind(lib, "ncclGroupStart", n.group_start);
    bind(lib, "ncclGroupEnd", n.group_end);
    bind(lib, "ncclGetErrorString", n.error_string);
    if (!n.get_version || !n.comm_init_all || !n.all_reduce || !n.group_start || !n.group_end || !n.error_string) {
      load_error = "the NCCL library found lacks ncclCommInitAll or ncclAllReduce";
      return nullptr;
    }
    return &n;
  }();
  if (!loaded) error = load_error;
  return loaded;
}

std::string describe(const Nccl& n, ncclResult_t r) { return n.error_string(r); }

}  // namespace

bool nccl_built() { return true; }

std::string nccl_version(std::string& error) {
  const Nccl* n = nccl(error);
  if (!n) return "";
  int v = 0;
  if (n->get_version(&v) != ncclSuccess) {
    error = "ncclGetVersion failed";
    return "";
  }
  // NCCL_VERSION(X, Y, Z) = X * 10000 + Y * 100 + Z since 2.9.
  return "NCCL " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

const std::vector<void*>* nccl_communicators(const std::string& algo, int gpus, std::string& error) {
  const Nccl* n = nccl(error);
  if (!n) return nullptr;
  static std::mutex m;
  static std::map<std::pair<std::string, int>, std::vector<void*>> made;
  std::lock_guard<std::mutex> lock(m);
  auto it = made.find({algo, gpus});
  if (it != made.end()) return &it->second;
  setenv("NCCL_NVLS_ENABLE", "0", 1);  // NVLink multicast stays off (never cuMulticastCreate)
  const char* before = getenv("NCCL_ALGO");
  const std::string saved = before ? before : "";
  setenv("NCCL_ALGO", algo.c_str(), 1);
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(gpus), nullptr);
  std::vector<int> devices(static_cast<std::size_t>(gpus));
  for (int g = 0; g < gpus; ++g) devices[std::size_t(g)] = g;
  const ncclResult_t r = n->comm_init_all(comms.data(), gpus, devices.data());
  if (before)
    setenv("NCCL_ALGO", saved.c_str(), 1);
  else
    unsetenv("NCCL_ALGO");
  if (r != ncclSuccess) {
    error = "ncclCommInitAll on " + std::to_string(gpus) + " GPUs (NCCL_ALGO=" + algo + "): " + describe(*n, r);
    return nullptr;
  }
  std::vector<void*> opaque(comms.begin(), comms.end());
  return &made.emplace(std::make_pair(algo, gpus), std::move(opaque)).first->second;
}

std::string nccl_all_reduce_sum(const std::vector<void*>& comms, const std::vector<float*>& buffers, std::size_t count,
                                const std::vector<cudaStream_t>& streams) {
  std::string error;
  const Nccl* n = nccl(error);
  if (!n) return error;
  if (comms.size() != buffers.size() || comms.size() != streams.size())
    return "nccl_all_reduce_sum: one communicator, buffer and stream per GPU";
  ncclResult_t r = n->group_start();
  for (std::size_t g = 0; g < comms.size() && r == ncclSuccess; ++g)
    r = n->all_reduce(buffers[g], buffers[g], count, ncclFloat, ncclSum, static_cast<ncclComm_t>(comms[g]), streams[g]);
  const ncclResult_t end = n->group_end();
  if (r == ncclSuccess) r = end;
  return r == ncclSuccess ? "" : "ncclAllReduce: " + describe(*n, r);
}

#else  // built without nccl.h

namespace {
const char* const kNoNccl = "this build has no NCCL (nccl.h was not found when it was configured)";
}

bool nccl_built() { return false; }

std::string nccl_version(std::string& error) {
  error = kNoNccl;
  return "";
}

const std::vector<void*>* nccl_communicators(const std::string&, int, std::string& error) {
  error = kNoNccl;
  return nullptr;
}

std::string nccl_all_reduce_sum(const std::vector<void*>&, const std::vector<float*>&, std::size_t,
                                const std::vector<cudaStream_t>&) {
  return kNoNccl;
}

#endif

}  // namespace ws::cuda::collective
