#include "gpu_fault_marks.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "file_write.hpp"

namespace ws {

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string boot_id() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(in, id);
  return id;
}

/// Makes `dir` (mode 0700) unless it exists; an existing one must be a directory of this user.
std::string own_directory(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return dir + ": " + std::strerror(errno);
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) return dir + ": " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) return dir + ": not a directory of this user";
  return "";
}

/// A file name for the mark of `gpu`: its UUID, else its PCI bus id with ':' made '-'.
std::string mark_file_name(const GpuIdentity& gpu) {
  std::string name = gpu.uuid.empty() ? "pci-" + normalize_pci_bus_id(gpu.pci_bus_id) : gpu.uuid;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '-';
  return name + ".json";
}

}  // namespace

std::string format_gpu_uuid(const unsigned char bytes[16]) {
  std::string s = "GPU-";
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    std::snprintf(hex, sizeof hex, "%02x", unsigned(bytes[i]));
    s += hex;
  }
  return s;
}

std::string normalize_pci_bus_id(const std::string& id) {
  std::string s;
  for (char c : id) s += char(std::tolower(static_cast<unsigned char>(c)));
  const auto colon = s.find(':');
  if (colon == std::string::npos || s.find(':', colon + 1) == std::string::npos) return s;  // no domain
  std::string domain = s.substr(0, colon);
  domain.erase(0, std::min(domain.find_first_not_of('0'), domain.size() - 1));
  return domain + s.substr(colon);
}

bool same_gpu(const GpuIdentity& a, const GpuIdentity& b) {
  if (!a.uuid.empty() && !b.uuid.empty()) {
    std::string x = a.uuid, y = b.uuid;
    std::transform(x.begin(), x.end(), x.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    std::transform(y.begin(), y.end(), y.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return x == y;
  }
  return !a.pci_bus_id.empty() && normalize_pci_bus_id(a.pci_bus_id) == normalize_pci_bus_id(b.pci_bus_id);
}

std::string gpu_fault_marks_dir() {
  if (std::string d = env("WARPSCOPE_GPU_FAULT_MARKS"); !d.empty()) return d;
  if (std::string run = env("XDG_RUNTIME_DIR"); !run.empty()) return run + "/warpscope/gpu-faults";
  return "/tmp/warpscope-" + std::to_string(::getuid()) + "/gpu-faults";
}

long long gpu_fault_marks_stamp() {
  struct stat st {};
  if (::stat(gpu_fault_marks_dir().c_str(), &st) != 0) return -1;
  return static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

std::string mark_gpu_faulted(const GpuIdentity& gpu, const std::string& why) {
  if (gpu.uuid.empty() && gpu.pci_bus_id.empty()) return "the GPU that faulted has neither UUID nor PCI bus id";
  const std::string dir = gpu_fault_marks_dir();
  // Make each level (…/warpscope, …/gpu-faults) ours; an override directory must exist already.
  if (env("WARPSCOPE_GPU_FAULT_MARKS").empty()) {
    const std::string parent = dir.substr(0, dir.rfind('/'));
    if (std::string e = own_directory(parent); !e.empty()) return "no GPU fault mark: " + e;
  }
  if (std::string e = own_directory(dir); !e.empty()) return "no GPU fault mark: " + e;
  const nlohmann::json j = {
      {"format", "warpscope-gpu-fault"},
      {"boot_id", boot_id()},
      {"time",
       std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count()},
      {"uuid", gpu.uuid},
      {"pci_bus_id", gpu.pci_bus_id},
      {"name", gpu.name},
      {"why", why}};
  if (std::string e = write_file_atomic(dir + "/" + mark_file_name(gpu), j.dump() + "\n"); !e.empty())
    return "no GPU fault mark: " + e;
  return "";
}

std::vector<GpuFaultMark> gpu_fault_marks() {
  std::vector<GpuFaultMark> marks;
  if (const std::string ignore = env("WARPSCOPE_IGNORE_GPU_FAULTS"); !ignore.empty() && ignore != "0") return marks;
  const std::string dir = gpu_fault_marks_dir(), boot = boot_id();
  DIR* d = ::opendir(dir.c_str());
  if (!d) return marks;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() < 6 || name.compare(name.size() - 5, 5, ".json") != 0 || name[0] == '.') continue;
    const std::string path = dir + "/" + name;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::getuid() || st.st_size > 65536)
      continue;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
    if (!j.is_object() || !j.contains("format") || j["format"] != "warpscope-gpu-fault") continue;
    const auto text_of = [&j](const char* key) {
      const auto it = j.find(key);
      return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (text_of("boot_id") != boot) continue;  // an earlier boot's (or a machine without a boot id: "" == "")
    GpuFaultMark m;
    m.gpu.uuid = text_of("uuid");
    m.gpu.pci_bus_id = text_of("pci_bus_id");
    m.gpu.name = text_of("name");
    const auto time = j.find("time");
    m.unix_time = time != j.end() && time->is_number_integer() ? time->get<long long>() : 0;
    m.why = text_of("why");
    if (!m.gpu.uuid.empty() || !m.gpu.pci_bus_id.empty()) marks.push_back(std::move(m));
  }
  ::closedir(d);
  std::sort(marks.begin(), marks.end(), [](const auto& a, const auto& b) { return a.unix_time > b.unix_time; });
  return marks;
}

const GpuFaultMark* find_fault_mark(const std::vector<GpuFaultMark>& marks, const GpuIdentity& gpu) {
  for (const auto& m : marks)
    if (same_gpu(m.gpu, gpu)) return &m;
  return nullptr;
}

}  // namespace ws
