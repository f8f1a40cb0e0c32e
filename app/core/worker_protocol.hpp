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
#include "collective/allreduce_run.hpp"
#include "live_runner.hpp"
#include "run_types.hpp"

namespace ws {

/// Protocol version: the worker announces it in `hello`; a client refuses any other.
constexpr int kWorkerProtocolVersion = 2;

/// Request types a worker answers (hello's "capabilities").
inline const std::vector<std::string>& worker_request_types() {
  static const std::vector<std::string> types = {"run",       "trace",  "sweep",   "live_batch",
                                                 "allreduce", "cancel", "shutdown"};
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

/// What an "allreduce" request asks (the lesson "Reduction across GPUs", docs/collective.md): one method at
/// one size, in the sim or on the worker's GPUs. As JSON: {"method","gpus","length","warmup","repeats",
/// "backend","link"}.
struct AllReduceAsk {
  collective::AllReduceRequest run;        ///< gpus 0: every GPU the worker sees (cuda), capped at 8
  BackendKind backend = BackendKind::Sim;  ///< sim: collective::simulate_allreduce; cuda: the worker's GPUs
  std::string link = "nvlink4";            ///< the sim's machine (collective::link_model_by_name); unused by cuda
};

/// An all-reduce request as JSON (the "request" of {"type":"allreduce"}).
nlohmann::json allreduce_ask_to_json(const AllReduceAsk& a);
/// Inverse of allreduce_ask_to_json; missing fields take AllReduceAsk's defaults, unknown fields are ignored (as
/// request_from_json does). Throws std::runtime_error with one line naming the field: not an object, an unknown
/// method, backend or link, gpus outside 0..8, length outside 1..2^30, warmup outside 0..1000, repeats outside
/// 1..100000, a value of the wrong type.
AllReduceAsk allreduce_ask_from_json(const nlohmann::json& j);

/// An all-reduce's answer body: {"result": collective::allreduce_result_to_json(r), "visible_gpus": n} (n: the
/// GPUs the worker's process sees, whatever the backend; 0 without CUDA).
nlohmann::json allreduce_answer_to_json(const collective::AllReduceResult& r, int visible_gpus);
/// Inverse of allreduce_answer_to_json (the result checked as collective::allreduce_result_from_json checks a
/// file's). Throws std::runtime_error naming what is malformed.
collective::AllReduceResult allreduce_answer_from_json(const nlohmann::json& j, int& visible_gpus);

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
  /// The GPUs the worker's process sees (the all-reduce lesson runs on them); -1 when the worker did not say
  /// (a build before 2026-11-29).
  int visible_gpus = -1;
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
