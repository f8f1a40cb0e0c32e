#include "live_pipeline.hpp"

#include <algorithm>

namespace ws {

using nlohmann::json;

LivePipeline::LivePipeline(WorkerClient& client, std::vector<RunRequest> requests, double batch_seconds, int depth)
    : client_(client), requests_(std::move(requests)), depth_(std::max(1, depth)) {
  json reqs = json::array();
  double round_s = 0;  // one round's expected time: a batch may start its last round just before its time is up
  for (const auto& r : requests_) {
    reqs.push_back(request_to_json(r));
    round_s += expected_seconds(r);
  }
  body_ = {{"requests", std::move(reqs)}};
  if (batch_seconds > 0)
    body_["seconds"] = batch_seconds;
  else
    body_["rounds"] = 1;
  expected_s_ = std::max(0.0, batch_seconds) + round_s;
}

LivePipeline::Reply LivePipeline::collect(std::int64_t id, bool cancelled, const std::atomic<bool>* interrupt) {
  Reply out;
  const WorkerReply rep = client_.wait(id, {}, interrupt);
  out.kind = rep.kind;
  out.text = rep.text;
  if (rep.kind == WorkerReply::Kind::Faulted) {
    in_flight_.clear();  // the worker was killed: nothing else in flight will be answered
    return out;
  }
  cancelled = cancelled || (interrupt && *interrupt);
  if (rep.kind == WorkerReply::Kind::Error) {
    // A batch cancelled while it was still queued: nothing ran, nothing went wrong.
    out.dropped = cancelled && rep.text == "cancelled before it started";
    if (out.dropped) out.kind = WorkerReply::Kind::Ok;
    return out;
  }
  try {
    out.batch = live_batch_from_json(rep.message);
    if (out.batch.requests.size() != requests_.size()) throw std::runtime_error("one result per request expected");
  } catch (const std::exception& e) {
    out.kind = WorkerReply::Kind::Error;
    out.text = std::string("the worker's answer is not a live batch: ") + e.what();
  }
  return out;
}

LivePipeline::Reply LivePipeline::next(const std::atomic<bool>* interrupt) {
  while (int(in_flight_.size()) < depth_ && !(interrupt && *interrupt)) {
    WorkerReply failure;
    const std::int64_t id = client_.send("live_batch", body_, expected_s_, failure);
    if (id < 0) {
      Reply out;
      out.kind = failure.kind;
      out.text = failure.text;
      if (failure.kind == WorkerReply::Kind::Faulted) in_flight_.clear();
      return out;
    }
    in_flight_.push_back(id);
  }
  if (in_flight_.empty()) {  // interrupted before anything was sent
    Reply out;
    out.dropped = true;
    return out;
  }
  const std::int64_t id = in_flight_.front();
  in_flight_.pop_front();
  return collect(id, false, interrupt);
}

std::vector<LivePipeline::Reply> LivePipeline::drain() {
  std::vector<Reply> out;
  for (std::int64_t id : in_flight_) client_.cancel(id);
  while (!in_flight_.empty()) {
    const std::int64_t id = in_flight_.front();
    in_flight_.pop_front();
    out.push_back(collect(id, true, nullptr));
  }
  return out;
}

}  // namespace ws
