// The backend a run asks for or ran on (RunRequest::backend, RunResult::backend): an enum inside
// warpscope, its name in report JSON, the worker protocol and the CLI's --backend.
#pragma once
#include <iosfwd>
#include <string>

namespace ws {

/// Where a run ran: Cuda (the GPU), Sim (the thread-level CPU model), Cpu (a cpu_only variant on the host).
/// Requests name Cuda or Sim; a cpu_only variant's result says Cpu whichever was asked.
enum class BackendKind { Cuda, Sim, Cpu };  // Cpu last: tests walk every value up to it

/// "cuda", "sim", "cpu".
const char* to_string(BackendKind b);
/// Parses "cuda", "sim" or "cpu"; false on anything else.
bool parse_backend(const std::string& s, BackendKind& out);
/// "unknown backend 'S' (use cuda or sim)": the one-line error for a request that names no backend it can ask for.
std::string unknown_backend_message(const std::string& s);
/// Writes to_string(b) (test messages).
std::ostream& operator<<(std::ostream& o, BackendKind b);

}  // namespace ws
