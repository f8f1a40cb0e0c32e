#include "kernel_trace_points.hpp"

#include <vector>

#include "kernel_copy.hpp"
#include "kernel_sources.hpp"

namespace ws::controller {

namespace {

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r") == std::string::npos; }

/// The names of the WS_AT (next = false) or WS_AT_NEXT (next = true) markers on `line`.
std::vector<std::string> markers(const std::string& line, bool next) {
  std::vector<std::string> out;
  const std::string open = next ? "WS_AT_NEXT(" : "WS_AT(";
  for (std::size_t at = line.find(open); at != std::string::npos; at = line.find(open, at + 1)) {
    const std::size_t from = at + open.size(), close = line.find(')', from);
    if (close != std::string::npos) out.push_back(line.substr(from, close - from));
  }
  return out;
}

std::string quoted(const std::string& line) {
  const std::size_t a = line.find_first_not_of(" \t");
  std::string t = a == std::string::npos ? "" : line.substr(a);
  if (t.size() > 64) t = t.substr(0, 61) + "...";
  return "`" + t + "`";
}

const char* const kStillWorks = ": steps not recorded; run, time and metrics still work";

}  // namespace

std::string traced_kernel_copy(const VariantInfo& v) {
  const SourceSection sec = find_section(v.id, true);
  if (sec.text.find("WS_T(") == std::string::npos || sec.file.size() < 4) return "";
  const std::string stem = sec.file.substr(0, sec.file.size() - 3);
  return "WS_T(using namespace ::ws; using namespace ::ws::kernels::traced; namespace ws_points = "
         "::ws::trace_points::" +
         stem + ";)\n" + make_kernel_copy(v, sec).text;
}

TracedEdit instrument_edit(const std::string& traced, const std::string& edited) {
  TracedEdit out;
  if (traced.empty()) {
    out.why = "this kernel has no trace points (only a copy of a variant with a trace build has them)" +
              std::string(kStillWorks);
    return out;
  }
  // The traced copy as code lines (plain: as the editor shows them; marked: with their WS_T spans) and the
  // instrumentation-only blocks before each code line (blocks[P] after the last).
  std::vector<std::string> plain, marked;
  std::vector<std::vector<std::string>> blocks(1);
  bool region = false;  // inside `#ifdef WS_TRACE_BUILD` ... `#endif`: a recorder helper of the trace build
  for (const std::string& l : split_lines(traced)) {
    const std::string code = strip_trace_instrumentation(l);
    region = region || l == "#ifdef WS_TRACE_BUILD";
    if (region || (code != l && blank(code))) {
      blocks.back().push_back(l);
      region = region && l.rfind("#endif", 0) != 0;
      continue;
    }
    plain.push_back(code);
    marked.push_back(l);
    blocks.emplace_back();
  }
  std::string plain_text;
  for (const std::string& l : plain) plain_text += l + "\n";
  const std::vector<std::string> lines = split_lines(edited);
  // Each plain line's line in the edit (-1: changed or removed), and back.
  std::vector<int> to_edit(plain.size(), -1), from_plain(lines.size(), -1);
  {
    std::size_t o = 0, n = 0;
    for (const DiffLine& d : diff_lines(plain_text, edited)) {
      if (d.kind == DiffLine::Same && o < plain.size() && n < lines.size()) {
        to_edit[o] = int(n);
        from_plain[n] = int(o);
      }
      if (d.kind != DiffLine::Added) ++o;
      if (d.kind != DiffLine::Removed) ++n;
    }
  }
  auto dropped = [&](std::size_t line, const std::string& what) {
    out.why = "the edited kernel changed line " + std::to_string(line + 1) + " of the copy (" + quoted(plain[line]) +
              "), " + what + kStillWorks;
    return out;
  };
  for (std::size_t i = 0; i < plain.size(); ++i)
    if (marked[i] != plain[i] && to_edit[i] < 0) {
      const std::vector<std::string> at = markers(marked[i], false), next = markers(marked[i], true);
      const std::string name = !at.empty() ? at[0] : !next.empty() ? next[0] : "";
      return dropped(i, name.empty() ? "which carries trace code" : "the statement trace point " + name + " records");
    }
  // Each block's slot in the edit: slot j is before the edit's line j (slot lines.size(): the end).
  std::vector<std::vector<std::size_t>> at_slot(lines.size() + 1);
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    if (blocks[k].empty()) continue;
    if (k == 0) {  // the points' namespace, above the copy's first line
      at_slot[0].push_back(k);
      continue;
    }
    std::vector<std::string> at, next;
    for (const std::string& l : blocks[k]) {
      for (const std::string& m : markers(l, false)) at.push_back(m);
      for (const std::string& m : markers(l, true)) next.push_back(m);
    }
    const int above = to_edit[k - 1];
    const int below = k < plain.size() ? to_edit[k] : int(lines.size());
    if (!at.empty() && above < 0) return dropped(k - 1, "the statement trace point " + at[0] + " records");
    if (!next.empty() && below < 0) return dropped(k, "the statement trace point " + next[0] + " records");
    if (above < 0 && below < 0) return dropped(k - 1, "next to trace code of the variant");
    const bool after_above = !at.empty() ? true : below < 0;
    at_slot[std::size_t(after_above ? above + 1 : below)].push_back(k);
  }
  for (std::size_t j = 0; j <= lines.size(); ++j) {
    for (std::size_t k : at_slot[j])
      for (const std::string& l : blocks[k]) out.source += l + "\n";
    if (j == lines.size()) break;
    if (!at_slot[j].empty()) out.source += "#line " + std::to_string(j + 1) + "\n";
    out.source += (from_plain[j] >= 0 ? marked[std::size_t(from_plain[j])] : lines[j]) + "\n";
  }
  return out;
}

}  // namespace ws::controller
