// AnyGame and AnyState for one declared game (engine/declaration.h): the rules, searches, solver
// and policies of declare::<g>, instantiated once per game in the generated TU model_<g>.cc. The
// searches run here, inside the game's own template code: nothing virtual per node.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/deadline.h"
#include "core/game_concept.h"
#include "core/rng.h"
#include "engine/any.h"
#include "engine/vector_env.h"
#include "search/expectimax.h"
#include "search/ismcts.h"
#include "search/mcts.h"
#include "search/random_playout.h"

namespace nutcore::engine {

template <typename D>
class GameModel;

// A game's tree search kept between calls (tree reuse): the trees, and their root with its
// history, so that the next call can tell whether its position follows from that root.
template <typename Tree, typename Options>
class KeptTreeModel final : public AnyKeptTree {
 public:
  using G = typename Tree::GameType;
  using S = typename G::StateType;

  explicit KeptTreeModel(std::shared_ptr<const G> game) : game_(std::move(game)), search_(*game_) {}
  void clear() override {
    search_.clear();
    has_root_ = false;
  }
  const G& game() const { return *game_; }

  // The actions from the kept root to (state, history), if that follows from it: its history
  // extends the root's, and replaying the extra actions from the root (each legal there) gives its
  // position. A tree that reuses by the seat's view is offered every position (an empty path) and
  // decides itself, so that twin states the seat cannot tell apart are searched alike.
  bool path_to(const S& state, const std::vector<Action>& history, std::vector<Action>& path) const {
    if constexpr (Tree::kReusesByView) return has_root_;
    if (!has_root_ || history.size() < history_.size() ||
        !std::equal(history_.begin(), history_.end(), history.begin()))
      return false;
    S replay = root_;
    for (size_t i = history_.size(); i < history.size(); ++i) {
      const Action a = history[i];
      if (game_->is_terminal(replay) || !legal_here(replay, a)) return false;
      game_->apply(replay, a);
      path.push_back(a);
    }
    return replay == state;
  }

  TreeSearchResult search(const S& root, const std::vector<Action>& history, const Options& options) {
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock) throw std::invalid_argument("tree: this search tree is in use by another search");
    std::vector<Action> path;
    const bool follows = path_to(root, history, path);
    TreeSearchResult r;
    try {
      r = search_.search(root, follows ? &path : nullptr, options);
    } catch (...) {  // the trees may be half moved: forget them
      clear();
      throw;
    }
    root_ = root;
    history_ = history;
    has_root_ = true;
    return r;
  }

 private:
  bool legal_here(const S& s, Action a) const {
    if (game_->is_chance(s)) {
      typename G::Chances outcomes;
      game_->chance_outcomes(s, outcomes);
      for (const auto& o : outcomes)
        if (o.action == a && o.probability > 0) return true;
      return false;
    }
    typename G::Actions legal;
    game_->legal_actions(s, legal);
    return std::find(legal.begin(), legal.end(), a) != legal.end();
  }

  std::shared_ptr<const G> game_;
  KeptTreeSearch<Tree, Options> search_;
  S root_{};
  std::vector<Action> history_;
  bool has_root_ = false;
  std::mutex mutex_;
};

template <typename D>
class StateModel final : public AnyState {
 public:
  using G = typename D::Game;
  using S = typename G::StateType;
  static constexpr bool kHidden = G::kHiddenInformation;
  using TreeSearch =
      std::conditional_t<kHidden, KeptTreeModel<IsmctsTree<G>, IsmctsOptions>, KeptTreeModel<MctsTree<G>, MctsOptions>>;

  StateModel(std::shared_ptr<const GameModel<D>> game, const S& state, std::vector<Action> history = {})
      : game_(std::move(game)), state_(state), history_(std::move(history)) {}

  const G& rules() const;
  const S& state() const { return state_; }
  void set_history(std::vector<Action> history) override { history_ = std::move(history); }

  const AnyGame& game() const override;
  std::shared_ptr<const AnyGame> game_ptr() const override;
  std::shared_ptr<const GameModel<D>> model() const { return game_; }
  std::unique_ptr<AnyState> clone() const override { return std::make_unique<StateModel>(*this); }

  int current_player() const override { return rules().current_player(state_); }
  bool is_chance_node() const override { return rules().is_chance(state_); }
  bool is_terminal() const override { return rules().is_terminal(state_); }
  std::vector<Action> legal_actions() const override {
    typename G::Actions legal;
    rules().legal_actions(state_, legal);
    return std::vector<Action>(legal.begin(), legal.end());
  }
  std::vector<std::pair<Action, double>> chance_outcomes() const override {
    typename G::Chances outcomes;
    rules().chance_outcomes(state_, outcomes);
    std::vector<std::pair<Action, double>> out;
    for (const auto& o : outcomes) out.emplace_back(o.action, o.probability);
    return out;
  }
  bool is_legal(Action a) const override {
    if (a < 0 || a >= G::kNumDistinctActions) return false;
    if (rules().is_chance(state_)) {
      for (const auto& [b, p] : chance_outcomes())
        if (a == b && p > 0) return true;
      return false;
    }
    const auto legal = legal_actions();
    return std::find(legal.begin(), legal.end(), a) != legal.end();
  }
  void apply_action(Action a) override {
    if (!is_legal(a)) throw std::invalid_argument(illegal_action_message(std::to_string(a), a));
    rules().apply(state_, a);
    history_.push_back(a);
  }
  // "illegal action <shown> (<its string>) in <game>; legal actions: [a (s), ...]".
  std::string illegal_action_message(const std::string& shown, Action a) const override {
    std::ostringstream msg;
    msg << "illegal action " << shown;
    if (a >= 0 && a < G::kNumDistinctActions) msg << " (" << rules().action_to_string(a) << ")";
    msg << " in " << G::kName << "; ";
    if (rules().is_terminal(state_)) {
      msg << "the game is over";
    } else {
      msg << (rules().is_chance(state_) ? "chance outcomes" : "legal actions") << ": [";
      bool first = true;
      auto add = [&](Action b) {
        msg << (first ? "" : ", ") << b << " (" << rules().action_to_string(b) << ")";
        first = false;
      };
      if (rules().is_chance(state_))
        for (const auto& o : chance_outcomes()) add(o.first);
      else
        for (Action b : legal_actions()) add(b);
      msg << "]";
    }
    return msg.str();
  }
  std::string action_to_string(Action a) const override {
    if (a < 0 || a >= G::kNumDistinctActions)
      throw std::invalid_argument("action must be in 0.." + std::to_string(G::kNumDistinctActions - 1) + ", got " +
                                  std::to_string(a));
    return rules().action_to_string(a);
  }
  Action string_to_action(const std::string& text) const override { return rules().string_to_action(text); }
  std::vector<double> returns() const override {
    double values[G::kMaxNumPlayers];
    rules().returns(state_, values);
    return std::vector<double>(values, values + rules().num_players());
  }
  std::vector<int> scores() const override {
    int points[G::kMaxNumPlayers];
    rules().scores(state_, points);
    return std::vector<int>(points, points + rules().num_players());
  }
  const std::vector<Action>& history() const override { return history_; }

  Json to_json() const override { return rules().to_json(state_); }
  std::string to_string() const override { return rules().to_string(state_); }
  std::string serialize() const override { return rules().serialize(state_); }
  bool equals(const AnyState& other) const override {
    const auto* o = dynamic_cast<const StateModel*>(&other);
    return o && o->state_ == state_ && game().same_as(o->game());
  }

  std::string information_string(int seat) const override {
    return rules().information_string(state_, checked_seat(seat, "player"));
  }
  Json view_json(int seat) const override { return rules().view_json(state_, checked_seat(seat, "player")); }
  Json unaided_json(int seat) const override {
    if (seat >= 0) checked_seat(seat, "player");
    if constexpr (HasMemoryAids<G>)
      return rules().unaided_json(state_, seat);
    else
      return seat < 0 ? to_json() : view_json(seat);
  }
  std::string unaided_string(int seat) const override {
    if (seat >= 0) checked_seat(seat, "player");
    if constexpr (HasMemoryAids<G>)
      return rules().unaided_string(state_, seat);
    else
      return seat < 0 ? to_string() : information_string(seat);
  }
  uint64_t information_key(int seat) const override {
    return rules().information_key(state_, checked_seat(seat, "player"));
  }
  void observation_tensor(int seat, float* out) const override {
    rules().observation_tensor(state_, checked_seat(seat, "player"), out);
  }
  std::unique_ptr<AnyState> resample(int seat, uint64_t seed) const override {
    const int p = checked_seat(seat, "player");
    Rng rng(seed);
    return std::make_unique<StateModel>(game_, rules().resample(state_, p, rng));
  }
  std::unique_ptr<AnyState> forget(int seat, double recall, uint64_t seed) const override {
    const int p = checked_seat(seat, "player");
    if (!(recall >= 0 && recall <= 1)) throw std::invalid_argument("forget: recall must be in [0, 1]");
    if constexpr (HasForget<G>) {
      Rng rng(seed);
      return std::make_unique<StateModel>(game_, rules().forget(state_, p, recall, rng), history_);
    } else {
      (void)seed;
      return clone();  // nothing to remember: every fact stays on the table
    }
  }

  Observed observe(Action a, int seat) const override {
    const int p = checked_seat(seat, "player");
    if (!is_legal(a)) throw std::invalid_argument(illegal_action_message(std::to_string(a), a));
    if constexpr (HasObserve<G>) {
      return rules().observe(state_, a, p);
    } else if constexpr (G::kHiddenInformation) {  // without the hook: its own decisions only
      if (is_chance_node() || current_player() != p) return {};
      return {action_to_string(a), true};
    } else {
      return {action_to_string(a), true};
    }
  }

  int64_t random_playouts(int64_t count, uint64_t seed, const StopFlag* stop) const override {
    int64_t transitions = 0;
    for (int64_t i = 0; i < count; ++i) {
      if (stop_requested(stop)) throw Stopped();
      Rng rng(playout_seed(seed, i));
      auto state = state_;
      transitions += random_playout(rules(), state, rng);
    }
    return transitions;
  }

  Algorithm auto_algorithm() const override { return D::auto_algorithm(rules(), state_); }
  bool solver_applies() const override { return D::solver_applies(rules(), state_); }
  Action greedy_action() const override {
    if (rules().is_terminal(state_) || rules().is_chance(state_))
      throw std::invalid_argument("greedy_action needs a decision node");
    return greedy_policy_action(rules(), state_);
  }

  SearchResult search(const ResolvedSearch& settings, uint64_t seed, const StopFlag* stop, SearchProgress* progress,
                      AnyKeptTree* kept) const override;
  SearchResult solve(const StopFlag* stop) const override;

 private:
  SearchResult sampling_outcome(const TreeSearchResult& r, Algorithm a, const MctsOptions& o, uint64_t seed) const;
  // An exact search's answer (expectimax, the solver): no visits, no iterations.
  template <typename Result>
  SearchResult exact_outcome(const char* algorithm, const Result& r, const std::vector<double>& value) const {
    SearchResult out;
    out.action = r.best_action;
    out.action_string = rules().action_to_string(r.best_action);
    out.algorithm = algorithm;
    out.value = value;
    out.actions = stats(r.actions, false);
    out.nodes = r.nodes;
    out.elapsed = r.elapsed;
    return out;
  }
  // A sampling search's settings with this call's seed, stop flag and progress record.
  template <typename Options>
  static Options for_this_search(Options o, uint64_t seed, const StopFlag* stop, SearchProgress* progress) {
    o.seed = seed;
    o.stop = stop;
    o.progress = progress;
    return o;
  }
  // The game's tree search through `kept` (tree reuse; it must be this game's), else `one_off()`.
  template <typename Options, typename OneOff>
  TreeSearchResult tree_search(const Options& o, AnyKeptTree* kept, OneOff one_off) const {
    if (!kept) return one_off();
    auto* tree = dynamic_cast<TreeSearch*>(kept);
    if (!tree) throw std::invalid_argument("tree: a search tree made for another game or algorithm");
    if (tree->game().params_json().dump() != rules().params_json().dump())
      throw std::invalid_argument("tree: the search tree belongs to another game");
    return tree->search(state_, history_, o);
  }
  std::vector<ActionStat> stats(const std::vector<ActionTally>& raw, bool with_visits) const {
    std::vector<ActionStat> out;
    for (const auto& s : raw)
      out.push_back({s.action, rules().action_to_string(s.action), with_visits ? s.visits : -1, s.mean_value});
    return out;
  }

  std::shared_ptr<const GameModel<D>> game_;
  S state_;
  std::vector<Action> history_;
};

template <typename D>
class GameModel final : public AnyGame, public std::enable_shared_from_this<GameModel<D>> {
 public:
  using G = typename D::Game;
  using S = typename G::StateType;
  static_assert(GameConcept<G>);
  // Searches that read the whole state are for games of perfect information only: on a game of
  // hidden information they would peek.
  static_assert(!G::kHiddenInformation ||
                    !(D::kAlgorithms.has(Algorithm::kMcts) || D::kAlgorithms.has(Algorithm::kExpectimax) ||
                      D::kAlgorithms.has(Algorithm::kSolver)),
                "a game of hidden information offers only the information-set searches");
  static_assert(G::kHiddenInformation ||
                    !(D::kAlgorithms.has(Algorithm::kIsmcts) || D::kAlgorithms.has(Algorithm::kPimc)),
                "the information-set searches are for games of hidden information");

  GameModel(std::shared_ptr<const G> rules, const GameInfo& info) : rules_(std::move(rules)), info_(info) {}

  static std::shared_ptr<const AnyGame> load(const Json& params, const GameInfo& info) {
    return std::make_shared<const GameModel>(std::make_shared<const G>(G(G::params_from_json(params))), info);
  }

  const G& rules() const { return *rules_; }
  std::shared_ptr<const G> rules_ptr() const { return rules_; }
  const GameInfo& info() const override { return info_; }
  int num_players() const override { return rules_->num_players(); }
  Json params_json() const override { return rules_->params_json(); }
  int num_distinct_actions() const override { return G::kNumDistinctActions; }
  int64_t max_game_length() const override { return rules_->max_game_length(); }
  int observation_tensor_size() const override { return rules_->observation_tensor_size(); }

  std::unique_ptr<StateModel<D>> wrap(const S& s) const {
    return std::make_unique<StateModel<D>>(this->shared_from_this(), s);
  }
  std::unique_ptr<AnyState> new_initial_state() const override { return wrap(rules_->new_initial_state()); }
  std::unique_ptr<AnyState> state_from_json(const Json& data) const override { return wrap(rules_->from_json(data)); }
  std::unique_ptr<AnyState> deserialize(const std::string& bytes) const override {
    return wrap(rules_->deserialize(bytes));
  }
  std::unique_ptr<AnyKeptTree> new_kept_tree() const override {
    return std::make_unique<typename StateModel<D>::TreeSearch>(rules_);
  }
  std::unique_ptr<AnyVectorEnv> new_vector_env(const VectorOptions& o) const override {
    if (o.num_envs < 1) throw std::invalid_argument("num_envs must be at least 1");
    if (o.threads < 1) throw std::invalid_argument("threads must be at least 1");
    return std::make_unique<VectorModel<D>>(this->shared_from_this(), o);
  }

 private:
  std::shared_ptr<const G> rules_;
  const GameInfo& info_;
};

template <typename D>
const typename D::Game& StateModel<D>::rules() const {
  return game_->rules();
}
template <typename D>
const AnyGame& StateModel<D>::game() const {
  return *game_;
}
template <typename D>
std::shared_ptr<const AnyGame> StateModel<D>::game_ptr() const {
  return game_;
}

template <typename D>
SearchResult StateModel<D>::sampling_outcome(const TreeSearchResult& r, Algorithm a, const MctsOptions& o,
                                             uint64_t seed) const {
  SearchResult out;
  out.action = r.best_action;
  out.action_string = rules().action_to_string(r.best_action);
  out.algorithm = algorithm_name(a);
  out.value = r.root_value;
  out.actions = stats(r.actions, true);
  out.iterations = r.iterations;
  out.nodes = r.nodes;
  out.elapsed = r.elapsed;
  out.extra.set("bytes_per_node", Json::integer(static_cast<int64_t>(r.bytes_per_node)));
  out.extra.set("tree_bytes", Json::integer(static_cast<int64_t>(r.tree_bytes)));
  out.extra.set("reserved_bytes", Json::integer(static_cast<int64_t>(r.reserved_bytes)));
  out.extra.set("reused_visits", Json::integer(r.reused_visits));
  out.extra.set("threads", Json::integer(o.threads));
  out.extra.set("seed", Json::unsigned_integer(seed));
  out.extra.set("stopped", Json::boolean(r.stopped));
  if (a != Algorithm::kMcts) out.extra.set("searching_player", Json::integer(rules().current_player(state_)));
  return out;
}

template <typename D>
SearchResult StateModel<D>::search(const ResolvedSearch& settings, uint64_t seed, const StopFlag* stop,
                                   SearchProgress* progress, AnyKeptTree* kept) const {
  if (rules().is_terminal(state_) || rules().is_chance(state_))
    throw std::invalid_argument("search needs a decision node (the state is terminal or a chance node)");
  const Algorithm a = settings.algorithm;
  if (!D::kAlgorithms.has(a))
    throw std::invalid_argument(std::string("algorithm '") + algorithm_name(a) + "' is not available for " + G::kName);
  if (progress) progress->clear();
  if (a == Algorithm::kSolver) {
    const DeadlineStop deadline(stop, settings.time_limit);
    return solve(deadline.flag());
  }
  if constexpr (!kHidden) {
    if (a == Algorithm::kExpectimax) {
      if constexpr (HasEvaluation<G>) {
        const DeadlineStop deadline(stop, settings.time_limit);
        ExpectimaxOptions o = settings.expectimax;
        o.stop = deadline.flag();
        const ExpectimaxResult r = Expectimax<G>(rules(), o).search(state_);
        SearchResult out = exact_outcome("expectimax", r, r.root_value);
        // The depth answered (the deepest complete), the one aimed at, and whether a stop or the
        // time limit cut the deepening short: "stopped" only for the caller's stop, as for MCTS.
        out.extra.set("depth", Json::integer(r.depth));
        out.extra.set("max_depth", Json::integer(o.depth));
        out.extra.set("complete", Json::boolean(r.complete));
        out.extra.set("stopped", Json::boolean(!r.complete && deadline.caller_stopped()));
        return out;
      }
    }
    const MctsOptions o = for_this_search(settings.mcts, seed, stop, progress);
    return sampling_outcome(tree_search(o, kept, [&] { return mcts_search(rules(), state_, o); }), a, o, seed);
  } else {
    if (a == Algorithm::kPimc) {
      if (kept) throw std::invalid_argument("tree: PIMC keeps no tree between searches");
      const PimcOptions o = for_this_search(settings.pimc, seed, stop, progress);
      SearchResult out = sampling_outcome(pimc_search(rules(), state_, o), a, o, seed);
      out.extra.set("determinizations", Json::integer(o.determinizations));
      return out;
    }
    const IsmctsOptions o = for_this_search(settings.ismcts, seed, stop, progress);
    return sampling_outcome(tree_search(o, kept, [&] { return ismcts_search(rules(), state_, o); }), a, o, seed);
  }
}

template <typename D>
SearchResult StateModel<D>::solve(const StopFlag* stop) const {
  if (!D::kAlgorithms.has(Algorithm::kSolver))
    throw std::invalid_argument(std::string(G::kName) + " has no exact solver");
  if (rules().is_terminal(state_) || rules().is_chance(state_))
    throw std::invalid_argument("the solver needs a decision node");
  const SolverAnswer r = D::solve(rules(), state_, stop);
  SearchResult out = exact_outcome("solver", r, r.value);
  out.extra = r.extra;
  return out;
}

// The registry's entry of a declared game: what it is, and how to load it.
struct GameEntry {
  GameInfo info;
  std::shared_ptr<const AnyGame> (*load)(const Json& params, const GameInfo& info);
};

template <typename D>
GameEntry make_entry(const char* folder) {
  using G = typename D::Game;
  // Each names what a declaration or a game lacks, before the templates below trip on it.
  static_assert(check_declaration<D>());
  static_assert(check_game<G>());
  GameEntry e;
  e.info.name = D::kName;
  if (e.info.name != folder)
    throw std::logic_error(std::string("the game in cpp/games/") + folder + " calls itself " + D::kName);
  e.info.title = D::kTitle;
  e.info.tag = D::kGameTag;
  e.info.hidden_information = D::kHiddenInformation;
  e.info.whole_game_solver = D::kWholeGameSolver;
  e.info.memory_aids = HasMemoryAids<G>;
  e.info.min_players = D::kMinPlayers;
  e.info.max_players = D::kMaxPlayers;
  e.info.algorithms = D::kAlgorithms;
  e.info.search_defaults = game_search_defaults(D::kSearchDefaults, D::kName);
  for (const char* level : D::kLevels) e.info.levels.push_back(level ? level : "");
  e.load = &GameModel<D>::load;
  return e;
}

}  // namespace nutcore::engine
