// Validating and running a RunRequest, whatever the backend.
#pragma once
#include <memory>
#include <string>

#include "backend.hpp"
#include "inputs.hpp"
#include "run_types.hpp"
#include "variant.hpp"

namespace ws {

/// Default n when a request gives none and the input is generated: 2^20.
constexpr std::int64_t kDefaultN = std::int64_t(1) << 20;

/// A validated request: the variant, its input and its launch (grid may still be 0 = device default).
struct PreparedRun {
  const VariantInfo* variant = nullptr;
  /// A user's kernel (RunRequest::kernel): the variant it runs as (user_kernel_variant), which `variant`
  /// points to; null for built-in variants.
  std::shared_ptr<const VariantInfo> own_variant;
  Input input;
  LaunchConfig launch;
  /// True when `launch` is resolved for `shape`, grid included (prepare_run was given the device's
  /// shape): execute_prepared then launches it on a device of that shape without resolving it again.
  bool launch_final = false;
  DeviceShape shape;
  /// Milliseconds prepare_run spent making the input (generating or reading it); execute_prepared reports
  /// it as the run's host_ms.input. Callers that lend one input to several runs set it to 0 after the first.
  double input_ms = 0;
};

/// Validates everything that needs no device: variant id, backend name, type, n, repeat, input
/// (generates it or reads the file) and the launch rules. Returns "" or one line naming the problem.
/// `lend` (optional): an input an earlier run generated from the same kind of request (input_share_key,
/// sweep.hpp); when it has the n, type, kind and seed this request would generate, it is moved into
/// out.input instead of generating it again (input_ms 0) and the caller takes it back after the run.
/// `shape` (optional): the shape of the device that will run it; the launch is then resolved once, here.
std::string prepare_run(const RunRequest& req, PreparedRun& out, Input* lend = nullptr,
                        const DeviceShape* shape = nullptr);

/// Host bytes `req` allocates at its peak (estimate_run_host_bytes) at the size it runs: width x height for a
/// generated image of a pattern that builds its input, else n (or the variant's default n); -1 for an unknown
/// variant or an input file (its size is known once read). For the "needs about X" of an out-of-memory line.
std::int64_t estimate_request_host_bytes(const RunRequest& req);

/// Runs a request: validates (before any device is touched), then runs on `backend` (cuda requests),
/// on the sim backend's CPU model (sim requests: `backend` is not needed; untimed, backend "sim",
/// checked against the reference like any run) or on the host (cpu_only variants, either backend).
/// backend == nullptr with a cuda request gives status "error" with `no_device_reason` and how to use
/// sim or replay. Never throws.
RunResult execute(const RunRequest& req, Backend* backend, const std::string& no_device_reason = "");

/// Runs a request that prepare_run() accepted (so the input is generated once). Never throws.
RunResult execute_prepared(const RunRequest& req, const PreparedRun& p, Backend* backend,
                           const std::string& no_device_reason = "");

/// The one-line answer when there is no CUDA device: "no CUDA device: REASON; " and a way forward that
/// works without one: simulate (--backend sim) or open a report recorded on a GPU. `describe_device`:
/// for `warpscope-cli device`, which has no --backend, so it points to the recorded reports' devices
/// and to `run --backend sim` instead.
std::string no_device_hint(const std::string& reason, bool describe_device = false);

}  // namespace ws
