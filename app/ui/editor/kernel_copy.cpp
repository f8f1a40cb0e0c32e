#include "editor/kernel_copy.hpp"

#include <algorithm>
#include <cctype>

#include "user_kernel.hpp"

namespace ws::ui {

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

}  // namespace

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
  // The kernel's signature (it may run over several lines) and the end of its body (brace matching).
  std::string signature;
  std::size_t body_end = lines.size() - 1;
  {
    int depth = 0;
    bool opened = false, sig_done = false;
    for (std::size_t i = g; i < lines.size(); ++i) {
      const std::string code = code_of(lines[i]);
      if (!sig_done) {
        signature += code + " ";
        if (code.find(')') != std::string::npos && code.find('{') != std::string::npos) sig_done = true;
        if (code.find('{') != std::string::npos) sig_done = true;
      }
      for (char c : code) {
        if (c == '{') ++depth, opened = true;
        if (c == '}') --depth;
      }
      if (opened && depth <= 0) {
        body_end = i;
        break;
      }
    }
  }
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
  if (g > 0 && trim(code_of(lines[g - 1])).rfind("template", 0) == 0) {
    const std::string t = code_of(lines[g - 1]);
    const auto a = t.find('<'), b = t.rfind('>');
    if (a != std::string::npos && b != std::string::npos && b > a)
      for (const std::string& decl : split_top(t.substr(a + 1, b - a - 1))) {
        std::string type, pname;
        split_decl(decl, type, pname);
        const int block = v.rules.fixed_block ? v.rules.fixed_block : v.rules.default_block;
        targs += (targs.empty() ? "" : ", ") +
                 (type == "typename" || type == "class" ? elem : std::to_string(block) + "u");
      }
  }
  // The call: each of the kernel's parameters gets the next contract argument of its kind.
  const std::vector<KernelParam> kparams = parse_kernel_params(signature);
  std::vector<bool> used(cparams.size(), false);
  std::string args, unmatched;
  for (const KernelParam& k : kparams) {
    std::size_t pick = cparams.size();
    for (std::size_t c = 0; c < cparams.size(); ++c)
      if (!used[c] && cparams[c].pointer == k.pointer && (!k.pointer || cparams[c].is_const == k.is_const)) {
        pick = c;
        break;
      }
    if (pick == cparams.size()) {
      unmatched += (unmatched.empty() ? "" : ", ") + k.type + " " + k.name;
      continue;
    }
    used[pick] = true;
    args += (args.empty() ? "" : ", ") + cparams[pick].name;
  }
  std::string sig = contract->signature;
  std::string call = "  " + name + (targs.empty() ? "" : "<" + targs + ">") + "(" + args + ");\n";
  if (!unmatched.empty()) {
    out.note = name + " takes " + unmatched +
               ", which the contract does not pass: write what the entry at the bottom should give it";
    call = "  // TODO: call " + name + " with what it needs from the contract's arguments (" + unmatched +
           " has none)\n  " + name + "(/* ... */);\n";
  } else if (globals.size() > 1) {
    out.note = v.id + "'s launcher runs more than one kernel: the copy runs " + name +
               " once, and warpscope adds its output's partials on the host";
  }

  std::string body;
  for (std::size_t i = 0; i <= body_end && i < lines.size(); ++i) {
    std::string l = lines[i];
    if (i == g) {
      const auto at = l.find("__global__");
      l.replace(at, 10, "__device__");
    }
    body += l + "\n";
  }
  out.kernel_line = int(std::count(head.begin(), head.end(), '\n') + 1 + long(g));
  out.text = head + body + "\n// The contract's entry (docs/your-kernel.md): warpscope passes these arguments.\n" + sig +
             " {\n" + call + "}\n";
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

}  // namespace ws::ui
