#include "kernel_sources.hpp"

#include <algorithm>
#include <cctype>

namespace ws::ui {

namespace {

bool starts_with(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }
bool contains(const std::string& s, const char* p) { return s.find(p) != std::string::npos; }

std::string trim_left(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

/// "// epita.reduce3. Seed 000 ..." -> "epita.reduce3" (the first word, trailing punctuation dropped);
/// "" for a "/// ..." docstring line.
std::string header_id(const std::string& line) {
  if (!starts_with(line, "// ")) return "";
  std::string w = line.substr(3);
  w = w.substr(0, w.find(' '));
  while (!w.empty() && (w.back() == '.' || w.back() == ',' || w.back() == ':')) w.pop_back();
  return w;
}

/// The name of the kernel's input pointer: the first `const T*` parameter of the section's
/// __global__ signature, else its first pointer parameter. "" when the section has no kernel.
std::string input_pointer(const std::string& section) {
  const std::size_t g = section.find("__global__");
  if (g == std::string::npos) return "";
  const std::size_t open = section.find('(', g), close = section.find(')', g);
  if (open == std::string::npos || close == std::string::npos || close < open) return "";
  const std::string params = section.substr(open + 1, close - open - 1);
  std::string first_ptr, first_const;
  std::size_t start = 0;
  while (start <= params.size()) {
    std::size_t end = params.find(',', start);
    if (end == std::string::npos) end = params.size();
    const std::string p = params.substr(start, end - start);
    const std::size_t star = p.rfind('*');
    if (star != std::string::npos) {
      std::string name = trim_left(p.substr(star + 1));
      while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
      if (first_ptr.empty()) first_ptr = name;
      if (first_const.empty() && contains(p, "const")) first_const = name;
    }
    start = end + 1;
  }
  return first_const.empty() ? first_ptr : first_const;
}

/// Whether `line` has `name[` with `name` not part of a longer identifier.
bool indexes(const std::string& line, const std::string& name) {
  if (name.empty()) return false;
  const std::string pat = name + "[";
  for (std::size_t at = line.find(pat); at != std::string::npos; at = line.find(pat, at + 1)) {
    if (at == 0) return true;
    const char c = line[at - 1];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string strip_trace_instrumentation(const std::string& line) {
  std::string out = line;
  for (std::size_t at = out.find("WS_T("); at != std::string::npos; at = out.find("WS_T(")) {
    std::size_t i = at + 5;
    for (int depth = 1; i < out.size() && depth > 0; ++i) depth += out[i] == '(' ? 1 : out[i] == ')' ? -1 : 0;
    std::size_t from = at;
    const std::size_t code = out.find_first_not_of(' ');
    if (from > 0 && out[from - 1] == ' ' && code < from - 1 && (i >= out.size() || out[i] == ' ' || out[i] == ')' || out[i] == ';'))
      --from;  // "tid WS_T(, c))" -> "tid)"; "x; WS_T(...) y" -> "x; y"
    out.erase(from, i - from);
  }
  return out;
}

std::string variant_source(const std::string& id) { return find_section(id).text; }

SourceSection find_section(const std::string& id) {
  if (id == "amp.sequential")
    return {"", 1, "// amp.sequential runs on the CPU (std::accumulate over the input): there is no kernel.\n", {1}};
  for (const KernelFile& f : kernel_files()) {
    if (id == "cub.reduce" && std::string(f.name) == "cub_reduce.cu") {
      SourceSection sec{f.name, 1, f.text, {}};
      for (std::size_t k = 0; k < split_lines(f.text).size(); ++k) sec.line_numbers.push_back(int(k) + 1);
      return sec;
    }
    const std::vector<std::string> lines = split_lines(f.text);
    // The "// <id>" line; usually right under a rule, but a section may open with a helper the
    // variant calls (epita.reduce6's warpReduce), so the section starts at the rule before it.
    for (std::size_t k = 0; k < lines.size(); ++k) {
      if (header_id(lines[k]) != id) continue;
      std::size_t i = k;
      while (i > 0 && !starts_with(lines[i], "// ----")) --i;
      if (!starts_with(lines[i], "// ----")) i = k;
      std::size_t end = k + 1;
      while (end < lines.size() && !starts_with(lines[end], "// ----")) ++end;
      while (end > i + 1 && trim_left(lines[end - 1]).empty()) --end;
      SourceSection sec{f.name, int(i) + 1, "", {}};
      for (std::size_t k = i; k < end; ++k) {
        const std::string code = strip_trace_instrumentation(lines[k]);
        if (code != lines[k] && trim_left(code).empty()) continue;  // an instrumentation-only line
        sec.text += code + "\n";
        sec.line_numbers.push_back(int(k) + 1);
      }
      return sec;
    }
  }
  return {};
}

std::vector<DiffLine> diff_lines(const std::string& a, const std::string& b) {
  const std::vector<std::string> x = split_lines(a), y = split_lines(b);
  const std::size_t n = x.size(), m = y.size();
  // lcs[i][j]: longest common subsequence of x[i..] and y[j..].
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] = x[i] == y[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<DiffLine> out;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] == y[j]) {
      out.push_back({DiffLine::Same, x[i]});
      ++i, ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out.push_back({DiffLine::Removed, x[i++]});
    } else {
      out.push_back({DiffLine::Added, y[j++]});
    }
  }
  return out;
}

std::string code_key(const std::string& line, bool& in_block_comment) {
  std::string key;
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    const char next = i + 1 < line.size() ? line[i + 1] : '\0';
    if (in_block_comment) {
      if (ch == '*' && next == '/') in_block_comment = false, ++i;
      continue;
    }
    if (quote) {
      key += ch;
      if (ch == '\\' && next) key += next, ++i;
      else if (ch == quote) quote = 0;
      continue;
    }
    if (ch == '/' && next == '/') break;
    if (ch == '/' && next == '*') {
      in_block_comment = true, ++i;
      continue;
    }
    if (ch == '"' || ch == '\'') quote = ch;
    if (ch != ' ' && ch != '\t' && ch != '\r') key += ch;
  }
  return key;
}

std::vector<DiffLine> diff_code_lines(const std::string& a, const std::string& b) {
  const std::vector<std::string> x = split_lines(a), y = split_lines(b);
  // The code lines of each side (index and key); comment-only and blank lines have an empty key.
  auto code_lines = [](const std::vector<std::string>& lines, std::vector<std::size_t>& idx, std::vector<std::string>& keys) {
    bool block = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::string k = code_key(lines[i], block);
      if (!k.empty()) idx.push_back(i), keys.push_back(std::move(k));
    }
  };
  std::vector<std::size_t> xi, yi;
  std::vector<std::string> xk, yk;
  code_lines(x, xi, xk);
  code_lines(y, yi, yk);
  const std::size_t n = xk.size(), m = yk.size();
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] = xk[i] == yk[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<DiffLine> out;
  std::size_t next_b = 0;  // the new side's lines before this one are out
  auto context_until = [&](std::size_t end) {
    for (; next_b < end; ++next_b) out.push_back({DiffLine::Same, y[next_b]});
  };
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && xk[i] == yk[j]) {
      context_until(yi[j]);
      out.push_back({DiffLine::Same, y[yi[j]]});
      next_b = yi[j] + 1;
      ++i, ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out.push_back({DiffLine::Removed, x[xi[i++]]});
    } else {
      context_until(yi[j]);
      out.push_back({DiffLine::Added, y[yi[j]]});
      next_b = yi[j] + 1;
      ++j;
    }
  }
  context_until(y.size());
  return out;
}

const char* phase_rule(const std::string& phase) {
  if (phase == "load")
    return "load: lines that index the kernel's input pointer (its first const T* parameter, e.g. buffer[, v[, in[)";
  if (phase == "tree")
    return "tree: lines with \"stride\", \"s >>= 1\", \"s /= 2\", \"s *= 2\", \"s <<= 1\", or a += into a [tid...] slot";
  if (phase == "warp")
    return "warp: lines with __shfl, warpReduce, volatile, or an add of [tid + 32/16/8/4/2/1]";
  if (phase == "combine" || phase == "atomic")
    return "combine/atomic: lines with atomicAdd, atomicMax, out[, partial[, local_max[ or [blockIdx.x]";
  if (phase == "pass") return "pass: lines with += (the dispatch's in-place add)";
  return "this phase has no highlighting rule";
}

bool line_in_phase(const std::string& line, const std::string& phase, const std::string& section) {
  const std::string t = trim_left(line);
  if (starts_with(t, "//") || starts_with(t, "///") || contains(t, "__global__")) return false;
  const std::string code = t.substr(0, t.find("//"));  // the code, not a trailing comment
  auto has = [&](const char* p) { return contains(code, p); };
  if (phase == "load") return indexes(code, input_pointer(section));
  if (phase == "tree")
    return has("stride") || has("s >>= 1") || has("s /= 2") || has("s *= 2") || has("s <<= 1") ||
           (has("+=") && has("[tid"));
  if (phase == "warp")
    return has("__shfl") || has("warpReduce") || has("volatile") || has("tid + 32]") || has("tid + 16]") ||
           has("tid + 8]") || has("tid + 4]") || has("tid + 2]") || has("tid + 1]");
  if (phase == "combine" || phase == "atomic")
    return has("atomicAdd") || has("atomicMax") || indexes(code, "out") || indexes(code, "partial") ||
           indexes(code, "local_max") || has("[blockIdx.x]");
  if (phase == "pass") return has("+=");
  return false;
}

}  // namespace ws::ui
