// Search settings, checked once: a best_move request (algorithm, budget, seed, the algorithm's
// options) as JSON, from any door (Python keywords, a protocol line, the C ABI, a bot spec). The
// defaults are the search layer's own (MctsOptions, IsmctsOptions, PimcOptions and
// ExpectimaxOptions); a game's declaration may set some of them apart (kSearchDefaults), and the
// request's options go over both. Every bad value is a std::invalid_argument that names it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "engine/declaration.h"
#include "search/expectimax.h"
#include "search/ismcts.h"
#include "search/mcts.h"
#include "search/network.h"

namespace nutcore::engine {

constexpr long kDefaultIterations = 1000;  // a sampling search's budget when none is given
// 2^50, or what a long holds where it is 32 bits (WebAssembly).
constexpr long kMaxIterations =
    static_cast<long>(std::min<int64_t>(int64_t{1} << 50, std::numeric_limits<long>::max()));
constexpr int kMaxThreads = 256;
#if defined(NUTCORE_NO_THREADS)
constexpr int kThreadsAvailable = 1;  // WebAssembly without threads: every search runs on the caller's
#else
constexpr int kThreadsAvailable = kMaxThreads;
#endif
constexpr uint64_t kMaxSeed = UINT64_MAX;

const char* algorithm_name(Algorithm a);
// "mcts" ... "solver"; std::invalid_argument listing the choices ("auto" included) otherwise.
Algorithm parse_algorithm(const std::string& name, const std::string& who);

// A request as given, checked against what its algorithm takes (for "auto": MCTS's settings,
// which it ignores where it picks an exact algorithm, its time limit included: engine/any.h).
// Options are kept as given: the chosen algorithm's defaults, a game's included, come in at
// resolve().
struct SearchRequest {
  std::optional<Algorithm> algorithm;  // nullopt: "auto"
  long iterations = 0;                 // 0: not given
  double time_limit = 0.0;             // 0: not given
  int threads = 1;
  std::optional<uint64_t> seed;
  Json options = Json::object();
  // The learned evaluator's network, if the caller gives its own (else the game's built-in one).
  std::shared_ptr<const Network> network;
};

// Reads {"algorithm", "iterations", "time_limit", "threads", "seed", ...options}; a null budget
// or seed is as good as absent. `who` prefixes every message ("best_move").
SearchRequest parse_search_request(const Json& settings, const std::string& who = "best_move");

// best_move's own fields in a request; options may not hold them.
const std::vector<std::string>& request_fields();

// A best_move request in the protocol's form, {"algorithm", "iterations", "time_limit", "threads",
// "seed", "options": {...}}, as the settings parse_search_request reads (one flat object): the one
// reading of the protocol's best_move and go and the C ABI's nc_best_move. The fields' JSON types
// are checked here as the protocol words them (null is no value here: leave a field out), their
// values by parse_search_request. Other keys: with `flat_options`, options beside the fields (the
// older flat form of nc_best_move, as Python's keywords and bot specs give them); without, the
// caller's (the protocol refuses unknown fields itself) and ignored here. std::invalid_argument,
// prefixed by `who`, for a field of the wrong type, options that are no object or hold a field
// (or "state", "stop"), and an option given both in options and beside them.
Json request_settings(const Json& request, const std::string& who, bool flat_options);

// The settings `algorithm` runs with: defaults, then the game's, then the request's options
// (checked against `algorithm`'s own), and the budget (iterations default to 1000 when neither
// iterations nor a time limit is given; expectimax with a time limit and no depth of the request's
// deepens up to ExpectimaxOptions::kMaxDepth). The seed is the caller's to set.
struct ResolvedSearch {
  Algorithm algorithm = Algorithm::kMcts;
  MctsOptions mcts;
  IsmctsOptions ismcts;
  PimcOptions pimc;
  ExpectimaxOptions expectimax;
  // The exact algorithms' time limit in seconds (0: none), kept by a DeadlineStop (core/deadline.h);
  // the sampling searches keep theirs in their options.
  double time_limit = 0.0;
};
ResolvedSearch resolve_search(const SearchRequest& request, Algorithm algorithm, const Json& game_defaults,
                              const std::string& who = "best_move");

// An algorithm's options with their defaults ("auto": MCTS's), as JSON.
Json default_options(Algorithm algorithm);

// A game's kSearchDefaults text, read and checked once (std::invalid_argument: a bug in the
// declaration).
Json game_search_defaults(const char* text, const std::string& game);

// Range-checked readers for every door, each naming `what` (the messages of the Python API).
int64_t integer_in(const Json& v, const std::string& what, int64_t lo, int64_t hi);
uint64_t seed_in(const Json& v, const std::string& what);
double real_in(const Json& v, const std::string& what, bool zero_allowed);
bool flag_in(const Json& v, const std::string& what);
Evaluator evaluator_in(const Json& v, const std::string& what);  // a leaf evaluator by name (search/evaluation.h)
// A value as a person would read it in a message, as JSON (short: a client's value may be a
// megabyte). The engine's messages show values and names as JSON, whichever door they pass.
std::string shown(const Json& v);
std::string quoted(const std::string& name);            // "name"
std::string name_list(std::vector<std::string> names);  // ["a", "b"], sorted

}  // namespace nutcore::engine
