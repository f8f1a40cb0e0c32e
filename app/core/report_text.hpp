// A report's text as the loaders parse it: bounded (json_read.hpp), the fields the report, run, sweep
// and stored-trace readers use kept, the others skipped while parsing, duplicate keys refused.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "json_read.hpp"

namespace ws {

/// The bounds a report's text is parsed within: the keys report_from_json, run_from_json,
/// sweep_from_json and trace_from_store_json read are kept in their objects; objects deeper down
/// (metric values, host_ms phases: maps) keep every key.
const JsonBounds& report_json_bounds();
/// Parses a report's text within report_json_bounds(). Throws std::runtime_error naming `what`.
nlohmann::json parse_report_text(const std::string& text, const std::string& what);

}  // namespace ws
