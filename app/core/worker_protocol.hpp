// The worker protocol (docs/worker-protocol.md): JSON lines between a client (the GUI, or the CLI with
// --gpu) and `warpscope-cli worker`. Requests and results are the report's own types: a RunRequest,
// run objects as run_to_json() writes them, traces as trace_to_store_json(), sweeps as sweep_to_json().
// This file holds only the messages' (de)serialization; worker_server.hpp answers them and
// worker_client.hpp spawns a worker and talks to it.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "backend.hpp"
#include "live_runner.hpp"
#include "run_types.hpp"

namespace ws {

/// Protocol version: the worker announces it in `hello`; a client refuses any other.
constexpr int kWorkerProtocolVersion = 2;

/// Request types a worker answers (hello's "capabilities").
inline const std::vector<std::string>& worker_request_types() {
  static const std::vector<std::string> types = {"run", "trace", "sweep", "live_batch", "cancel", "shutdown"};
  return types;
}

/// A RunRequest as JSON: {"variant","n","block","grid","repeat","warmup","type","input","seed","backend",
/// "params":{as a run's},"metrics"}. params.output_path is not sent (outputs come back in the run object).
nlohmann::json request_to_json(const RunRequest& r);
/// Inverse of request_to_json; missing fields take RunRequest's defaults. Throws std::runtime_error
/// naming a mistyped field or an unknown type.
RunRequest request_from_json(const nlohmann::json& j);

/// A run object for the wire: run_to_json() plus what a report file leaves out and the client needs to
/// print what an in-process run prints: "params" always, and the whole "output" (flat) when it is longer
/// than kMaxJsonOutput.
nlohmann::json run_to_wire(const RunResult& r);
/// Inverse of run_to_wire (run_from_json reads both forms). Throws std::runtime_error.
RunResult run_from_wire(const nlohmann::json& j);

/// A live batch's answer body: {"rounds","cancelled","failed","results":[{"runs","times_ms":[...],"last":{run}}]}
/// (one result per request, in order; "last" in the report's run form, absent when the request did not run).
nlohmann::json live_batch_to_json(const LiveBatch& b);
/// Inverse of live_batch_to_json. Throws std::runtime_error naming what is malformed.
LiveBatch live_batch_from_json(const nlohmann::json& j);

/// What `hello` says: the protocol version, the machine, the worker's process and build, the device
/// (device_to_json; available = false with "error" when there is none), the backends it can run and the
/// request types it answers.
struct WorkerHello {
  int protocol = kWorkerProtocolVersion;
  std::string host;
  long pid = 0;
  std::string version;  ///< warpscope's version and git revision
  DeviceInfo device;
  std::vector<BackendKind> backends;      ///< Sim, and Cuda when a device opened
  std::vector<std::string> capabilities;  ///< worker_request_types()
};

nlohmann::json hello_to_json(const WorkerHello& h);
/// Throws std::runtime_error when `j` is not a hello (wrong "type" or no "protocol").
WorkerHello hello_from_json(const nlohmann::json& j);

/// A response: {"id":id,"type":type, ...body's fields}; id < 0 gives "id": null (a line that was no request).
nlohmann::json worker_response(std::int64_t id, const std::string& type,
                               nlohmann::json body = nlohmann::json::object());
/// {"id":id,"type":"error","message":one line}: the request was refused or failed; the worker goes on.
nlohmann::json worker_error(std::int64_t id, const std::string& message);
/// {"id":id,"type":"faulted","message":one line}: the request broke the device (a sticky CUDA error);
/// the worker exits after sending it.
nlohmann::json worker_faulted(std::int64_t id, const std::string& message);

/// The first line of `text` without trailing white space, cut to `max` characters ("..." appended):
/// what error messages quote of garbage or of a worker's stderr.
std::string one_line(const std::string& text, std::size_t max = 160);

}  // namespace ws
