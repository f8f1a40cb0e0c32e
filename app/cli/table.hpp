// One table writer for every command: CSV rows are the command's JSON objects flattened the way
// pandas.json_normalize flattens them, so a column holds the same value, type and null as the JSON.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ws::cli {

/// Version of every JSON object the CLI prints (its "version"; "format" names the kind).
constexpr int kCliJsonVersion = 1;

/// `j` (an object) with "format": "warpscope-KIND" and "version": kCliJsonVersion added
/// (docs/json-format.md lists the kinds: run, sweep, trace, variants, device, metrics, compare).
nlohmann::json with_format(nlohmann::json j, const std::string& kind);

/// The object `j` flattened as pandas.json_normalize does: nested objects become dotted keys
/// ({"host_ms": {"total": 2}} -> "host_ms.total": 2), in the object's key order; arrays and scalars are kept
/// as values. A non-object is one column named "value".
std::vector<std::pair<std::string, nlohmann::json>> flatten(const nlohmann::json& j);

/// One CSV cell (RFC 4180 quoting) of a JSON value: null -> empty (a value that does not exist, never
/// 0); integers as integers; floats in the shortest text that reads back to the same double, always
/// with a '.' or an exponent (so a reader types the column as float, as the JSON is); true/false;
/// strings quoted when they hold a comma, quote, line break or outer space; arrays and objects as JSON text.
std::string csv_cell(const nlohmann::json& v);

/// CSV of `rows` (JSON objects, flattened): a header naming the union of their columns in first-seen
/// order (`leading` columns first, where present), then one line per row; a column a row lacks is empty.
std::string csv_table(const std::vector<nlohmann::json>& rows, const std::vector<std::string>& leading = {});

}  // namespace ws::cli
