#include "engine/limits.h"

#include <stdexcept>

#include "engine/settings.h"

namespace nutcore::engine {

Limits Limits::from_json(const Json& j) {
  Limits l;
  for (const auto& [key, v] : j.items("limits")) {
    const std::string what = "limits: " + key;
    if (v.is_null()) continue;
    if (key == "iterations")
      l.iterations = static_cast<long>(integer_in(v, what, 1, kMaxIterations));
    else if (key == "time_limit")
      l.time_limit = real_in(v, what, false);
    else if (key == "threads")
      l.threads = static_cast<int>(integer_in(v, what, 1, kMaxThreads));
    else if (key == "max_nodes")
      l.max_nodes = static_cast<long>(integer_in(v, what, 1000, 2'000'000'000));
    else if (key == "depth")
      l.depth = static_cast<int>(integer_in(v, what, 1, 64));
    else if (key == "search_seconds")
      l.search_seconds = real_in(v, what, false);
    else if (key == "searches")
      l.searches = static_cast<int>(integer_in(v, what, 1, 10'000));
    else if (key == "file_params")
      l.file_params = flag_in(v, what);
    else if (key == "nice")
      l.nice = static_cast<int>(integer_in(v, what, 0, 19));
    else if (key == "test_hooks")
      l.test_hooks = flag_in(v, what);
    else
      throw std::invalid_argument("limits: unknown key " + quoted(key));
  }
  return l;
}

Json Limits::to_json() const {
  Json j = Json::object();
  const auto cap = [&](const char* key, double v, bool integral) {
    j.set(key, v > 0 ? (integral ? Json::integer(static_cast<int64_t>(v)) : Json::number(v)) : Json::null());
  };
  cap("iterations", static_cast<double>(iterations), true);
  cap("time_limit", time_limit, false);
  cap("threads", threads, true);
  cap("max_nodes", static_cast<double>(max_nodes), true);
  cap("depth", depth, true);
  cap("search_seconds", search_seconds, false);
  cap("searches", searches, true);
  j.set("file_params", Json::boolean(file_params));
  j.set("nice", Json::integer(nice));
  j.set("test_hooks", Json::boolean(test_hooks));
  return j;
}

}  // namespace nutcore::engine
