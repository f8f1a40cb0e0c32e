// compile_user_kernel with NVRTC (kernel_compile.hpp). NVRTC needs no GPU: the worker compiles for its own
// device's architecture, and a machine without one still compiles and reports errors.
#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <system_error>

#include "file_write.hpp"
#include "kernel_compile.hpp"

#ifndef WS_CUDA_INCLUDE_DIRS
#define WS_CUDA_INCLUDE_DIRS ""
#endif

namespace ws {

namespace {

using Clock = std::chrono::steady_clock;

/// The deadline NVRTC's flow callback checks: returning 1 cancels the compile (NVRTC_ERROR_CANCELLED).
struct Deadline {
  Clock::time_point at;
};

int past_deadline(void* payload, void*) { return Clock::now() >= static_cast<Deadline*>(payload)->at ? 1 : 0; }

std::vector<std::string> split_dirs(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t semi = s.find('|', start);
    std::string d = s.substr(start, semi == std::string::npos ? std::string::npos : semi - start);
    if (!d.empty()) out.push_back(d);
    if (semi == std::string::npos) break;
    start = semi + 1;
  }
  return out;
}

/// sm_XY when NVRTC knows it (a cubin), else the newest virtual architecture below it (PTX the driver
/// compiles when loading): a GPU newer than the toolkit still runs.
std::string arch_option(int major, int minor) {
  const int want = major * 10 + minor;
  int count = 0;
  std::vector<int> archs;
  if (nvrtcGetNumSupportedArchs(&count) == NVRTC_SUCCESS && count > 0) {
    archs.resize(std::size_t(count));
    if (nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) archs.clear();
  }
  if (archs.empty() || std::find(archs.begin(), archs.end(), want) != archs.end())
    return "--gpu-architecture=sm_" + std::to_string(want);
  int best = archs.front();
  for (int a : archs)
    if (a <= want) best = std::max(best, a);
  return "--gpu-architecture=compute_" + std::to_string(best);
}

std::string cache_dir_of(const CompileOptions& o) {
  if (o.cache_dir == "-") return "";
  if (!o.cache_dir.empty()) return o.cache_dir;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/warpscope/kernels";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/warpscope/kernels";
  return "";
}

// Disk cache file: "wsk1\n" LOWERED "\n" LOG_BYTES "\n" LOG IMAGE.
bool read_cached(const std::string& path, CompileResult& r) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string magic, lowered, log_len;
  if (!std::getline(in, magic) || magic != "wsk1" || !std::getline(in, lowered) || !std::getline(in, log_len))
    return false;
  std::size_t n = 0;
  try {
    n = std::stoul(log_len);
  } catch (...) { return false; }
  std::string log(n, '\0');
  if (!in.read(log.data(), std::streamsize(n))) return false;
  std::vector<unsigned char> image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (image.empty()) return false;
  r.lowered_entry = lowered;
  r.log = log;
  r.image = std::move(image);
  return true;
}

void write_cached(const std::string& dir, const std::string& path, const CompileResult& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return;  // a cache that cannot be written costs a compile next time, nothing else
  std::string bytes = "wsk1\n" + r.lowered_entry + "\n" + std::to_string(r.log.size()) + "\n" + r.log;
  bytes.append(reinterpret_cast<const char*>(r.image.data()), r.image.size());
  (void)write_file_atomic(path, bytes);
}

std::mutex g_cache_mutex;
std::map<std::string, CompileResult> g_memory_cache;

}  // namespace

bool built_with_nvrtc() { return true; }

std::string nvrtc_version() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "";
  return std::to_string(major) + "." + std::to_string(minor);
}

CompileResult compile_user_kernel(const std::string& source, const CompileOptions& o) {
  const Clock::time_point t0 = Clock::now();
  CompileResult r;
  auto done = [&]() -> CompileResult {
    r.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return r;
  };
  if (std::string why = check_kernel_source(source, o.file); !why.empty()) {
    r.status = CompileStatus::Refused;
    r.error = why;
    return done();
  }
  std::vector<std::string> options = {arch_option(o.cc_major, o.cc_minor), "-lineinfo", "--std=c++17", "-DWS_NVRTC=1"};
  std::vector<std::string> includes = o.include_dirs;
  if (includes.empty()) includes.push_back(kernel_include_dir());
  for (const std::string& d : split_dirs(WS_CUDA_INCLUDE_DIRS)) includes.push_back(d);
  for (const std::string& d : includes)
    if (!d.empty()) options.push_back("--include-path=" + d);
  for (const std::string& d : o.defines) options.push_back("-D" + d);
  for (const std::string& h : o.pre_includes) options.push_back("--pre-include=" + h);
  const std::string entry = o.entry.empty() ? "kernel" : o.entry;
  // The file name is part of the key: the module's line table names it (per-line metrics, messages).
  std::vector<std::string> keyed = options;
  keyed.push_back("file=" + o.file);
  for (const auto& [name, text] : o.headers) keyed.push_back("header " + name + "\n" + text);
  r.key = kernel_cache_key(source, entry, o.cc_major, o.cc_minor, keyed, nvrtc_version());
  {
    const std::lock_guard<std::mutex> lock(g_cache_mutex);
    if (auto it = g_memory_cache.find(r.key); it != g_memory_cache.end()) {
      r = it->second;
      r.cached = true;
      return done();
    }
  }
  const std::string dir = cache_dir_of(o);
  const std::string path = dir.empty() ? "" : dir + "/" + r.key + ".wsk";
  if (!path.empty() && read_cached(path, r)) {
    r.status = CompileStatus::Ok;
    r.diagnostics = parse_compile_log(r.log, o.file);
    r.cached = true;
    const std::lock_guard<std::mutex> lock(g_cache_mutex);
    g_memory_cache[r.key] = r;
    return done();
  }

  nvrtcProgram prog = nullptr;
  std::vector<const char*> header_texts, header_names;
  for (const auto& [name, text] : o.headers) {
    header_names.push_back(name.c_str());
    header_texts.push_back(text.c_str());
  }
  if (nvrtcResult e = nvrtcCreateProgram(&prog, source.c_str(), o.file.c_str(), int(o.headers.size()),
                                         header_texts.data(), header_names.data());
      e != NVRTC_SUCCESS) {
    r.status = CompileStatus::NoCompiler;
    r.error = std::string("NVRTC could not create a program: ") + nvrtcGetErrorString(e);
    return done();
  }
  struct ProgramGuard {
    nvrtcProgram& p;
    ~ProgramGuard() { nvrtcDestroyProgram(&p); }
  } guard{prog};
  // A name expression finds the entry whether it is extern "C", mangled or a template instantiation.
  nvrtcAddNameExpression(prog, entry.c_str());
  Deadline deadline{t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.timeout_s))};
  nvrtcSetFlowCallback(prog, past_deadline, &deadline);
  std::vector<const char*> argv;
  for (const std::string& s : options) argv.push_back(s.c_str());
  const nvrtcResult compiled = nvrtcCompileProgram(prog, int(argv.size()), argv.data());
  std::size_t log_size = 0;
  if (nvrtcGetProgramLogSize(prog, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    r.log.resize(log_size);
    nvrtcGetProgramLog(prog, r.log.data());
    r.log.resize(log_size - 1);  // the terminating NUL
  }
  r.diagnostics = parse_compile_log(r.log, o.file);
  if (compiled == NVRTC_ERROR_CANCELLED) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%g", o.timeout_s);
    r.status = CompileStatus::TimedOut;
    r.error = o.file + ": the compile took longer than " + secs + " s and was stopped (the limit for a kernel)";
    return done();
  }
  if (compiled != NVRTC_SUCCESS) {
    // A missing entry shows up as an error in the name map NVRTC compiles for the name expression.
    for (const KernelDiagnostic& d : r.diagnostics)
      if (d.severity == "error" && d.file == "__nv_name_map") {
        r.status = CompileStatus::EntryMissing;
        r.error = o.file + ": no __global__ function '" + entry +
                  "' (the contract's entry is `kernel`; --entry NAME or `// warpscope: entry=NAME` names another)";
        r.diagnostics.clear();
        return done();
      }
    r.status = CompileStatus::Failed;
    for (const KernelDiagnostic& d : r.diagnostics)
      if (d.severity == "error") {
        r.error = format_diagnostics({d}, o.file);
        if (!r.error.empty() && r.error.back() == '\n') r.error.pop_back();
        break;
      }
    if (r.error.empty()) r.error = o.file + ": the compile failed (" + std::string(nvrtcGetErrorString(compiled)) + ")";
    return done();
  }
  const char* lowered = nullptr;
  if (nvrtcGetLoweredName(prog, entry.c_str(), &lowered) != NVRTC_SUCCESS || !lowered) {
    r.status = CompileStatus::EntryMissing;
    r.error = o.file + ": no __global__ function '" + entry + "'";
    return done();
  }
  r.lowered_entry = lowered;
  std::size_t size = 0;
  const bool cubin = options[0].find("sm_") != std::string::npos;
  if (cubin ? nvrtcGetCUBINSize(prog, &size) != NVRTC_SUCCESS : nvrtcGetPTXSize(prog, &size) != NVRTC_SUCCESS) {
    r.status = CompileStatus::Failed;
    r.error = o.file + ": NVRTC produced no module";
    return done();
  }
  r.image.resize(size);
  if (cubin)
    nvrtcGetCUBIN(prog, reinterpret_cast<char*>(r.image.data()));
  else
    nvrtcGetPTX(prog, reinterpret_cast<char*>(r.image.data()));
  r.status = CompileStatus::Ok;
  if (!path.empty()) write_cached(dir, path, r);
  {
    const std::lock_guard<std::mutex> lock(g_cache_mutex);
    g_memory_cache[r.key] = r;
  }
  return done();
}

}  // namespace ws
