#include "kernel_copy.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <sstream>

#include "patterns/convolution/conv_inputs.hpp"
#include "user_kernel.hpp"

namespace ws::controller {

namespace {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

/// The code of a line: up to a `//` comment.
std::string code_of(const std::string& line) {
  const auto c = line.find("//");
  return c == std::string::npos ? line : line.substr(0, c);
}

bool has_word(const std::string& code, const std::string& word) {
  for (auto at = code.find(word); at != std::string::npos; at = code.find(word, at + 1)) {
    const bool left = at == 0 || !(std::isalnum((unsigned char)code[at - 1]) || code[at - 1] == '_');
    const std::size_t e = at + word.size();
    const bool right = e >= code.size() || !(std::isalnum((unsigned char)code[e]) || code[e] == '_');
    if (left && right) return true;
  }
  return false;
}

/// Splits "a, b<c, d>, e" at the top-level commas.
std::vector<std::string> split_top(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

/// "unsigned int BlockSize" -> {"unsigned int", "BlockSize"}; the name is the last identifier.
void split_decl(const std::string& decl, std::string& type, std::string& name) {
  std::size_t e = decl.size();
  while (e > 0 && !(std::isalnum((unsigned char)decl[e - 1]) || decl[e - 1] == '_')) --e;
  std::size_t b = e;
  while (b > 0 && (std::isalnum((unsigned char)decl[b - 1]) || decl[b - 1] == '_')) --b;
  name = decl.substr(b, e - b);
  type = trim(decl.substr(0, b));
}

/// `code` without its `__launch_bounds__(...)` (only a __global__ function may carry one); `dropped` gets it.
std::string drop_launch_bounds(const std::string& code, std::string& dropped) {
  const auto at = code.find("__launch_bounds__");
  if (at == std::string::npos) return code;
  std::size_t i = code.find('(', at);
  if (i == std::string::npos) return code;
  for (int depth = 0; i < code.size(); ++i) {
    if (code[i] == '(') ++depth;
    if (code[i] == ')' && --depth == 0) break;
  }
  dropped = code.substr(at, i + 1 - at);
  std::size_t e = i + 1;
  while (e < code.size() && code[e] == ' ') ++e;
  return code.substr(0, at) + code.substr(e);
}

/// A type with the template's type parameters replaced by `elem` and its spaces normalized ("const T *" ->
/// "const int*").
std::string concrete_type(const std::string& type, const std::vector<std::string>& type_params,
                          const std::string& elem) {
  std::string out;
  std::string word;
  auto flush = [&] {
    if (word.empty()) return;
    const bool param = std::find(type_params.begin(), type_params.end(), word) != type_params.end();
    if (!out.empty() && out.back() != '*') out += ' ';
    out += param ? elem : word == "unsigned" ? "unsigned int" : word;
    word.clear();
  };
  for (char c : type) {
    if (std::isalnum((unsigned char)c) || c == '_') {
      word += c;
    } else {
      flush();
      if (c == '*') out += '*';
    }
  }
  flush();
  // "unsigned int int" from "unsigned int": the word after unsigned was already int
  for (std::size_t at; (at = out.find("unsigned int int")) != std::string::npos;) out.replace(at, 16, "unsigned int");
  for (const char* w : {"long", "short", "char"})  // "unsigned long long" keeps its own words
    for (std::size_t at; (at = out.find(std::string("unsigned int ") + w)) != std::string::npos;) out.erase(at + 9, 4);
  return out;
}

/// The end line of the function whose head starts at `from` (its closing brace), lines.size() - 1 if none.
std::size_t body_end(const std::vector<std::string>& lines, std::size_t from) {
  int depth = 0;
  bool opened = false;
  for (std::size_t i = from; i < lines.size(); ++i) {
    for (char c : code_of(lines[i])) {
      if (c == '{') ++depth, opened = true;
      if (c == '}') --depth;
    }
    if (opened && depth <= 0) return i;
  }
  return lines.size() - 1;
}

/// The name of the function declared on `code` (the identifier before its first '('), "" if none.
std::string function_name(const std::string& code) {
  const auto open = code.find('(');
  if (open == std::string::npos) return "";
  std::string type, name;
  split_decl(code.substr(0, open), type, name);
  return name;
}

/// The `__device__` functions of `file_text` (instrumentation removed, unless `keep_trace`) that `code` calls and
/// does not define, with the comment lines right above each and their own helpers, in file order: the helpers a
/// variant shares with an earlier one (epita.full_unroll calls reduce6's warpReduce).
std::string helpers_called(const std::string& file_text, const std::string& code, bool keep_trace) {
  std::vector<std::string> lines;
  std::vector<bool> trace_only;  ///< the line is inside an `#ifdef WS_TRACE_BUILD` region (harris.cu's recorders)
  bool in_region = false;
  for (const std::string& l : split_lines(file_text)) {
    const std::string c = strip_trace_instrumentation(l);
    if (c != l && trim(c).empty() && !keep_trace) continue;
    if (trim(l) == "#ifdef WS_TRACE_BUILD") in_region = true;
    lines.push_back(keep_trace ? l : c);
    trace_only.push_back(in_region);
    if (in_region && trim(l).rfind("#endif", 0) == 0) in_region = false;
  }
  struct Helper {
    std::string name;
    std::size_t first, last;
  };
  std::vector<Helper> helpers;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string c = code_of(lines[i]);
    if (!has_word(c, "__device__") || has_word(c, "__global__")) continue;
    const std::string name = function_name(c);
    if (name.empty()) continue;
    std::size_t first = i;
    if (first > 0 && trim(code_of(lines[first - 1])).rfind("template", 0) == 0) --first;
    while (first > 0 && trim(lines[first - 1]).rfind("//", 0) == 0 && trim(lines[first - 1]).rfind("// ---", 0) != 0)
      --first;
    helpers.push_back({name, first, body_end(lines, i)});
    i = helpers.back().last;
  }
  std::vector<bool> take(helpers.size(), false);
  std::string scan = code;  // grows with the helpers taken, whose own calls count too
  for (bool more = true; more;) {
    more = false;
    for (std::size_t h = 0; h < helpers.size(); ++h) {
      if (take[h] || !has_word(scan, helpers[h].name)) continue;
      bool defined = false;
      for (const std::string& l : split_lines(code))
        defined |= has_word(code_of(l), "__device__") && function_name(code_of(l)) == helpers[h].name;
      if (defined) continue;
      take[h] = more = true;
      for (std::size_t i = helpers[h].first; i <= helpers[h].last; ++i) scan += "\n" + code_of(lines[i]);
    }
  }
  std::string out;
  for (std::size_t h = 0; h < helpers.size(); ++h)
    if (take[h]) {
      // A recorder only the trace build has stays in its region (instrumentation, kernel_trace_points).
      const bool region = trace_only[helpers[h].first];
      if (region) out += "#ifdef WS_TRACE_BUILD\n";
      for (std::size_t i = helpers[h].first; i <= helpers[h].last; ++i) out += lines[i] + "\n";
      out += region ? "\n#endif\n" : "\n";
    }
  return out;
}

/// Whether `code` uses a name the kernel header `path` (under kernel_include_dir()) declares: an identifier
/// there followed by '(' or '<', or after `struct`, `class` or `#define`; CUDA's own `__` names do not count.
bool uses_header(const std::string& path, const std::string& code) {
  std::ifstream in(kernel_include_dir() + "/" + path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string h = ss.str();
  std::string prev;
  for (std::size_t i = 0; i < h.size();) {
    if (!(std::isalpha((unsigned char)h[i]) || h[i] == '_')) {
      ++i;
      continue;
    }
    std::size_t e = i;
    while (e < h.size() && (std::isalnum((unsigned char)h[e]) || h[e] == '_')) ++e;
    const std::string word = h.substr(i, e - i);
    std::size_t k = e;
    while (k < h.size() && h[k] == ' ') ++k;
    const bool declared =
        (k < h.size() && (h[k] == '(' || h[k] == '<')) || prev == "struct" || prev == "class" || prev == "define";
    static const char* const kKeywords[] = {"if",       "for",      "while",       "switch",           "return",
                                            "sizeof",   "defined",  "static_cast", "reinterpret_cast", "const_cast",
                                            "alignof",  "decltype", "template",    "static_assert",    "asm",
                                            "volatile", "min",      "max"};
    const bool keyword = std::find(std::begin(kKeywords), std::end(kKeywords), word) != std::end(kKeywords);
    if (declared && !keyword && word.rfind("__", 0) != 0 && has_word(code, word)) return true;
    prev = word;
    i = e;
  }
  return false;
}

/// What the kernel needs from the top of its file besides helpers: the device headers it includes (`.cuh`, not
/// the trace record's) whose names `code` uses, and the one-line `constexpr` constants at file scope whose names
/// it uses (decoupled_lookback.cu's kRows, kVec), in file order.
std::string file_context(const std::string& file_text, const std::string& code) {
  std::string includes, constants;
  for (const std::string& l : split_lines(file_text)) {
    const std::string t = trim(code_of(l));
    if (t.rfind("#include \"", 0) == 0 && t.find(".cuh\"") != std::string::npos &&
        t.find("trace_record") == std::string::npos) {
      const std::string path = t.substr(10, t.find('"', 10) - 10);
      if (uses_header(path, code)) includes += t + "\n";
      continue;
    }
    if (l.rfind("constexpr ", 0) != 0 || t.back() != ';') continue;  // at file scope: not indented
    // "constexpr int kRows = 4, kVec = 4;": every declared name counts.
    bool used = false;
    for (const std::string& decl : split_top(t.substr(0, t.size() - 1))) {
      std::string type, name;
      split_decl(decl.substr(0, decl.find('=')), type, name);
      used |= !name.empty() && has_word(code, name);
    }
    if (used) constants += l + "\n";
  }
  return includes + constants;
}

}  // namespace

std::string why_not_editable(const VariantInfo& v) {
  if (v.cpu_only) return v.id + " runs on the CPU: there is no kernel to edit";
  if (v.baseline) return v.id + " is a library call (CUB): its kernels are not in the lesson's source";
  if (!v.not_editable.empty()) return v.id + ": " + v.not_editable;
  if (!kernel_contract(v.pattern))
    return std::string("kernels of your own cannot follow the ") + to_string(v.pattern) + " pattern yet";
  if (v.pattern == PatternKind::Atomics && v.atomics != AtomicsKind::Histogram)
    return "the atomics contract is the 256-bin histogram's: " + v.id + " computes something else";
  if (v.pattern == PatternKind::Convolution && conv_kind_is_2d(v.conv))
    return "the convolution contract is 1-D: " + v.id + " convolves an image";
  return "";
}

std::vector<KernelParam> parse_kernel_params(const std::string& signature) {
  std::vector<KernelParam> out;
  const auto open = signature.find('(');
  if (open == std::string::npos) return out;
  int depth = 0;
  std::size_t close = std::string::npos;
  for (std::size_t i = open; i < signature.size(); ++i) {
    if (signature[i] == '(') ++depth;
    if (signature[i] == ')' && --depth == 0) {
      close = i;
      break;
    }
  }
  if (close == std::string::npos) return out;
  for (const std::string& p : split_top(signature.substr(open + 1, close - open - 1))) {
    if (p.empty() || p == "void") continue;
    KernelParam k;
    split_decl(p, k.type, k.name);
    k.pointer = k.type.find('*') != std::string::npos;
    k.is_const = k.pointer && has_word(k.type.substr(0, k.type.find('*')), "const");
    out.push_back(k);
  }
  return out;
}

KernelCopy make_kernel_copy(const VariantInfo& v, const SourceSection& sec) {
  KernelCopy out;
  const std::vector<std::string> lines = split_lines(sec.text);
  std::vector<std::size_t> globals;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (has_word(code_of(lines[i]), "__global__")) globals.push_back(i);
  // A section with its trace instrumentation (traced_kernel_copy): the copy keeps it, and reads its signature
  // and helpers as the plain copy does.
  const bool keep_trace = sec.text.find("WS_T(") != std::string::npos;
  const KernelContract* contract = kernel_contract(v.pattern);
  const std::string pattern = to_string(v.pattern);

  std::string head =
      "// A copy of " + v.id + " to edit: the slide's kernel as " + (sec.file.empty() ? "the build" : sec.file) +
      " has it,\n"
      "// made a __device__ function that the contract's entry at the bottom calls. warpscope launches `kernel`\n"
      "// with " +
      v.id +
      "'s launch (block, items per thread, grid), checks the result against the CPU\n"
      "// reference and times it. Ctrl+Enter compiles and runs; the contract: docs/your-kernel.md.\n"
      "// warpscope: pattern=" +
      pattern + " entry=kernel\n" + "#include \"common/dynamic_shared.cuh\"\nusing namespace ws::kernels;\n\n";
  if (!contract) {
    out.text = head + sec.text;
    out.note = v.id + ": " + pattern + " kernels have no contract for your own code yet";
    return out;
  }
  if (globals.empty()) {
    out.text = head + sec.text;
    out.note = v.id + " has no __global__ kernel in its source section";
    return out;
  }
  const std::size_t g = globals.back();
  // The kernel's signature (it may run over several lines, up to its body's brace) and the end of its body.
  std::string signature, bounds;
  std::size_t sig_end = g;
  for (std::size_t i = g; i < lines.size(); ++i) {
    signature += code_of(strip_trace_instrumentation(lines[i])) + " ";
    sig_end = i;
    if (code_of(lines[i]).find('{') != std::string::npos) break;
  }
  signature = drop_launch_bounds(signature, bounds);
  const std::size_t end = body_end(lines, g);
  std::string name, ignored;
  {
    const std::string before = signature.substr(0, signature.find('('));
    split_decl(before, ignored, name);
  }
  // Template arguments: types become the contract's element type, values the variant's block.
  const std::vector<KernelParam> cparams = parse_kernel_params(contract->signature);
  std::string elem = cparams.empty() ? "int" : cparams.front().type;
  for (const char* drop : {"const", "*"})
    if (auto at = elem.find(drop); at != std::string::npos) elem.erase(at, std::string(drop).size());
  elem = trim(elem);
  std::string targs;
  std::vector<std::string> type_params;
  if (g > 0 && trim(code_of(lines[g - 1])).rfind("template", 0) == 0) {
    const std::string t = code_of(lines[g - 1]);
    const auto a = t.find('<'), b = t.rfind('>');
    if (a != std::string::npos && b != std::string::npos && b > a)
      for (const std::string& decl : split_top(t.substr(a + 1, b - a - 1))) {
        std::string type, pname;
        split_decl(decl, type, pname);
        const int block = v.rules.fixed_block ? v.rules.fixed_block : v.rules.default_block;
        const bool is_type = type == "typename" || type == "class";
        if (is_type) type_params.push_back(pname);
        targs += (targs.empty() ? "" : ", ") + (is_type ? elem : std::to_string(block) + "u");
      }
  }
  // The call: each of the kernel's parameters gets the next contract argument of its kind.
  const std::vector<KernelParam> kparams = parse_kernel_params(signature);
  std::vector<bool> used(cparams.size(), false);
  // A parameter named as a contract argument of its kind takes that one (conv1d's Mask_Width the contract's
  // mask_width, though n comes first); the others take the next of their kind in order.
  auto lower = [](std::string t) {
    for (char& ch : t) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return t;
  };
  auto same_kind = [](const KernelParam& a, const KernelParam& b) {
    return a.pointer == b.pointer && (!a.pointer || a.is_const == b.is_const);
  };
  std::vector<std::size_t> named(kparams.size(), cparams.size());
  for (std::size_t i = 0; i < kparams.size(); ++i)
    for (std::size_t c = 0; c < cparams.size(); ++c)
      if (!used[c] && same_kind(cparams[c], kparams[i]) && lower(cparams[c].name) == lower(kparams[i].name)) {
        named[i] = c;
        used[c] = true;
        break;
      }
  bool scratch_tail = false;  ///< the scan scratch's part after its 2 * grid tile words is given
  std::string args, unmatched;
  for (std::size_t ki = 0; ki < kparams.size(); ++ki) {
    const KernelParam& k = kparams[ki];
    if (!k.pointer && concrete_type(k.type, type_params, elem) == "bool") {  // the scans' `exclusive`
      args += std::string(args.empty() ? "" : ", ") + "false /* " + k.name + ": the contract's scan is inclusive */";
      continue;
    }
    std::size_t pick = named[ki];
    for (std::size_t c = 0; c < cparams.size() && pick == cparams.size(); ++c)
      if (!used[c] && same_kind(cparams[c], k)) pick = c;
    if (pick == cparams.size()) {
      // The scan contract's scratch holds 2 * grid ints (per-tile words: a single-pass scan's tile status)
      // then 2 ints (flags, a tile counter): a second writable pointer gets the part after the tile words.
      const auto scratch =
          std::find_if(cparams.begin(), cparams.end(), [](const KernelParam& c) { return c.name == "scratch"; });
      if (k.pointer && !k.is_const && scratch != cparams.end() && used[std::size_t(scratch - cparams.begin())] &&
          !scratch_tail) {
        scratch_tail = true;
        args += (args.empty() ? "" : ", ") +
                ("(" + concrete_type(k.type, type_params, elem) + ")(" + scratch->name + " + 2 * gridDim.x)");
        continue;
      }
      unmatched += (unmatched.empty() ? "" : ", ") + k.type + " " + k.name;
      continue;
    }
    used[pick] = true;
    // A pointer of another type (the histograms' int* bins for the contract's unsigned*) is cast.
    const std::string want = concrete_type(k.type, type_params, elem);
    const bool cast = k.pointer && want != concrete_type(cparams[pick].type, {}, elem);
    args += (args.empty() ? "" : ", ") + (cast ? "(" + want + ")" + cparams[pick].name : cparams[pick].name);
  }
  std::string sig = contract->signature;
  std::string call = "  " + name + (targs.empty() ? "" : "<" + targs + ">") + "(" + args + ");\n";
  if (!unmatched.empty()) {
    out.note = name + " takes " + unmatched +
               ", which the contract does not pass: write what the entry at the bottom should give it";
    call = "  // TODO: call " + name + " with what it needs from the contract's arguments (" + unmatched +
           " has none)\n  " + name + "(/* ... */);\n";
  } else if (!bounds.empty()) {
    out.note = "the copy's " + name + " is a __device__ function, so it drops " + bounds +
               " (only a __global__ function takes one)";
  } else if (globals.size() > 1) {
    out.note = v.id + "'s launcher runs more than one kernel: the copy runs " + name +
               " once, and warpscope adds its output's partials on the host";
  }

  std::string body, mask_symbol;
  for (std::size_t i = 0; i <= end && i < lines.size(); ++i) {
    std::string l = lines[i];
    if (i == g) {
      const auto at = l.find("__global__");
      l.replace(at, 10, "__device__");
    }
    if (i >= g && i <= sig_end && !bounds.empty()) {
      std::string ignored_bounds;
      l = drop_launch_bounds(l, ignored_bounds);
    }
    body += l + "\n";
  }
  for (const KernelFile& f : kernel_files())
    if (f.name == sec.file) {
      std::string code;
      for (std::size_t i = 0; i <= end && i < lines.size(); ++i)
        code += code_of(strip_trace_instrumentation(lines[i])) + "\n";
      const std::string helpers = helpers_called(f.text, code, keep_trace);
      // A __constant__ array the kernel reads: a convolution's mask (the slides' M, filled by the launcher's
      // cudaMemcpyToSymbol). The copy keeps its declaration and names it in the header (mask_symbol), and
      // the worker fills it with the run's mask before the launch. Any other is filled by nobody: a note.
      std::string constants;
      for (const std::string& l : split_lines(f.text)) {
        if (l.rfind("__constant__", 0) != 0) continue;
        const std::string t = trim(code_of(l));
        std::string type, cname;
        split_decl(t.substr(0, t.find('[')), type, cname);
        if (cname.empty() || !has_word(code + helpers, cname)) continue;
        constants += t + "\n";
        if (v.pattern == PatternKind::Convolution && type.find("float") != std::string::npos &&
            t.find('[') != std::string::npos && mask_symbol.empty()) {
          mask_symbol = cname;
          continue;
        }
        out.note = name + " reads " + cname + " from __constant__ memory, which " + v.id +
                   "'s host code fills (cudaMemcpyToSymbol) and a copy does not run: only a convolution's mask "
                   "is filled for you (header key mask_symbol)";
      }
      const std::string context = file_context(f.text, code + helpers + constants);
      if (!context.empty())
        head += "// From " + sec.file + ": the headers and constants the kernel uses.\n" + context + "\n";
      if (!mask_symbol.empty())
        head += "// The slide's mask in __constant__ memory: warpscope fills " + mask_symbol +
                " with the run's mask before each run\n// (mask_symbol in the header), as the slide's host code "
                "does with cudaMemcpyToSymbol.\n";
      if (!constants.empty()) head += constants + "\n";
      if (!helpers.empty()) head += "// From " + sec.file + ": the helpers the kernel calls.\n" + helpers;
    }
  // The header's keys beyond pattern and entry: the mask's symbol, and a convolution tile's halo in shared
  // memory (the tiled kernels keep TILE_SIZE + Mask_Width - 1 inputs there: room for the widest mask).
  std::string keys;
  if (!mask_symbol.empty()) keys += " mask_symbol=" + mask_symbol;
  bool dynamic = false;
  for (std::size_t i = g; i <= end && i < lines.size(); ++i) dynamic |= has_word(code_of(lines[i]), "dynamic_shared");
  if (v.pattern == PatternKind::Convolution && dynamic)
    keys += " shared=block*4+" + std::to_string((kMaxMaskWidth - 1) * 4);
  else if (!v.copy_shared.empty())
    keys += " shared=" + v.copy_shared;
  if (!keys.empty()) {
    const std::string at = " entry=kernel\n";
    if (const auto k = head.find(at); k != std::string::npos) head.insert(k + at.size() - 1, keys);
  }
  out.kernel_line = int(std::count(head.begin(), head.end(), '\n') + 1 + long(g));
  out.text = head + body + "\n// The contract's entry (docs/your-kernel.md): warpscope passes these arguments.\n" +
             sig + " {\n" + call + "}\n";
  return out;
}

std::vector<CodeDiffRow> code_diff_rows(const std::string& original, const std::string& edited, int context) {
  const std::vector<DiffLine> d = diff_lines(original, edited);
  std::vector<CodeDiffRow> all;
  all.reserve(d.size());
  int o = 0, n = 0;
  for (const DiffLine& l : d) {
    CodeDiffRow r;
    r.text = l.text;
    if (l.kind == DiffLine::Same) r.kind = CodeDiffRow::Context, r.old_line = ++o, r.new_line = ++n;
    if (l.kind == DiffLine::Added) r.kind = CodeDiffRow::Added, r.new_line = ++n;
    if (l.kind == DiffLine::Removed) r.kind = CodeDiffRow::Removed, r.old_line = ++o;
    all.push_back(std::move(r));
  }
  // Keep the changes and the context within `context` rows of one; the rest become gaps.
  std::vector<bool> keep(all.size(), false);
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].kind == CodeDiffRow::Context) continue;
    const std::size_t a = i >= std::size_t(context) ? i - std::size_t(context) : 0;
    for (std::size_t k = a; k < all.size() && k <= i + std::size_t(context); ++k) keep[k] = true;
  }
  std::vector<CodeDiffRow> out;
  if (std::none_of(keep.begin(), keep.end(), [](bool k) { return k; })) return out;
  for (std::size_t i = 0; i < all.size();) {
    if (keep[i]) {
      out.push_back(std::move(all[i++]));
      continue;
    }
    CodeDiffRow gap;
    gap.kind = CodeDiffRow::Gap;
    while (i < all.size() && !keep[i]) ++gap.skipped, ++i;
    out.push_back(gap);
  }
  return out;
}

std::vector<int> changed_line_marks(const std::string& original, const std::string& edited) {
  std::vector<int> marks;
  bool removed = false;
  for (const DiffLine& d : diff_lines(original, edited)) {
    if (d.kind == DiffLine::Removed) {
      removed = true;
      continue;
    }
    marks.push_back(d.kind == DiffLine::Added ? 1 : removed ? 2 : 0);
    removed = false;
  }
  // split_lines drops nothing at the end, but a text ending in '\n' has one more (empty) editor line.
  const std::size_t editor_lines = std::size_t(std::count(edited.begin(), edited.end(), '\n') + 1);
  marks.resize(editor_lines, 0);
  return marks;
}

}  // namespace ws::controller
