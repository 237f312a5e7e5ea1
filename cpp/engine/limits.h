// What a client may ask of the engine (docs/engine-protocol.md, "Limits"): the caps that whoever
// starts an engine sets for its clients.
#pragma once

#include "core/json.h"

namespace nutcore::engine {

// What a client may ask of the engine; a cap of 0 (or a negative one) is no cap. The defaults cap
// nothing but files: a client never makes the engine open one unless whoever started it allows it.
struct Limits {
  long iterations = 0;
  double time_limit = 0;
  int threads = 0;
  long max_nodes = 0;         // also the tree memory of a search that names none
  int depth = 0;              // expectimax
  double search_seconds = 0;  // every search is stopped after this, whatever its budget
  int searches = 0;           // searches at once over the engines that share one SearchSlots
  bool file_params = false;   // a game parameter that is data by default may name a JSON file
  int nice = 0;               // the searches' threads run at this nice value (Linux)
  // For the test suites only (nutcore-engine --test-hooks): the commands _full_state (the true
  // position), _replace_full_state {position} and _reseed {seed}, which no client must have.
  bool test_hooks = false;
  // From {"iterations": ..., "file_params": true, ...}; unknown keys and bad values are errors.
  static Limits from_json(const Json& j);
  Json to_json() const;
};

}  // namespace nutcore::engine
