#include "table.hpp"

#include <algorithm>
#include <map>

namespace ws::cli {

using nlohmann::json;

json with_format(json j, const std::string& kind) {
  j["format"] = "warpscope-" + kind;
  j["version"] = kCliJsonVersion;
  return j;
}

namespace {
void flatten_into(const json& j, const std::string& prefix, std::vector<std::pair<std::string, json>>& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it->is_object() && !it->empty())
      flatten_into(*it, key, out);
    else
      out.emplace_back(key, *it);
  }
}
}  // namespace

std::vector<std::pair<std::string, json>> flatten(const json& j) {
  std::vector<std::pair<std::string, json>> out;
  if (j.is_object())
    flatten_into(j, "", out);
  else
    out.emplace_back("value", j);
  return out;
}

std::string csv_cell(const json& v) {
  std::string text;
  switch (v.type()) {
    case json::value_t::null:
    case json::value_t::discarded: return "";
    case json::value_t::string: text = v.get<std::string>(); break;
    case json::value_t::number_float:
      // nlohmann writes the shortest text that reads back to the same double ("523754.71875", "1.0",
      // "1e-07"), with ".0" on whole numbers, so the column stays a float column.
      return v.dump();
    default:  // integers, booleans, arrays, objects: their JSON text
      text = v.dump();
      if (!v.is_structured()) return text;
  }
  const bool quote = text.find_first_of(",\"\r\n") != std::string::npos ||
                     (!text.empty() && (text.front() == ' ' || text.back() == ' ')) || text.empty();
  if (!quote) return text;
  std::string q = "\"";
  for (char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string csv_table(const std::vector<json>& rows, const std::vector<std::string>& leading) {
  std::vector<std::vector<std::pair<std::string, json>>> flat;
  flat.reserve(rows.size());
  std::vector<std::string> columns;
  std::map<std::string, std::size_t> index;
  auto add_column = [&](const std::string& name) {
    if (index.emplace(name, columns.size()).second) columns.push_back(name);
  };
  for (const auto& r : rows) flat.push_back(flatten(r));
  for (const auto& name : leading)
    for (const auto& row : flat)
      if (std::any_of(row.begin(), row.end(), [&](const auto& kv) { return kv.first == name; })) {
        add_column(name);
        break;
      }
  for (const auto& row : flat)
    for (const auto& kv : row) add_column(kv.first);
  std::string out;
  for (std::size_t c = 0; c < columns.size(); ++c) out += (c ? "," : "") + csv_cell(columns[c]);
  out += "\n";
  for (const auto& row : flat) {
    std::vector<const json*> cells(columns.size(), nullptr);
    for (const auto& kv : row) cells[index[kv.first]] = &kv.second;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c) out += ",";
      if (cells[c]) out += csv_cell(*cells[c]);
    }
    out += "\n";
  }
  return out;
}

}  // namespace ws::cli
