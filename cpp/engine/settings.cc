// Search settings: the tables of each algorithm's options and the checks every door shares.
#include "engine/settings.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace nutcore::engine {

namespace {

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

enum class Kind : uint8_t { kInt, kReal, kRealOrZero, kWeight, kFlag, kEvaluator };

struct Option {
  const char* name;
  Kind kind;
  int64_t lo = 0, hi = 0;  // kInt
};

// Each algorithm's options (the budget, seed and threads aside). "auto" takes MCTS's.
const std::vector<Option>& options_of(Algorithm a) {
  static const std::vector<Option> mcts = {{"exploration", Kind::kRealOrZero},
                                           {"heuristic_rollouts", Kind::kFlag},
                                           {"max_nodes", Kind::kInt, 1000, 2'000'000'000},
                                           {"widening", Kind::kRealOrZero},
                                           {"policy_bias", Kind::kRealOrZero},
                                           {"margin", Kind::kWeight},
                                           {"margin_scale", Kind::kReal},
                                           {"evaluator", Kind::kEvaluator},
                                           {"root_noise", Kind::kWeight},
                                           {"root_noise_alpha", Kind::kReal},
                                           {"playout_weight", Kind::kWeight}};
  static const std::vector<Option> ismcts = {{"exploration", Kind::kRealOrZero},
                                             {"heuristic_rollouts", Kind::kFlag},
                                             {"max_nodes", Kind::kInt, 1000, 2'000'000'000},
                                             {"policy_bias", Kind::kRealOrZero},
                                             {"margin", Kind::kWeight},
                                             {"margin_scale", Kind::kReal},
                                             {"evaluator", Kind::kEvaluator},
                                             {"root_noise", Kind::kWeight},
                                             {"root_noise_alpha", Kind::kReal},
                                             {"playout_weight", Kind::kWeight}};
  static const std::vector<Option> pimc = {{"exploration", Kind::kRealOrZero},
                                           {"heuristic_rollouts", Kind::kFlag},
                                           {"max_nodes", Kind::kInt, 1000, 2'000'000'000},
                                           {"margin", Kind::kWeight},
                                           {"margin_scale", Kind::kReal},
                                           {"determinizations", Kind::kInt, 1, 100'000},
                                           {"evaluator", Kind::kEvaluator},
                                           {"playout_weight", Kind::kWeight}};
  static const std::vector<Option> expectimax = {{"depth", Kind::kInt, 1, ExpectimaxOptions::kMaxDepth},
                                                 {"bound", Kind::kReal},
                                                 {"pruning", Kind::kFlag},
                                                 {"star2", Kind::kFlag}};
  static const std::vector<Option> solver = {};
  switch (a) {
    case Algorithm::kMcts:
      return mcts;
    case Algorithm::kIsmcts:
      return ismcts;
    case Algorithm::kPimc:
      return pimc;
    case Algorithm::kExpectimax:
      return expectimax;
    case Algorithm::kSolver:
      return solver;
  }
  return solver;
}

bool sampling(Algorithm a) { return a == Algorithm::kMcts || a == Algorithm::kIsmcts || a == Algorithm::kPimc; }

std::string choices() {
  std::string out = quoted("auto");
  for (const char* n : kAlgorithmNames) out += ", " + quoted(n);
  return out;
}

// The value of option `o` read from `v`, checked.
Json checked_option(const Option& o, const Json& v, const std::string& who) {
  const std::string what = who + ": " + o.name;
  switch (o.kind) {
    case Kind::kInt:
      return Json::integer(integer_in(v, what, o.lo, o.hi));
    case Kind::kReal:
      return Json::number(real_in(v, what, false));
    case Kind::kRealOrZero:
      return Json::number(real_in(v, what, true));
    case Kind::kWeight: {
      const double w = real_in(v, what, true);
      if (w > 1) fail(who + ": " + o.name + " is a weight in [0, 1], got " + shown(v));
      return Json::number(w);
    }
    case Kind::kFlag:
      return Json::boolean(flag_in(v, what));
    case Kind::kEvaluator:
      return Json::string(evaluator_name(evaluator_in(v, what)));
  }
  return v;
}

// Checks `options` (an object) against algorithm a's table; the checked values.
Json check_options(Algorithm a, const Json& options, const std::string& who) {
  const auto& table = options_of(a);
  std::vector<std::string> unknown;
  for (const auto& item : options.items(who + ": options")) {
    const std::string& key = item.first;
    if (std::none_of(table.begin(), table.end(), [&](const Option& o) { return key == o.name; }))
      unknown.push_back(key);
  }
  if (!unknown.empty()) {
    std::vector<std::string> allowed;
    for (const Option& o : table) allowed.push_back(o.name);
    fail(who + ": algorithm " + quoted(algorithm_name(a)) + " has no option(s) " + name_list(unknown) +
         "; its options are " + name_list(allowed));
  }
  Json checked = Json::object();
  for (const auto& item : options.items(who + ": options")) {
    const std::string& key = item.first;
    const Option& o = *std::find_if(table.begin(), table.end(), [&](const Option& x) { return key == x.name; });
    checked.set(key, checked_option(o, item.second, who));
  }
  return checked;
}

void set_mcts_option(MctsOptions& m, const std::string& key, const Json& v) {
  if (key == "exploration")
    m.exploration = v.as_number(key);
  else if (key == "heuristic_rollouts")
    m.heuristic_rollouts = v.as_bool(key);
  else if (key == "max_nodes")
    m.max_nodes = static_cast<long>(v.as_int(key));
  else if (key == "widening")
    m.widening = v.as_number(key);
  else if (key == "policy_bias")
    m.policy_bias = v.as_number(key);
  else if (key == "margin")
    m.margin = v.as_number(key);
  else if (key == "margin_scale")
    m.margin_scale = v.as_number(key);
  else if (key == "evaluator")
    m.evaluator = evaluator_in(v, key);
  else if (key == "root_noise")
    m.root_noise = v.as_number(key);
  else if (key == "root_noise_alpha")
    m.root_noise_alpha = v.as_number(key);
  else if (key == "playout_weight")
    m.playout_weight = v.as_number(key);
}

Json mcts_json(const MctsOptions& m, Algorithm a) {
  Json j = Json::object();
  for (const Option& o : options_of(a)) {
    const std::string key = o.name;
    if (key == "exploration")
      j.set(key, Json::number(m.exploration));
    else if (key == "heuristic_rollouts")
      j.set(key, Json::boolean(m.heuristic_rollouts));
    else if (key == "max_nodes")
      j.set(key, Json::integer(m.max_nodes));
    else if (key == "widening")
      j.set(key, Json::number(m.widening));
    else if (key == "policy_bias")
      j.set(key, Json::number(m.policy_bias));
    else if (key == "margin")
      j.set(key, Json::number(m.margin));
    else if (key == "margin_scale")
      j.set(key, Json::number(m.margin_scale));
    else if (key == "evaluator")
      j.set(key, Json::string(evaluator_name(m.evaluator)));
    else if (key == "root_noise")
      j.set(key, Json::number(m.root_noise));
    else if (key == "root_noise_alpha")
      j.set(key, Json::number(m.root_noise_alpha));
    else if (key == "playout_weight")
      j.set(key, Json::number(m.playout_weight));
  }
  return j;
}

}  // namespace

const char* algorithm_name(Algorithm a) { return kAlgorithmNames[static_cast<int>(a)]; }

Algorithm parse_algorithm(const std::string& name, const std::string& who) {
  for (int i = 0; i < kNumAlgorithms; ++i)
    if (name == kAlgorithmNames[i]) return static_cast<Algorithm>(i);
  fail(who + ": unknown algorithm " + quoted(name) + "; choose from " + choices());
}

std::string shown(const Json& v) {
  const std::string text = v.dump();
  return text.size() <= 80 ? text : text.substr(0, 77) + "...";
}

std::string quoted(const std::string& name) { return Json::string(name).dump(); }

std::string name_list(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + quoted(names[i]);
  return out + "]";
}

int64_t integer_in(const Json& v, const std::string& what, int64_t lo, int64_t hi) {
  if (v.type() == Json::Type::kBool) fail(what + " must be an integer, not a bool");
  if (!v.is_integer()) fail(what + " must be an integer, got " + shown(v));
  if (!v.fits_int64() || v.as_int(what) < lo || v.as_int(what) > hi)
    fail(what + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " + v.integer_text());
  return v.as_int(what);
}

uint64_t seed_in(const Json& v, const std::string& what) {
  if (v.type() == Json::Type::kBool) fail(what + " must be an integer, not a bool");
  if (!v.is_integer()) fail(what + " must be an integer, got " + shown(v));
  if (!v.fits_uint64()) fail(what + " must be in 0.." + std::to_string(kMaxSeed) + ", got " + v.integer_text());
  return v.as_uint64();
}

double real_in(const Json& v, const std::string& what, bool zero_allowed) {
  if (v.type() != Json::Type::kInt && v.type() != Json::Type::kDouble)
    fail(what + " must be a number, got " + shown(v));
  const bool finite = !(v.is_integer() && !v.fits_int64() && !v.fits_uint64());
  const double x = finite ? v.as_number(what) : INFINITY;
  if (!(std::isfinite(x) && (x > 0 || (zero_allowed && x == 0))))
    fail(what + " must be a finite number " + (zero_allowed ? ">=" : ">") + " 0, got " + shown(v));
  return x;
}

Evaluator evaluator_in(const Json& v, const std::string& what) {
  const std::string choices = "'playout', 'uniform', 'learned' or 'learned+playout'";
  if (v.type() != Json::Type::kString) fail(what + " must be " + choices + ", got " + shown(v));
  for (Evaluator e : {Evaluator::kPlayout, Evaluator::kUniform, Evaluator::kLearned, Evaluator::kLearnedPlayout})
    if (v.as_string(what) == evaluator_name(e)) return e;
  fail(what + " must be " + choices + ", got " + shown(v));
}

bool flag_in(const Json& v, const std::string& what) {
  if (v.type() != Json::Type::kBool) fail(what + " must be true or false, got " + shown(v));
  return v.as_bool(what);
}

SearchRequest parse_search_request(const Json& settings, const std::string& who) {
  SearchRequest r;
  bool iterations_given = false;
  const Json* threads = nullptr;
  for (const auto& [key, value] : settings.items(who + ": settings")) {
    if (key == "algorithm") {
      if (value.type() != Json::Type::kString) fail(who + ": algorithm must be a name, got " + shown(value));
      if (value.as_string(key) != "auto") r.algorithm = parse_algorithm(value.as_string(key), who);
    } else if (value.is_null() && (key == "iterations" || key == "time_limit" || key == "threads" || key == "seed")) {
      continue;  // the budget and the seed: null is as good as absent
    } else if (key == "iterations") {
      r.iterations = static_cast<long>(integer_in(value, who + ": iterations", 1, kMaxIterations));
      iterations_given = true;
    } else if (key == "time_limit") {
      r.time_limit = real_in(value, who + ": time_limit", false);
    } else if (key == "threads") {
      r.threads = static_cast<int>(integer_in(value, who + ": threads", 1, kMaxThreads));
      threads = &value;
    } else if (key == "seed") {
      r.seed = seed_in(value, who + ": seed");
    } else {
      r.options.set(key, value);
    }
  }
  const Algorithm checked_as = r.algorithm.value_or(Algorithm::kMcts);
  // Every algorithm takes a time limit; iterations and threads are the sampling searches' alone.
  if (!sampling(checked_as) && (iterations_given || (threads && r.threads != 1)))
    fail(who + ": " + algorithm_name(checked_as) +
         " is an exact search; it takes no iterations or threads (a time_limit bounds it)");
  r.options = check_options(checked_as, r.options, who);
  return r;
}

const std::vector<std::string>& request_fields() {
  static const std::vector<std::string> fields = {"algorithm", "iterations", "time_limit", "threads", "seed"};
  return fields;
}

Json request_settings(const Json& request, const std::string& who, bool flat_options) {
  if (request.type() != Json::Type::kObject) fail(who + ": a request is a JSON object, got " + shown(request));
  const auto is_field = [](const std::string& key) {
    const auto& fields = request_fields();
    return std::find(fields.begin(), fields.end(), key) != fields.end();
  };
  Json settings = Json::object();
  for (const auto& [key, value] : request.items(who + ": request")) {
    const Json::Type t = value.type();
    if (key == "algorithm") {
      if (t != Json::Type::kString) fail(who + ": algorithm must be a string, got " + shown(value));
    } else if (key == "time_limit") {
      if (t != Json::Type::kInt && t != Json::Type::kDouble)
        fail(who + ": time_limit must be an integer or a number, got " + shown(value));
    } else if (is_field(key)) {
      if (t != Json::Type::kInt) fail(who + ": " + key + " must be an integer, got " + shown(value));
    } else if (key == "options" || !flat_options) {
      continue;
    }
    settings.set(key, value);
  }
  const Json* options = request.find("options");
  if (!options) return settings;
  if (options->type() != Json::Type::kObject) fail(who + ": options must be an object, got " + shown(*options));
  std::vector<std::string> clash;
  for (const auto& item : options->items(who + ": options"))
    if (item.first == "state" || item.first == "stop" || is_field(item.first)) clash.push_back(item.first);
  if (!clash.empty()) {
    std::sort(clash.begin(), clash.end());
    std::string list;
    for (size_t i = 0; i < clash.size(); ++i) list += (i ? ", " : "") + clash[i];
    fail(who + ": " + list + " go in the request itself, not in options");
  }
  for (const auto& [key, value] : options->items(who + ": options")) {
    if (settings.find(key)) fail(who + ": option " + key + " is given twice, in options and beside them");
    settings.set(key, value);
  }
  return settings;
}

ResolvedSearch resolve_search(const SearchRequest& request, Algorithm algorithm, const Json& game_defaults,
                              const std::string& who) {
  ResolvedSearch out;
  out.algorithm = algorithm;
  // The game's defaults, then the request's options, each checked against this algorithm's table.
  Json merged = Json::object();
  for (const auto& [key, value] : game_defaults.items("search defaults")) merged.set(key, value);
  for (const auto& [key, value] : request.options.items("options")) merged.set(key, value);
  const Json options = check_options(algorithm, merged, who);
  if (sampling(algorithm)) {
    MctsOptions* m = algorithm == Algorithm::kMcts     ? &out.mcts
                     : algorithm == Algorithm::kIsmcts ? static_cast<MctsOptions*>(&out.ismcts)
                                                       : static_cast<MctsOptions*>(&out.pimc);
    for (const auto& [key, value] : options.items("options")) {
      if (key == "determinizations")
        out.pimc.determinizations = static_cast<int>(value.as_int(key));
      else
        set_mcts_option(*m, key, value);
    }
    const bool no_budget = request.iterations == 0 && request.time_limit == 0;
    m->iterations = no_budget ? kDefaultIterations : request.iterations;
    m->time_limit = request.time_limit;
    m->threads = std::min(request.threads, kThreadsAvailable);
  } else {
    out.time_limit = request.time_limit;
  }
  if (algorithm == Algorithm::kExpectimax) {
    for (const auto& [key, value] : options.items("options")) {
      if (key == "depth")
        out.expectimax.depth = static_cast<int>(value.as_int(key));
      else if (key == "bound")
        out.expectimax.bound = value.as_number(key);
      else if (key == "pruning")
        out.expectimax.pruning = value.as_bool(key);
      else if (key == "star2")
        out.expectimax.star2 = value.as_bool(key);
    }
    // With a time limit and no depth of the request's own it deepens until the time runs out: the
    // default depth (a game's too) is for searches without one.
    if (request.time_limit > 0 && !request.options.find("depth")) out.expectimax.depth = ExpectimaxOptions::kMaxDepth;
  }
  return out;
}

Json default_options(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::kMcts:
      return mcts_json(MctsOptions{}, algorithm);
    case Algorithm::kIsmcts:
      return mcts_json(IsmctsOptions{}, algorithm);
    case Algorithm::kPimc: {
      Json j = mcts_json(PimcOptions{}, algorithm);
      j.set("determinizations", Json::integer(PimcOptions{}.determinizations));
      return j;
    }
    case Algorithm::kExpectimax: {
      const ExpectimaxOptions e;
      Json j = Json::object();
      j.set("depth", Json::integer(e.depth));
      j.set("bound", Json::number(e.bound));
      j.set("pruning", Json::boolean(e.pruning));
      j.set("star2", Json::boolean(e.star2));
      return j;
    }
    case Algorithm::kSolver:
      return Json::object();
  }
  return Json::object();
}

Json game_search_defaults(const char* text, const std::string& game) {
  const Json all = Json::parse(text);
  for (const auto& [name, options] : all.items(game + ": search defaults"))
    check_options(parse_algorithm(name, game + ": search defaults"), options, game + ": search defaults");
  return all;
}

}  // namespace nutcore::engine
