#include "user_kernel.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <system_error>

#include "registry.hpp"

#ifndef WS_SOURCE_KERNELS
#define WS_SOURCE_KERNELS ""
#endif

namespace ws {

namespace {

// One line each: the signature the tool launches and what the output must hold. The run's check is the
// base variant's pattern reference; its input padding and launch rules are described in
// docs/your-kernel.md.
constexpr KernelContract kContracts[] = {
    {PatternKind::Reduction, "extern \"C\" __global__ void kernel(const int* in, int* out, unsigned n)",
     "out holds grid ints set to 0 before each launch; the answer is the sum of out[0..grid) (atomicAdd into "
     "out[0], or one partial sum per block in out[blockIdx.x]). in holds n ints, then zeros up to the last "
     "block's window.",
     "epita.reduce3", 256},
    {PatternKind::Scan, "extern \"C\" __global__ void kernel(const int* in, int* out, unsigned n, int* scratch)",
     "out[i] must hold in[0] + ... + in[i] (inclusive sum) for i < n; scratch holds 2 * grid + 2 ints set to 0 "
     "before each launch (block sums and flags for a single-pass scan).",
     "stevens.scan_hierarchical", 256},
    {PatternKind::Convolution,
     "extern \"C\" __global__ void kernel(const float* in, const float* mask, float* out, unsigned n, "
     "unsigned mask_width)",
     "out[i] = sum over j < mask_width of mask[j] * in[i + j - mask_width / 2], elements outside 0..n-1 "
     "counting 0 (1-D, ghost cells 0).",
     "stevens.conv1d_basic", 256},
    {PatternKind::Atomics, "extern \"C\" __global__ void kernel(const unsigned char* in, unsigned* bins, unsigned n)",
     "bins holds 256 counters set to 0 before each launch; bins[b] must count the bytes of in equal to b.",
     "cs121.hist_global", 256},
};

std::string trim(const std::string& s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

bool parse_int(const std::string& s, std::int64_t& out) {
  if (s.empty() || s.size() > 12) return false;
  std::int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

const KernelContract* kernel_contract(PatternKind pattern) {
  for (const KernelContract& c : kContracts)
    if (c.pattern == pattern) return &c;
  return nullptr;
}

std::vector<PatternKind> kernel_contract_patterns() {
  std::vector<PatternKind> out;
  for (const KernelContract& c : kContracts) out.push_back(c.pattern);
  return out;
}

std::string parse_kernel_header(const std::string& source, const std::string& file, KernelHeader& out) {
  out = KernelHeader{};
  std::istringstream in(source);
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    std::string t = trim(text);
    if (t.compare(0, 2, "//") != 0) continue;
    t = "// " + trim(t.substr(2));  // "//warpscope:" and "//   warpscope:" too
    static const std::string kTag = "// warpscope:";
    if (t.compare(0, kTag.size(), kTag) != 0) continue;
    if (out.line == 0) out.line = line;
    const std::string where = file + ":" + std::to_string(line) + ": warpscope header: ";
    std::istringstream words(t.substr(kTag.size()));
    std::string word;
    while (words >> word) {
      const std::size_t eq = word.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == word.size())
        return where + "'" + word +
               "' is not key=value (keys: block, items, grid, shared, entry, pattern, mask_symbol)";
      const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
      std::int64_t v = 0;
      if (key == "block") {
        if (!parse_int(value, v) || v < 1 || v > 1024) return where + "block=" + value + " must be 1..1024 threads";
        out.block = int(v);
      } else if (key == "items") {
        if (!parse_int(value, v) || v < 1 || v > 64)
          return where + "items=" + value + " must be 1..64 elements per thread";
        out.items = int(v);
      } else if (key == "grid") {
        if (!parse_int(value, v) || v < 1 || v > (std::int64_t(1) << 31) - 1)
          return where + "grid=" + value + " must be 1..2^31-1 blocks";
        out.grid = v;
      } else if (key == "shared") {
        if (shared_bytes(value, 1, 1) < 0)
          return where + "shared=" + value + " must be bytes: a number, block*K or items*block*K, or a sum of them";
        out.shared = value;
      } else if (key == "entry") {
        out.entry = value;
      } else if (key == "mask_symbol") {
        const bool ident = (std::isalpha(static_cast<unsigned char>(value[0])) || value[0] == '_') &&
                           std::all_of(value.begin(), value.end(),
                                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
        if (!ident) return where + "mask_symbol=" + value + " must name a __constant__ array (an identifier)";
        out.mask_symbol = value;
      } else if (key == "pattern") {
        PatternKind p;
        if (!parse_pattern(value, p) || !kernel_contract(p)) {
          std::string names;
          for (PatternKind q : kernel_contract_patterns())
            names += (names.empty() ? "" : ", ") + std::string(to_string(q));
          return where + "pattern=" + value + " is not one of " + names;
        }
        out.pattern = value;
      } else {
        return where + "unknown key '" + key + "' (keys: block, items, grid, shared, entry, pattern, mask_symbol)";
      }
    }
  }
  return "";
}

std::int64_t shared_bytes(const std::string& expr, int block, int items) {
  if (expr.empty()) return 0;
  // A sum of terms: "block*4+56" (a tile and its halo).
  if (const std::size_t plus = expr.find('+'); plus != std::string::npos) {
    const std::int64_t a = plus > 0 ? shared_bytes(expr.substr(0, plus), block, items) : -1;
    const std::int64_t b = plus + 1 < expr.size() ? shared_bytes(expr.substr(plus + 1), block, items) : -1;
    return a < 0 || b < 0 || a + b > (std::int64_t(1) << 32) ? -1 : a + b;
  }
  std::int64_t product = 1;
  std::size_t start = 0;
  while (start <= expr.size()) {
    const std::size_t star = expr.find('*', start);
    const std::string factor = expr.substr(start, star == std::string::npos ? std::string::npos : star - start);
    std::int64_t v = 0;
    if (factor == "block") {
      product *= block;
    } else if (factor == "items") {
      product *= items;
    } else if (parse_int(factor, v)) {
      product *= v;
    } else {
      return -1;
    }
    if (product > (std::int64_t(1) << 32)) return -1;
    if (star == std::string::npos) break;
    start = star + 1;
  }
  return product;
}

std::string check_kernel_source(const std::string& source, const std::string& file) {
  if (source.size() > kMaxKernelSourceBytes)
    return file + " is " + std::to_string(source.size()) + " bytes: kernel sources are limited to 1 MiB (" +
           std::to_string(kMaxKernelSourceBytes) + " bytes)";
  if (trim(source).empty()) return file + " is empty: write a kernel (docs/your-kernel.md shows one per pattern)";
  if (source.find('\0') != std::string::npos) return file + " holds a NUL byte: is it a text file?";
  std::istringstream in(source);
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    std::string t = trim(text);
    if (t.empty() || t[0] != '#') continue;
    t = trim(t.substr(1));
    if (t.compare(0, 7, "include") != 0) continue;
    const std::string path = trim(t.substr(7));
    if (path.size() < 2) continue;
    const std::string inner = path.substr(1, path.find_first_of("\">", 1) - 1);
    const std::string where = file + ":" + std::to_string(line) + ": ";
    if (!inner.empty() && inner[0] == '/')
      return where +
             "#include of an absolute path: only warpscope's kernel headers (\"common/...\") and CUDA's "
             "are on the include path";
    if (inner == ".." || inner.compare(0, 3, "../") == 0 || inner.find("/../") != std::string::npos)
      return where +
             "#include climbs out with \"..\": only warpscope's kernel headers and CUDA's are on the "
             "include path";
  }
  return "";
}

std::vector<KernelDiagnostic> parse_compile_log(const std::string& log, const std::string& program) {
  std::vector<KernelDiagnostic> out;
  std::istringstream in(log);
  std::string text;
  while (std::getline(in, text)) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (trim(text).empty()) continue;
    // "N errors detected in the compilation of "kernel.cu"." closes every failing log: the count is ours.
    if (text.find("detected in the compilation of") != std::string::npos) continue;
    KernelDiagnostic d;
    // NAME(LINE): SEVERITY: MESSAGE   (NVRTC, like nvcc's front end)
    const std::size_t open = text.find('(');
    const std::size_t close = open == std::string::npos ? std::string::npos : text.find("): ", open);
    std::int64_t line = 0;
    if (open != std::string::npos && close != std::string::npos && open > 0 &&
        parse_int(text.substr(open + 1, close - open - 1), line)) {
      d.file = text.substr(0, open);
      d.line = int(line);
      std::string rest = text.substr(close + 3);
      // "error: ...", "warning #177-D: ...", "catastrophic error: ...": the severity, then its number if any.
      for (const char* sev : {"catastrophic error", "error", "warning", "remark", "note"}) {
        const std::string tag = sev;
        if (rest.compare(0, tag.size(), tag) != 0 || rest.size() <= tag.size()) continue;
        if (rest[tag.size()] != ':' && rest[tag.size()] != ' ') continue;
        const std::size_t colon = rest.find(": ", tag.size());
        if (colon == std::string::npos) continue;
        d.severity = tag == "catastrophic error" ? "error" : tag;
        rest = rest.substr(colon + 2);
        break;
      }
      if (d.severity.empty()) d.severity = "note";
      d.message = trim(rest);
    } else if (text[0] == ' ' || text[0] == '\t') {
      continue;  // the source line echoed and its caret: the line number already points there
    } else {
      d.file = program;
      const std::string t = trim(text);
      d.severity = t.find("error") != std::string::npos ? "error" : "note";
      d.message = t;
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string format_diagnostics(const std::vector<KernelDiagnostic>& d, const std::string& file) {
  std::string s;
  for (const KernelDiagnostic& x : d) {
    s += x.file.empty() ? file : x.file;
    if (x.line > 0) s += ":" + std::to_string(x.line);
    s += ": " + x.severity + ": " + x.message + "\n";
  }
  return s;
}

std::string kernel_cache_key(const std::string& source, const std::string& entry, int cc_major, int cc_minor,
                             const std::vector<std::string>& options, const std::string& compiler_version) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a 64
  auto feed = [&](const std::string& s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= 0xff;  // a separator no text byte sequence can fake, so ("ab","c") differs from ("a","bc")
    h *= 1099511628211ull;
  };
  feed(source);
  feed(entry);
  feed(std::to_string(cc_major) + "." + std::to_string(cc_minor));
  for (const std::string& o : options) feed(o);
  feed(compiler_version);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string user_kernel_variant(const UserKernel& k, VariantInfo& out) {
  const KernelContract* c = kernel_contract(k.pattern);
  if (!c) return std::string("the ") + to_string(k.pattern) + " pattern has no kernel contract yet";
  KernelHeader h;
  if (std::string e = parse_kernel_header(k.source, k.file, h); !e.empty()) return e;
  const VariantInfo* like = nullptr;
  if (!k.like.empty()) {
    like = find_variant(k.like);
    if (!like) return "--like: unknown variant '" + k.like + "' (warpscope-cli list shows the ids)";
    if (like->pattern != k.pattern)
      return "--like " + k.like + " is a " + to_string(like->pattern) + " variant, the kernel follows the " +
             to_string(k.pattern) + " contract (--pattern)";
    if (like->cpu_only) return "--like " + k.like + " runs on the CPU: it has no kernel launch to copy";
  }
  const VariantInfo* base = find_variant(c->base_variant);
  if (!base) return std::string("the contract's base variant ") + c->base_variant + " is not in this build";
  out = *base;
  out.op = like ? like->op : base->op;  // a copy of a maximum is checked against the maximum, not a sum
  out.id = user_kernel_label(k);
  out.lesson = like ? like->lesson : "yours";
  out.title = out.id;
  out.seed.clear();
  out.slide.clear();
  out.description = std::string("A kernel compiled at run time against the contract ") + c->signature + ".";
  out.beyond_slides = true;
  out.racy = out.baseline = out.cpu_only = out.writes_input = out.cautionary = out.traceable = false;
  out.any_order = false;
  out.caution.clear();
  out.default_input.clear();
  out.slide_model = nullptr;
  out.no_gpu_trace = "a kernel compiled at run time has no trace build";
  LaunchRules r;
  r.default_block = like ? like->rules.default_block : c->default_block;
  if (like && like->rules.fixed_block) r.default_block = like->rules.fixed_block;
  r.min_block = 1;
  r.max_block = 1024;
  r.warp_multiple = false;
  r.items_per_thread = like ? like->rules.items_per_thread : 1;
  r.grid_stride = like && like->rules.grid_stride;
  r.max_grid = like ? like->rules.max_grid : 0;
  r.max_n = base->rules.max_n;
  r.int_only = base->rules.int_only;
  r.int_only_reason = base->rules.int_only_reason;
  r.bytes_input = base->rules.bytes_input;
  if (k.pattern == PatternKind::Reduction || k.pattern == PatternKind::Scan) {
    r.int_only = true;
    r.int_only_reason = "the kernel contract passes int*";
  }
  if (h.block) r.default_block = h.block;
  if (h.items) r.items_per_thread = h.items;
  if (h.grid) {
    r.grid_stride = true;
    r.max_grid = h.grid;
  }
  r.note = "your kernel's launch: the file's `// warpscope:` header, else --like's, else the contract's";
  out.rules = r;
  return "";
}

std::string kernel_include_dir() {
  if (const char* env = std::getenv("WARPSCOPE_KERNELS"); env && *env) return env;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && !exe.empty()) {
    const std::filesystem::path installed = exe.parent_path().parent_path() / "share" / "warpscope" / "kernels";
    if (std::filesystem::is_directory(installed / "common", ec)) return installed.string();
  }
  return WS_SOURCE_KERNELS;
}

std::string user_kernel_label(const UserKernel& k) {
  if (!k.label.empty()) return k.label;
  if (!k.like.empty()) return k.like + " (edited)";
  return base_name(k.file) + " (your kernel)";
}

}  // namespace ws
