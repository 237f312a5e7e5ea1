// The declared games, in CMake's NUTCORE_GAMES order (generated/games.inc), and best_move: what
// every door calls to load a game and to search.
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <type_traits>

#include "engine/any.h"
#include "engine/model.h"

// Every declaration, for the compile-time checks below (generated/declarations.inc).
#include "declarations.inc"

namespace nutcore::engine {

#define NUTCORE_GAME(g) const GameEntry& entry_##g();
#include "games.inc"
#undef NUTCORE_GAME

namespace {

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

constexpr bool same_text(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

struct End {};  // closes the list below (its entries end in commas)

template <typename T>
constexpr const char* name_of() {
  if constexpr (std::is_same_v<T, End>)
    return nullptr;
  else
    return T::kName;
}
template <typename T>
constexpr int tag_of() {
  if constexpr (std::is_same_v<T, End>)
    return -1;
  else
    return T::kGameTag;
}

// No two games share a name or a serialization tag.
template <typename... D>
constexpr bool distinct() {
  constexpr const char* names[] = {name_of<D>()...};
  constexpr int tags[] = {tag_of<D>()...};
  for (size_t i = 0; i < sizeof...(D); ++i)
    for (size_t j = i + 1; j < sizeof...(D); ++j)
      if (names[i] && names[j] && (same_text(names[i], names[j]) || tags[i] == tags[j])) return false;
  return true;
}

#define NUTCORE_GAME(g) declare::g,
static_assert(distinct<
#include "games.inc"
                  End>(),
              "two games share a name or a game tag");
#undef NUTCORE_GAME

// By name: the order every door lists the games in.
const std::vector<const GameEntry*>& entries() {
  static const std::vector<const GameEntry*> all = [] {
    std::vector<const GameEntry*> games = {
#define NUTCORE_GAME(g) &entry_##g(),
#include "games.inc"
#undef NUTCORE_GAME
    };
    std::sort(games.begin(), games.end(),
              [](const GameEntry* a, const GameEntry* b) { return a->info.name < b->info.name; });
    return games;
  }();
  return all;
}

const GameEntry& entry(const std::string& name) {
  for (const GameEntry* e : entries())
    if (e->info.name == name) return *e;
  std::vector<std::string> known;
  for (const GameEntry* e : entries()) known.push_back(e->info.name);
  fail("unknown game " + quoted(name) + "; available: " + name_list(known));
}

std::string offered(const GameInfo& info) {
  std::string out = quoted("auto");
  for (int i = 0; i < kNumAlgorithms; ++i)
    if (info.algorithms.has(static_cast<Algorithm>(i))) out += ", " + quoted(kAlgorithmNames[i]);
  return out;
}

Json number_or_null(double x) { return std::isfinite(x) ? Json::number(x) : Json::null(); }

}  // namespace

const std::vector<GameInfo>& game_infos() {
  static const std::vector<GameInfo> infos = [] {
    std::vector<GameInfo> out;
    for (const GameEntry* e : entries()) out.push_back(e->info);
    return out;
  }();
  return infos;
}

const GameInfo& game_info(const std::string& name) { return entry(name).info; }

std::shared_ptr<const AnyGame> load_game(const std::string& name, const Json& params) {
  const GameEntry& e = entry(name);
  if (const Json* players = params.find("players"))
    integer_in(*players, name + ": players", e.info.min_players, e.info.max_players);
  return e.load(params, e.info);
}

bool AnyGame::same_as(const AnyGame& other) const {
  return this == &other || (info().name == other.info().name && params_json().dump() == other.params_json().dump());
}

int AnyState::checked_seat(int64_t seat, const std::string& what) const {
  const int n = game().num_players();
  if (seat < 0 || seat >= n) fail(what + " must be in 0.." + std::to_string(n - 1) + ", got " + std::to_string(seat));
  return static_cast<int>(seat);
}

Json board_json(const AnyState& state, std::optional<int> seat, bool memory_aids) {
  if (seat) seat = state.checked_seat(*seat, "board: seat");
  Json r = Json::object();
  r.set("seat", seat ? Json::integer(*seat) : Json::null());
  r.set("memory_aids", Json::boolean(memory_aids));
  const int s = seat.value_or(-1);
  if (!memory_aids) {
    r.set("text", Json::string(state.unaided_string(s)));
    r.set("json", state.unaided_json(s));
  } else if (!seat) {
    r.set("text", Json::string(state.to_string()));
    r.set("json", state.to_json());
  } else {
    r.set("text", Json::string(state.information_string(s)));
    r.set("json", state.view_json(s));
  }
  return r;
}

bool SearchResult::stopped() const {
  const Json* s = extra.find("stopped");
  return s && s->type() == Json::Type::kBool && s->as_bool("stopped");
}

Json SearchResult::to_json() const {
  Json j = Json::object();
  j.set("action", Json::integer(action));
  j.set("action_string", Json::string(action_string));
  j.set("algorithm", Json::string(algorithm));
  Json v = Json::array();
  for (double x : value) v.push(number_or_null(x));
  j.set("value", v);
  Json stats = Json::array();
  for (const ActionStat& s : actions) {
    Json a = Json::object();
    a.set("action", Json::integer(s.action));
    a.set("action_string", Json::string(s.action_string));
    a.set("visits", s.visits >= 0 ? Json::integer(s.visits) : Json::null());
    a.set("value", number_or_null(s.value));
    stats.push(a);
  }
  j.set("actions", stats);
  j.set("iterations", iterations >= 0 ? Json::integer(iterations) : Json::null());
  j.set("nodes", nodes >= 0 ? Json::integer(nodes) : Json::null());
  j.set("elapsed", Json::number(elapsed));
  for (const auto& [key, value] : extra.items("extra")) j.set(key, value);
  return j;
}

uint64_t random_seed() {
  std::random_device device;
  return (static_cast<uint64_t>(device()) << 32) ^ device();
}

PreparedSearch prepare_search(const AnyState& state, const SearchRequest& request, bool with_tree,
                              const std::string& who) {
  if (state.is_terminal() || state.is_chance_node())
    fail(who + ": the state is terminal or a chance node; there is no move to choose");
  const GameInfo& info = state.game().info();
  const bool automatic = !request.algorithm;
  const Algorithm chosen = automatic ? state.auto_algorithm() : *request.algorithm;
  PreparedSearch out;
  out.tree_search = chosen == Algorithm::kMcts || chosen == Algorithm::kIsmcts;
  if (with_tree && !automatic && !out.tree_search)
    fail(who + ": " + algorithm_name(chosen) + " keeps no tree between searches (tree is for mcts and ismcts)");
  if (!info.algorithms.has(chosen))
    fail(who + ": algorithm " + quoted(algorithm_name(chosen)) + " is not available for " + info.name +
         "; choose from " + offered(info));
  const bool sampling = out.tree_search || chosen == Algorithm::kPimc;
  // "auto" was checked with MCTS's settings; where it picks an exact algorithm they are ignored,
  // its time limit too (engine/any.h).
  SearchRequest effective = request;
  if (automatic && !sampling) {
    effective.options = Json::object();
    effective.time_limit = 0;
  }
  const Json* defaults = info.search_defaults.find(algorithm_name(chosen));
  out.settings = resolve_search(effective, chosen, defaults ? *defaults : Json::object(), who);
  attach_network(out.settings, request, state.game(), who);
  return out;
}

void attach_network(ResolvedSearch& settings, const SearchRequest& request, const AnyGame& game,
                    const std::string& who) {
  MctsOptions* m = settings.algorithm == Algorithm::kMcts     ? &settings.mcts
                   : settings.algorithm == Algorithm::kIsmcts ? static_cast<MctsOptions*>(&settings.ismcts)
                   : settings.algorithm == Algorithm::kPimc   ? static_cast<MctsOptions*>(&settings.pimc)
                                                              : nullptr;
  if (!m) return;  // an exact algorithm ("auto" may pick one): the sampling searches' settings are ignored
  const bool learned = m->evaluator == Evaluator::kLearned || m->evaluator == Evaluator::kLearnedPlayout;
  if (!learned) {
    if (request.network) fail(who + ": a network is for evaluator='learned' or 'learned+playout'");
    return;
  }
  const std::string& name = game.info().name;
  const int players = game.num_players();
  std::shared_ptr<const Network> net = request.network ? request.network : shipped_network(name, players);
  if (!net) {
    std::string known;
    for (const std::string& n : shipped_networks()) known += (known.empty() ? "" : ", ") + n;
    fail(who + ": no trained network for " + name + " at " + std::to_string(players) +
         " players (evaluator 'learned'); built in: " + (known.empty() ? "none" : known));
  }
  if (net->game() != name || net->players() != players || net->input_size() != game.observation_tensor_size() ||
      net->num_actions() != game.num_distinct_actions())
    fail(who + ": the network is for " + net->game() + " at " + std::to_string(net->players()) + " players (" +
         std::to_string(net->input_size()) + " inputs, " + std::to_string(net->num_actions()) + " moves), not for " +
         name + " at " + std::to_string(players) + " players (" + std::to_string(game.observation_tensor_size()) +
         " inputs, " + std::to_string(game.num_distinct_actions()) + " moves)");
  m->network = net.get();
}

void check_vector_search(const SearchRequest& request, const std::string& who) {
  const std::string where = " (the cap in docs/vector.md)";
  if (request.iterations > kMaxVectorIterations)
    fail(who + ": iterations are at most " + std::to_string(kMaxVectorIterations) + " per environment per move" +
         where + ", got " + std::to_string(request.iterations));
  if (who == "search") return;  // prepare_batched_search refuses the rest
  // An opponent's move is one of many the environment's threads play: a time limit would tie the
  // games to the machine's speed and load, threads of its own would multiply the environment's.
  if (request.time_limit > 0)
    fail(who +
         ": give iterations, not a time_limit: the games must not depend on the machine's speed (docs/vector.md)");
  if (request.threads != 1)
    fail(who + ": the environment's threads run the opponents; a search of theirs takes no threads");
  if (const Json* depth = request.options.find("depth"); depth && depth->as_int("depth") > kMaxOpponentDepth)
    fail(who + ": expectimax's depth is at most " + std::to_string(kMaxOpponentDepth) + " for opponents" + where +
         ", got " + std::to_string(depth->as_int("depth")));
}

ResolvedSearch prepare_batched_search(const AnyGame& game, const SearchRequest& request) {
  const std::string who = "search";
  const GameInfo& info = game.info();
  const Algorithm tree = info.hidden_information ? Algorithm::kIsmcts : Algorithm::kMcts;
  const Algorithm chosen = request.algorithm.value_or(tree);
  if (chosen != tree)
    fail(who + ": the batched search runs " + info.name + "'s tree search, " + quoted(algorithm_name(tree)) + " (or " +
         quoted("auto") + "), not " + quoted(algorithm_name(chosen)));
  if (request.time_limit > 0) fail(who + ": give iterations (per environment), not a time_limit");
  if (request.threads != 1) fail(who + ": the environment's threads run the search; it takes no threads");
  check_vector_search(request, who);
  const Json* defaults = info.search_defaults.find(algorithm_name(chosen));
  ResolvedSearch out = resolve_search(request, chosen, defaults ? *defaults : Json::object(), who);
  MctsOptions& m = chosen == Algorithm::kMcts ? out.mcts : static_cast<MctsOptions&>(out.ismcts);
  if (!request.options.find("evaluator")) m.evaluator = Evaluator::kOutside;  // the caller's, leaf by leaf
  attach_network(out, request, game, who);
  return out;
}

AnyKeptTree* KeptTree::for_state(const AnyState& state) {
  if (!owner || !owner->same_as(state.game())) {
    owner = state.game_ptr();
    kept = state.game().new_kept_tree();
  }
  return kept.get();
}

void KeptTree::clear() {
  owner.reset();
  kept.reset();
}

SearchResult best_move(const AnyState& state, const SearchRequest& request, const StopFlag* stop,
                       SearchProgress* progress, AnyKeptTree* kept, const std::string& who) {
  const PreparedSearch p = prepare_search(state, request, kept != nullptr, who);
  const uint64_t seed = request.seed ? *request.seed : random_seed();
  return state.search(p.settings, seed, stop, progress, p.tree_search ? kept : nullptr);
}

}  // namespace nutcore::engine
