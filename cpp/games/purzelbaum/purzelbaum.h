// Purzelbaum (2-4 players): nuts shoved off the branches tumble into the meadow (a stochastic model,
// docs/rules/purzelbaum.md); in winter they are dug up again, with perfect memory. Rules as
// implemented, encodings and the model: docs/rules/purzelbaum.md. This header holds the state
// layout and the hot rules; purzelbaum.cc the parameters, JSON, validation and text.
//
// Contracts as for every nutcore game: legal actions and chance outcomes in ascending id order;
// apply() takes a legal action and then applies forced decisions (exactly one legal action).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/game_defaults.h"
#include "core/json.h"
#include "core/perfect_information.h"
#include "core/rng.h"
#include "core/tensor_writer.h"
#include "core/types.h"
#include "games/purzelbaum/declaration.h"  // the facts: name, tag, players...

namespace nutcore::purzelbaum {

constexpr int kMaxPlayers = declare::purzelbaum::kMaxPlayers;
constexpr int kMaxHoles = 20;
constexpr int kMaxEnds = 16;
constexpr uint8_t kNone = 0xFF;

namespace act {
constexpr Action kShove = 0;     // + 16 * target + end
constexpr Action kDig = 320;     // + hole
constexpr Action kBury = 340;    // + hole
constexpr Action kHit = 360;     // chance
constexpr Action kLands = 361;   // chance, + hole
constexpr Action kOffBox = 381;  // chance
constexpr int kNumDistinct = 382;
}  // namespace act

enum class Season : uint8_t { kAutumn, kWinter, kOver };
enum class Phase : uint8_t { kShove, kTumble, kBury, kDig, kTerminal };

struct Params {
  int players = 2;
  std::vector<double> skill_sigma = {0.5};  // one value for everyone, or one per seat
  double hit_radius = 0.35;
  std::vector<double> branch_lengths = {1.3, 2.1, 1.3, 2.1, 1.3, 2.1, 1.3, 2.1};
  std::vector<std::pair<double, double>> holes;  // empty: the default meadow
  double half_box = 3.0;
  int turn_cap = 200;
};

// The whole position, 48 bytes for every player count and meadow:
//   hole_nuts[h]   nuts buried in hole h          white   bit h: disk h shows white (winter side)
//   leaf           bit h: a leaf lies on disk h   ends    bit e: end e still holds its nut and leaf
//   leaves, nuts   collected per seat             the rest: whose turn, the shove being resolved
struct State {
  uint8_t hole_nuts[kMaxHoles];
  uint32_t white;
  uint32_t leaf;
  uint16_t ends;
  uint16_t turn;
  uint8_t leaves[kMaxPlayers];
  uint8_t nuts[kMaxPlayers];
  uint8_t num_players;
  Season season;
  Phase phase;
  uint8_t current;  // the seat to act (the shover while the nut tumbles)
  uint8_t shover;
  uint8_t target;
  uint8_t end;
  uint8_t zero;  // explicit padding, always 0, so that equal positions are equal bytes

  bool operator==(const State& o) const { return std::memcmp(this, &o, sizeof(State)) == 0; }
};
static_assert(sizeof(State) == 48, "document the new size in docs/rules/purzelbaum.md");
static_assert(std::is_trivially_copyable_v<State>);
static_assert(std::has_unique_object_representations_v<State>, "no padding: equal states are equal bytes");

using ActionList = FixedList<Action, 320>;
using ChanceList = FixedList<ChanceOutcome, 24>;

class Game : public GameDefaults<Game, State>, public PerfectInformation<Game, State> {
 public:
  // The facts are the declaration's (one source); these names are the contract's.
  static constexpr const char* kName = declare::purzelbaum::kName;
  static constexpr uint8_t kGameTag = declare::purzelbaum::kGameTag;
  static constexpr uint8_t kFormatVersion = declare::purzelbaum::kFormatVersion;
  static constexpr bool kHasChance = declare::purzelbaum::kHasChance;
  static constexpr bool kHiddenInformation = declare::purzelbaum::kHiddenInformation;
  static constexpr int kMaxNumPlayers = declare::purzelbaum::kMaxPlayers;
  static constexpr int kNumDistinctActions = act::kNumDistinct;
  using StateType = State;
  using Actions = ActionList;
  using Chances = ChanceList;

  explicit Game(const Params& params);  // throws std::invalid_argument
  // Every check but the model tables', with defaults filled in: cheap, so loaders run it before
  // computing the tables.
  static Params checked_params(Params p);
  const Params& params() const { return params_; }
  int num_players() const { return params_.players; }
  int num_holes() const { return num_holes_; }
  uint32_t all_holes() const { return all_holes_; }  // a bit per hole
  // The holes a shove may target: those whose disk is still green.
  uint32_t open_targets(const State& s) const { return ~s.white & all_holes_; }
  double hit_probability(int seat, int end, int target) const { return outcomes(seat, end, target)[0]; }
  int num_ends() const { return num_ends_; }
  // A bound: every turn (a shove or a dig) takes at most 3 actions (shove, tumble, bury), and the
  // game ends at turn_cap turns at the latest.
  int64_t max_game_length() const { return 3 * int64_t{params_.turn_cap}; }

  State new_initial_state() const;
  int current_player(const State& s) const {
    return s.phase == Phase::kTumble ? kChancePlayer : s.phase == Phase::kTerminal ? kTerminalPlayer : s.current;
  }
  bool is_chance(const State& s) const { return s.phase == Phase::kTumble; }
  bool is_terminal(const State& s) const { return s.phase == Phase::kTerminal; }
  void legal_actions(const State& s, ActionList& out) const;
  // legal_actions(s)[rng.below(size)] without listing the shoves (up to 320 of them).
  Action random_action(const State& s, Rng& rng) const;
  // Imperfect memory (core/game_concept.h, HasForget): what lies in a covered hole (its nuts and
  // leaf) is remembered with probability `recall`; the forgotten holes' contents are mixed up
  // among them (a uniform permutation), so the totals stay right.
  State forget(const State& s, int player, double recall, Rng& rng) const;
  // The shoves of `seat`, the likeliest hit first (ties: the lower action id), for the greedy policy.
  const std::vector<Action>& shoves_by_hit(int seat) const { return shoves_by_hit_[seat]; }
  void chance_outcomes(const State& s, ChanceList& out) const;
  Action sample_chance(const State& s, Rng& rng) const;
  void apply(State& s, Action a) const;
  void returns(const State& s, double* out) const;
  void scores(const State& s, int* out) const;
  // The observation tensor (docs/rules/purzelbaum.md, "Observation tensor"): the position decoded
  // for learning, a number per fact (not the state's packed bytes), with `player`'s seat.
  int observation_tensor_size() const { return 9 + 5 * params_.players + 4 * num_holes_ + 2 * num_ends_; }
  void observation_tensor(const State& s, int player, float* out) const {
    const int n = s.num_players;
    TensorWriter w(out, observation_tensor_size());
    w.one_hot(player, n);
    w.one_hot(current_player(s), n);
    w.one_hot(static_cast<int>(s.season), 3);
    w.one_hot(static_cast<int>(s.phase), 5);
    w.value(s.turn);
    w.one_hot(s.shover, n);
    w.one_hot(s.target, num_holes_);
    w.one_hot(s.end, num_ends_);
    for (int e = 0; e < num_ends_; ++e) w.value(s.ends >> e & 1);
    for (int h = 0; h < num_holes_; ++h) {
      w.value(s.white >> h & 1);
      w.value(s.leaf >> h & 1);
      w.value(s.hole_nuts[h]);
    }
    for (int p = 0; p < n; ++p) w.value(s.leaves[p]);
    for (int p = 0; p < n; ++p) w.value(s.nuts[p]);
  }

  // Cold path.
  static Params params_from_json(const Json& j);
  Json params_json() const;
  static std::string action_to_string(Action a);
  Json to_json(const State& s) const;
  State from_json(const Json& j) const;
  State deserialize(const std::string& bytes) const;
  void validate(const State& s) const;
  std::string to_string(const State& s) const;
  // What lies in front of a player now, without the memory aids (docs/web.md): the meadow without
  // the nuts buried in each hole (every hole is under its disk; the rulebook's game asks players to
  // remember them). The same for every seat (`player`, -1 for an onlooker, is not used).
  Json unaided_json(const State& s, int player) const;
  std::string unaided_string(const State& s, int player) const;

 private:
  std::string board_string(const State& s, bool memory) const;
  Params params_;
  int num_holes_ = 0;
  int num_ends_ = 0;
  uint32_t all_holes_ = 0;
  std::vector<double> table_;  // [seat][end][target][outcome]
  // sample_chance's form of table_: per (seat, end, target), the outcomes of positive probability
  // in list order, each with the least 53-bit uniform that draws a later one (the last: 2^53).
  struct TumbleDraw {
    uint64_t passes[kMaxHoles + 2];
    Action action[kMaxHoles + 2];
  };
  std::vector<TumbleDraw> draws_;  // [seat][end][target]
  void build_draws();
  std::vector<std::vector<Action>> shoves_by_hit_;  // [seat]

  // The index of a (seat, end, target) cell in draws_, and of its outcome row in table_.
  size_t cell(int seat, int end, int target) const {
    return (static_cast<size_t>(seat) * num_ends_ + end) * num_holes_ + target;
  }
  // The action of entry k of an outcome row: the hit, landing in hole k - 1, or off the box.
  Action outcome_action(int k) const {
    return k == 0 ? act::kHit : k <= num_holes_ ? act::kLands + k - 1 : act::kOffBox;
  }
  const double* outcomes(int seat, int end, int target) const {
    return &table_[cell(seat, end, target) * (num_holes_ + 2)];
  }
  void do_action(State& s, Action a) const;
  void after_shove(State& s) const;
  void run(State& s) const;
};

// ---------------------------------------------------------------------------------------------
// Hot rules.

inline void Game::legal_actions(const State& s, ActionList& out) const {
  out.clear();
  switch (s.phase) {
    case Phase::kShove:
      for (uint32_t targets = open_targets(s); targets; targets &= targets - 1)
        for (uint32_t ends = s.ends; ends; ends &= ends - 1)
          out.push_back(act::kShove + 16 * __builtin_ctz(targets) + __builtin_ctz(ends));
      break;
    case Phase::kBury:
      for (int h = 0; h < num_holes_; ++h) out.push_back(act::kBury + h);
      break;
    case Phase::kDig:
      for (uint32_t m = s.white & all_holes_; m; m &= m - 1) out.push_back(act::kDig + __builtin_ctz(m));
      break;
    default:
      break;
  }
}

inline Action Game::random_action(const State& s, Rng& rng) const {
  if (s.phase == Phase::kDig) {  // the white disks, in hole order
    const uint32_t white = s.white & all_holes_;
    if (white == 0) return random_action_by_listing(*this, s, rng);
    return act::kDig + random_member(white, rng);
  }
  const uint32_t targets = open_targets(s), ends = s.ends;
  const int num_ends = popcount(ends);
  if (s.phase != Phase::kShove || targets == 0 || num_ends == 0) return random_action_by_listing(*this, s, rng);
  // legal_actions lists target-major, end-minor: index i is (i / ends)-th open target, (i % ends)-th end.
  const uint32_t i = rng.below(static_cast<uint32_t>(popcount(targets) * num_ends));
  return act::kShove + 16 * nth_set_bit(targets, static_cast<int>(i / num_ends)) +
         nth_set_bit(ends, static_cast<int>(i % num_ends));
}

inline State Game::forget(const State& s, int, double recall, Rng& rng) const {
  State r = s;
  int holes[kMaxHoles], n = 0;
  for (int h = 0; h < num_holes_; ++h)
    if ((s.white >> h & 1) && !(rng.uniform() < recall)) holes[n++] = h;
  for (int i = n - 1; i > 0; --i) {
    const int j = static_cast<int>(rng.below(static_cast<uint32_t>(i + 1)));
    const int a = holes[i], b = holes[j];
    std::swap(r.hole_nuts[a], r.hole_nuts[b]);
    const uint32_t leaf_a = r.leaf >> a & 1, leaf_b = r.leaf >> b & 1;
    r.leaf = (r.leaf & ~(1u << a) & ~(1u << b)) | leaf_b << a | leaf_a << b;
  }
  return r;
}

inline void Game::chance_outcomes(const State& s, ChanceList& out) const {
  out.clear();
  if (s.phase != Phase::kTumble) return;
  const double* p = outcomes(s.shover, s.end, s.target);
  for (int k = 0; k < num_holes_ + 2; ++k)
    if (p[k] > 0) out.push_back({outcome_action(k), p[k]});
}

// The same draw as sample_outcome over chance_outcomes: one uniform r = u / 2^53, the outcomes'
// probabilities subtracted from it in list order, the first that takes r below 0 drawn (the last
// when rounding leaves some over). Which outcome that is depends on u alone, through thresholds
// computed once (build_draws), so the draw compares integers instead of subtracting in a chain.
inline Action Game::sample_chance(const State& s, Rng& rng) const {
  if (s.phase != Phase::kTumble) return -1;
  const TumbleDraw& d = draws_[cell(s.shover, s.end, s.target)];
  const uint64_t u = rng.next() >> 11;  // as Rng::uniform()
  int k = 0;
  while (u >= d.passes[k]) ++k;
  return d.action[k];
}

// The shove is over once its nut is buried: next autumn turn, or winter, or the end by the cap.
inline void Game::after_shove(State& s) const {
  const int n = s.num_players;
  const int shover = s.shover;
  s.shover = s.target = s.end = kNone;
  ++s.turn;
  if (s.turn >= params_.turn_cap) {
    s.season = Season::kOver;
    s.phase = Phase::kTerminal;
    s.current = 0;  // canonical: nobody is to act
    return;
  }
  if (s.ends == 0) {  // the last nut is buried: winter arrives, snow everywhere
    s.white = all_holes_;
    int first = 0;
    for (int p = 1; p < n; ++p)
      if (s.leaves[p] <= s.leaves[first]) first = p;  // ties: the latest seat
    s.current = static_cast<uint8_t>(first);
    s.season = Season::kWinter;
    s.phase = Phase::kDig;
    return;
  }
  s.current = static_cast<uint8_t>(next_seat(shover, n));
  s.phase = Phase::kShove;
}

inline void Game::do_action(State& s, Action a) const {
  switch (s.phase) {
    case Phase::kShove:
      s.target = static_cast<uint8_t>((a - act::kShove) / 16);
      s.end = static_cast<uint8_t>((a - act::kShove) % 16);
      s.shover = s.current;
      s.phase = Phase::kTumble;
      break;
    case Phase::kTumble:
      s.ends = static_cast<uint16_t>(s.ends & ~(1u << s.end));
      s.white |= 1u << s.target;  // the opened target is closed, winter side up
      if (a == act::kHit) {
        ++s.leaves[s.shover];
        ++s.hole_nuts[s.target];
        after_shove(s);
      } else {
        s.leaf |= 1u << s.target;  // missed: the leaf goes on the target's disk
        if (a == act::kOffBox) {
          s.current = static_cast<uint8_t>(next_seat(s.shover, s.num_players));
          s.phase = Phase::kBury;  // the left neighbour chooses the hole
        } else {
          ++s.hole_nuts[a - act::kLands];
          after_shove(s);
        }
      }
      break;
    case Phase::kBury:
      ++s.hole_nuts[a - act::kBury];
      after_shove(s);
      break;
    case Phase::kDig: {
      // Without branches: whether a dug disk holds a leaf or nuts cannot be predicted.
      const int h = a - act::kDig, p = s.current;
      const uint32_t leaf = s.leaf >> h & 1, found = s.hole_nuts[h];
      s.leaves[p] = static_cast<uint8_t>(s.leaves[p] + leaf);  // a leaf on the disk is taken
      s.leaf &= ~(leaf << h);
      s.nuts[p] = static_cast<uint8_t>(s.nuts[p] + found);
      s.hole_nuts[h] = 0;
      s.white &= ~(uint32_t{found == 0} << h);  // nothing found: thawing, green side up; else it stays white
      ++s.turn;
      if (s.white == 0 || s.turn >= params_.turn_cap) {
        s.season = Season::kOver;
        s.phase = Phase::kTerminal;
        s.current = 0;  // canonical: nobody is to act
      } else {
        s.current = static_cast<uint8_t>(next_seat(p, s.num_players));
      }
      break;
    }
    case Phase::kTerminal:
      break;
  }
}

inline void Game::run(State& s) const {
  for (;;) {
    // A forced move is found from the masks, without listing the (up to 320) actions. A burial
    // always has a choice: there are at least two holes.
    const uint32_t green = ~s.white & all_holes_;
    if (s.phase == Phase::kShove && one_bit_set(green) && one_bit_set(s.ends))
      do_action(s, act::kShove + 16 * __builtin_ctz(green) + __builtin_ctz(s.ends));
    else if (s.phase == Phase::kDig && one_bit_set(s.white))
      do_action(s, act::kDig + __builtin_ctz(s.white));
    else
      return;
  }
}

inline void Game::apply(State& s, Action a) const {
  do_action(s, a);
  run(s);
}

inline void Game::scores(const State& s, int* out) const {
  for (int p = 0; p < s.num_players; ++p) out[p] = s.leaves[p] + s.nuts[p];
}

inline void Game::returns(const State& s, double* out) const {
  const int n = s.num_players;
  for (int p = 0; p < n; ++p) out[p] = 0.0;
  if (!is_terminal(s)) return;
  int best = -1, winners = 0;
  auto key = [&](int p) { return (s.leaves[p] + s.nuts[p]) * 256 + s.nuts[p]; };  // points, then nuts
  for (int p = 0; p < n; ++p) best = std::max(best, key(p));
  for (int p = 0; p < n; ++p) winners += key(p) == best;
  for (int p = 0; p < n; ++p)
    if (key(p) == best) out[p] = 1.0 / winners;
}

}  // namespace nutcore::purzelbaum

// The heuristics come with the rules: every unit that sees the game sees the same optional hooks
// (found by argument-dependent lookup, core/game_concept.h), so searches are the same everywhere.
#include "games/purzelbaum/heuristic.h"
