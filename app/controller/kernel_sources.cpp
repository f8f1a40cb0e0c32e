#include "kernel_sources.hpp"

#include <algorithm>
#include <cctype>

namespace ws::controller {

namespace {

bool starts_with(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }

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

}  // namespace

std::string strip_trace_instrumentation(const std::string& line) {
  std::string out = line;
  for (std::size_t at = out.find("WS_T("); at != std::string::npos; at = out.find("WS_T(")) {
    std::size_t i = at + 5;
    for (int depth = 1; i < out.size() && depth > 0; ++i) depth += out[i] == '(' ? 1 : out[i] == ')' ? -1 : 0;
    std::size_t from = at;
    const std::size_t code = out.find_first_not_of(' ');
    if (from > 0 && out[from - 1] == ' ' && code < from - 1 &&
        (i >= out.size() || out[i] == ' ' || out[i] == ')' || out[i] == ';'))
      --from;  // "tid WS_T(, c))" -> "tid)"; "x; WS_T(...) y" -> "x; y"
    out.erase(from, i - from);
  }
  return out;
}

std::string variant_source(const std::string& id) { return find_section(id).text; }

SourceSection find_section(const std::string& id, bool keep_trace) {
  if (id == "amp.sequential")
    return {
        "", 1, "// amp.sequential runs on the CPU (std::accumulate over the input): there is no kernel.\n", {1}, {1}};
  for (const KernelFile& f : kernel_files()) {
    if (id == "cub.reduce" && std::string(f.name) == "cub_reduce.cu") {
      SourceSection sec{f.name, 1, f.text, {}, {}};
      for (std::size_t k = 0; k < split_lines(f.text).size(); ++k) sec.line_numbers.push_back(int(k) + 1);
      sec.display_numbers = sec.line_numbers;
      return sec;
    }
    const std::vector<std::string> lines = split_lines(f.text);
    // Each line's number with the instrumentation-only lines left out (computed once the section is found).
    auto display_numbers = [&lines] {
      std::vector<int> out(lines.size(), 0);
      int shown = 0;
      for (std::size_t k = 0; k < lines.size(); ++k) {
        const std::string code = strip_trace_instrumentation(lines[k]);
        if (!(code != lines[k] && trim_left(code).empty())) ++shown;
        out[k] = shown;
      }
      return out;
    };
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
      SourceSection sec{f.name, int(i) + 1, "", {}, {}};
      const std::vector<int> shown = display_numbers();
      for (std::size_t k = i; k < end; ++k) {
        const std::string code = keep_trace ? lines[k] : strip_trace_instrumentation(lines[k]);
        if (!keep_trace && code != lines[k] && trim_left(code).empty()) continue;  // an instrumentation-only line
        sec.text += code + "\n";
        sec.line_numbers.push_back(int(k) + 1);
        sec.display_numbers.push_back(shown[k]);
      }
      return sec;
    }
  }
  return {};
}

SourceSection section_for_trace(const std::string& id, const Trace& t) {
  SourceSection sec = find_section(id);
  if (sec.text.empty() || t.source_file != sec.file || sec.line_numbers.empty()) return sec;
  const int first = sec.line_numbers.front(), last = sec.line_numbers.back();
  std::vector<int> outside;
  for (const Step& st : t.steps)
    for (int l : st.lines)
      if (l < first || l > last) outside.push_back(l);
  if (outside.empty()) return sec;
  for (const KernelFile& f : kernel_files()) {
    if (sec.file != f.name) continue;
    const std::vector<std::string> lines = split_lines(f.text);
    // The rule-delimited region [start, end) around each line: the section itself and every helper region.
    auto region = [&lines](std::size_t k) {
      std::size_t i = std::min(k, lines.size() - 1);
      while (i > 0 && !starts_with(lines[i], "// ----")) --i;
      std::size_t end = std::min(k, lines.size() - 1) + 1;
      while (end < lines.size() && !starts_with(lines[end], "// ----")) ++end;
      while (end > i + 1 && trim_left(lines[end - 1]).empty()) --end;
      return std::make_pair(i, end);
    };
    std::vector<std::pair<std::size_t, std::size_t>> regions{region(std::size_t(first - 1))};
    for (int l : outside)
      if (l >= 1 && std::size_t(l) <= lines.size()) regions.push_back(region(std::size_t(l - 1)));
    std::sort(regions.begin(), regions.end());
    regions.erase(std::unique(regions.begin(), regions.end()), regions.end());
    std::vector<int> shown(lines.size(), 0);
    for (std::size_t k = 0, n = 0; k < lines.size(); ++k) {
      const std::string code = strip_trace_instrumentation(lines[k]);
      if (!(code != lines[k] && trim_left(code).empty())) ++n;
      shown[k] = int(n);
    }
    SourceSection out{sec.file, int(regions.front().first) + 1, "", {}, {}};
    for (const auto& [from, to] : regions)
      for (std::size_t k = from; k < to; ++k) {
        const std::string code = strip_trace_instrumentation(lines[k]);
        if (code != lines[k] && trim_left(code).empty()) continue;
        out.text += code + "\n";
        out.line_numbers.push_back(int(k) + 1);
        out.display_numbers.push_back(shown[k]);
      }
    return out;
  }
  return sec;
}

std::vector<DiffLine> diff_lines(const std::string& a, const std::string& b) {
  const std::vector<std::string> x = split_lines(a), y = split_lines(b);
  // The lines both texts start and end with are the same rows of any longest common subsequence: the table
  // covers only the middle, so an edit of a few lines in a long file costs a few rows, not lines^2.
  std::size_t head = 0, tail = 0;
  while (head < x.size() && head < y.size() && x[head] == y[head]) ++head;
  while (tail < x.size() - head && tail < y.size() - head && x[x.size() - 1 - tail] == y[y.size() - 1 - tail]) ++tail;
  const std::size_t n = x.size() - tail, m = y.size() - tail;
  // lcs[i - head][j - head]: longest common subsequence of x[i..n) and y[j..m).
  std::vector<std::vector<int>> lcs(n - head + 1, std::vector<int>(m - head + 1, 0));
  for (std::size_t i = n; i-- > head;)
    for (std::size_t j = m; j-- > head;)
      lcs[i - head][j - head] = x[i] == y[j] ? lcs[i - head + 1][j - head + 1] + 1
                                             : std::max(lcs[i - head + 1][j - head], lcs[i - head][j - head + 1]);
  std::vector<DiffLine> out;
  for (std::size_t k = 0; k < head; ++k) out.push_back({DiffLine::Same, x[k]});
  std::size_t i = head, j = head;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] == y[j]) {
      out.push_back({DiffLine::Same, x[i]});
      ++i, ++j;
    } else if (i < n && (j == m || lcs[i - head + 1][j - head] >= lcs[i - head][j - head + 1])) {
      out.push_back({DiffLine::Removed, x[i++]});
    } else {
      out.push_back({DiffLine::Added, y[j++]});
    }
  }
  for (std::size_t k = x.size() - tail; k < x.size(); ++k) out.push_back({DiffLine::Same, x[k]});
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
      if (ch == '\\' && next)
        key += next, ++i;
      else if (ch == quote)
        quote = 0;
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
  auto code_lines = [](const std::vector<std::string>& lines, std::vector<std::size_t>& idx,
                       std::vector<std::string>& keys) {
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

std::vector<bool> step_rows(const SourceSection& sec, const Trace& t, const Step& step) {
  std::vector<bool> rows(sec.line_numbers.size(), false);
  if (t.source_file.empty() || t.source_file != sec.file) return rows;
  for (std::size_t r = 0; r < rows.size(); ++r)
    rows[r] = std::binary_search(step.lines.begin(), step.lines.end(), sec.line_numbers[r]);
  return rows;
}

std::string step_rows_note(const SourceSection& sec, const Trace& t, const Step& step) {
  if (!t.has_lines())
    return "no line highlight: this trace carries no source lines (stored before traces had them, or its model "
           "names no trace points)";
  if (t.source_file != sec.file)
    return "no line highlight: the trace's lines are in " + t.source_file + ", not in " + sec.file;
  const std::vector<bool> rows = step_rows(sec, t, step);
  if (std::find(rows.begin(), rows.end(), true) != rows.end()) return "";
  if (step.lines.empty())
    return "step " + std::to_string(step.index) + " recorded no statement (no thread did its work)";
  return "step " + std::to_string(step.index) + "'s lines are outside this section";
}

}  // namespace ws::controller
