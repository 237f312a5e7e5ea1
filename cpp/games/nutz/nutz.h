// Nutz! (2-4 players): hidden hands, food cards played under trees face up or face down under a
// moon token, a winter choice between the richest column and next year's turn order. The cards are
// data (a card set, docs/rules/nutz.md). This header holds the card set, the state layout, the hot
// rules and the information-set functions; nutz.cc the parameters, JSON, validation and text.
//
// Contracts as for every nutcore game: legal actions and chance outcomes in ascending id order;
// apply() takes a legal action and then applies forced decisions (exactly one legal action).
// Hidden information: the state holds the whole truth (hands, deck, the type of every face-down
// card, who knows which discarded card); information_key / resample read only what a seat knows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/game_concept.h"
#include "core/game_defaults.h"
#include "core/json.h"
#include "core/perfect_information.h"
#include "core/rng.h"
#include "core/types.h"
#include "games/nutz/declaration.h"  // the facts: name, tag, players...

namespace nutcore::nutz {

constexpr int kMaxPlayers = declare::nutz::kMaxPlayers;
constexpr int kMaxTrees = kMaxPlayers + 1;
constexpr int kMaxKinds = 10;
constexpr int kMaxTypes = 15;  // type 15 is "hidden" in a seat's view
constexpr int kTypeSlots = 16;
constexpr int kHandSize = 5;
constexpr int kRefill = 3;
constexpr int kColumnMax = 3;
constexpr uint8_t kNone = 0xFF;
constexpr uint8_t kHiddenCard = 0xFE;  // in a seat's view: another seat's hand card
constexpr uint8_t kHiddenType = 15;    // in a seat's view: the type of another seat's face-down card

// A card in a column: its type, whether face down, and who played it.
constexpr uint8_t kDown = 0x10;
inline uint8_t card_code(int type, bool down, int owner) {
  return static_cast<uint8_t>(type | (down ? kDown : 0) | owner << 5);
}
inline int code_type(uint8_t c) { return c & 0x0F; }
inline bool code_down(uint8_t c) { return c & kDown; }
inline int code_owner(uint8_t c) { return c >> 5; }
// A column card's type as `viewer` sees it: kHiddenType for another seat's face-down card.
inline int seen_type(uint8_t c, int viewer) {
  return code_down(c) && code_owner(c) != viewer ? kHiddenType : code_type(c);
}

namespace act {
constexpr Action kPlay = 0;        // + 10 * type + 2 * tree + down
constexpr Action kTake = 150;      // + tree (0-based)
constexpr Action kApply = 155;     // + kind
constexpr Action kFinal = 165;     // + kind
constexpr Action kSquirrel = 174;  // + K (1..5)
constexpr Action kDeal = 180;      // + type
constexpr int kNumDistinct = 206;
}  // namespace act

enum class Phase : uint8_t { kSquirrels, kDeal, kSummer, kWinter, kPredators, kFinal, kTerminal };
constexpr int kNumPhases = 7;

// The card set (docs/rules/nutz.md, "The card set"), as parsed and checked.
struct Kind {
  enum class Score : uint8_t { kEach, kSet, kGroups };
  enum class Target : uint8_t { kSelf, kOthers, kEveryone };
  struct Group {
    int count = 0, moons = 0;
    bool three_plus = false;
  };
  std::string name;
  bool food = true;
  // Food: how the display's count c of this kind scores.
  Score score = Score::kEach;
  int each = 0;                     // kEach: points per card
  std::vector<int> table;           // kSet: t1..tk
  int beyond = 0;                   // kSet: per card beyond k
  int group = 1, group_points = 0;  // kGroups
  // Predator: discard all of `of`, or `count` times the most valuable card of `of`.
  bool discard_all = false;
  int count = 1;
  std::vector<int> of;  // kind numbers
  Target target = Target::kSelf;
  std::vector<Group> groups;

  int points(int c) const {
    if (!food || c <= 0) return 0;
    switch (score) {
      case Score::kEach:
        return each * c;
      case Score::kGroups:
        return c / group * group_points;
      case Score::kSet: {
        const int k = static_cast<int>(table.size());
        return c <= k ? table[c - 1] : table[k - 1] + beyond * (c - k);
      }
    }
    return 0;
  }
};

// A bounded integer of a card set or the parameters (std::invalid_argument naming `what`).
int int_in(const Json& v, const std::string& what, int lo, int hi);

struct CardSet {
  std::string name = "unnamed";
  std::vector<Kind> kinds;
  static CardSet from_json(const Json& j);  // throws std::invalid_argument naming the bad entry
  static CardSet default_set();             // python/nutcore/data/nutz_cards.json, built in
  Json to_json() const;
};

struct Params {
  int players = 2;
  CardSet cards;             // no kinds: the default set
  int last_tree_tokens = 0;  // 0: 7 / 6 / 5 by player count
  int moon_tokens = 15;
  int token_cap = 3;
  int remove_three_plus = -1;  // -1: true for 2 players
  int turn_cap = 200;
};

// The whole position, 208 bytes for every player count and card set (docs/rules/nutz.md):
//   deck[t]          cards of type t in the deck
//   revealed[t]      cards of type t made public so far
//   discarded[s][t]  seat s's face-down cards of type t discarded unseen ([s][15]: 0; in a view
//                    of another seat, its row is zero but for [15], the count)
//   hand[s][i]       seat s's cards, types ascending, kNone after the last
//   column[j][i]     tree j's cards in play order (card_code), kNone after the last
//   display[s][k]    seat s's food cards of kind k
//   pending[k]       predators of kind k the taker still has to apply (phase predators)
//   squirrel[s]      seat s's squirrel number 1..N+1 (0 before it is dealt)
//   order[i]         the seat i-th in the order of play (kNone before the squirrels are dealt)
//   tokens[s]        moon tokens held          taken[j]  the seat that took tree j this winter
//   supply, last_tree, last_squirrel_token, round, step, phase, current (the seat to act; at
//   chance nodes the seat being dealt), turn (summer plays and winter takes made)
// Fields a phase does not use hold their neutral value, so that equal positions are equal bytes.
struct State {
  uint16_t turn;
  uint8_t deck[kTypeSlots];
  uint8_t revealed[kTypeSlots];
  uint8_t discarded[kMaxPlayers][kTypeSlots];
  uint8_t hand[kMaxPlayers][kHandSize];
  uint8_t column[kMaxTrees][kColumnMax];
  uint8_t display[kMaxPlayers][kMaxKinds];
  uint8_t pending[kMaxKinds];
  uint8_t squirrel[kMaxPlayers];
  uint8_t order[kMaxPlayers];
  uint8_t tokens[kMaxPlayers];
  uint8_t taken[kMaxTrees];
  uint8_t supply;
  uint8_t last_tree;
  uint8_t last_squirrel_token;
  uint8_t round;
  uint8_t step;
  uint8_t num_players;
  Phase phase;
  uint8_t current;

  bool operator==(const State& o) const { return std::memcmp(this, &o, sizeof(State)) == 0; }
};
static_assert(sizeof(State) == 208, "document the new size in docs/rules/nutz.md");
static_assert(std::is_trivially_copyable_v<State>);
static_assert(std::has_unique_object_representations_v<State>, "no padding: equal states are equal bytes");

using ActionList = FixedList<Action, kHandSize * kMaxTrees * 2>;
using ChanceList = FixedList<ChanceOutcome, kMaxTypes>;

inline int hand_size(const State& s, int p) {
  int n = 0;
  while (n < kHandSize && s.hand[p][n] != kNone) ++n;
  return n;
}
// Whether tree j's column can take another card.
inline bool has_room(const State& s, int j) { return s.column[j][kColumnMax - 1] == kNone; }
inline int column_size(const State& s, int j) {
  int n = 0;
  while (n < kColumnMax && s.column[j][n] != kNone) ++n;
  return n;
}

class Game : public GameDefaults<Game, State> {
 public:
  // The facts are the declaration's (one source); these names are the contract's.
  static constexpr const char* kName = declare::nutz::kName;
  static constexpr uint8_t kGameTag = declare::nutz::kGameTag;
  static constexpr uint8_t kFormatVersion = declare::nutz::kFormatVersion;
  static constexpr bool kHasChance = declare::nutz::kHasChance;
  static constexpr bool kHiddenInformation = declare::nutz::kHiddenInformation;
  static constexpr int kMaxNumPlayers = declare::nutz::kMaxPlayers;
  static constexpr int kNumDistinctActions = act::kNumDistinct;
  using StateType = State;
  using Actions = ActionList;
  using Chances = ChanceList;

  explicit Game(const Params& params);  // throws std::invalid_argument
  const Params& params() const { return params_; }
  int num_players() const { return params_.players; }
  int num_trees() const { return params_.players + 1; }
  // A bound: the squirrel deal, each card dealt at most once and applied as a predator at most once,
  // at most turn_cap summer plays and winter takes together, and the final two cards per seat.
  int64_t max_game_length() const {
    int64_t cards = 0;
    for (int t = 0; t < num_types_; ++t) cards += type_count_[t];
    return 3 * int64_t{params_.players} + 2 * cards + params_.turn_cap;
  }
  int num_types() const { return num_types_; }
  int num_kinds() const { return static_cast<int>(params_.cards.kinds.size()); }
  const Kind& kind(int k) const { return params_.cards.kinds[k]; }
  // kind(k).points(c) from a table (the AI's hot path scores displays often); c is a display count.
  int points(int k, int c) const { return points_[k][c]; }
  int type_kind(int t) const { return type_kind_[t]; }
  int type_moons(int t) const { return type_moons_[t]; }
  int type_count(int t) const { return type_count_[t]; }
  const std::string& type_name(int t) const { return type_names_[t]; }
  // What a display (a count per kind) scores.
  int display_points(const uint8_t* display) const {
    int total = 0;
    for (int k = 0; k < num_kinds(); ++k) total += points(k, display[k]);
    return total;
  }
  int score_of(const State& s, int p) const { return display_points(s.display[p]); }
  // Cards left in the deck. Hot: every card dealt in a playout draws by it.
  int deck_size(const State& s) const {
#if defined(__SSE2__)
    __m128i deck, mask;
    std::memcpy(&deck, s.deck, sizeof deck);
    std::memcpy(&mask, type_mask_, sizeof mask);
    const __m128i sums = _mm_sad_epu8(_mm_and_si128(deck, mask), _mm_setzero_si128());  // two 8-byte halves
    return _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
#else
    int total = 0;
    for (int t = 0; t < num_types_; ++t) total += s.deck[t];
    return total;
#endif
  }
  // Cards of each type `player` has not seen (docs/rules/nutz.md, "Information").
  void unseen(const State& s, int player, int* out) const;
  // What predator k does to a display it hits (the rules' effect, shared with the AI).
  void discard_from(uint8_t* display, int k) const;

  State new_initial_state() const;
  int current_player(const State& s) const {
    if (s.phase == Phase::kTerminal) return kTerminalPlayer;
    return is_chance(s) ? kChancePlayer : s.current;
  }
  bool is_chance(const State& s) const { return s.phase == Phase::kSquirrels || s.phase == Phase::kDeal; }
  bool is_terminal(const State& s) const { return s.phase == Phase::kTerminal; }
  void legal_actions(const State& s, ActionList& out) const;
  // legal_actions(s)[rng.below(size)] without listing a summer turn's plays (up to 100 of them).
  Action random_action(const State& s, Rng& rng) const;
  void chance_outcomes(const State& s, ChanceList& out) const;
  Action sample_chance(const State& s, Rng& rng) const;
  void apply(State& s, Action a) const;
  void returns(const State& s, double* out) const;
  void scores(const State& s, int* out) const;

  // Information sets (docs/rules/nutz.md, "Information").
  State view(const State& s, int player) const;  // s with what `player` cannot know masked out
  uint64_t information_key(const State& s, int player) const {
    return hash_bytes(view(s, player), static_cast<uint64_t>(player + 1) << 56);
  }
  State resample(const State& s, int player, Rng& rng) const;
  int observation_tensor_size() const;
  void observation_tensor(const State& s, int player, float* out) const;
  std::string information_string(const State& s, int player) const;
  // What `player` sees of `a` as it is played (core/game_concept.h, HasObserve; the rules' "What
  // each seat sees"): everything but a card dealt to another seat and the card another seat plays
  // face down; taking a tree tells the face-down cards it turns over.
  Observed observe(const State& s, Action a, int player) const;

  // Cold path.
  static Params params_from_json(const Json& j);
  Json params_json() const;
  std::string action_to_string(Action a) const;
  Json to_json(const State& s) const;
  Json view_json(const State& s, int player) const;  // to_json with what `player` has not seen "hidden"
  State from_json(const Json& j) const;
  State deserialize(const std::string& bytes) const;
  void validate(const State& s) const;
  std::string to_string(const State& s) const;

 private:
  Params params_;
  int num_types_ = 0;
  uint8_t type_kind_[kTypeSlots] = {};
  uint8_t type_moons_[kTypeSlots] = {};
  uint8_t type_count_[kTypeSlots] = {};
  uint8_t type_mask_[kTypeSlots] = {};  // 0xFF for the card set's types: deck_size reads only those slots
  int points_[kMaxKinds][257] = {};     // kind(k).points(c) for every count a uint8_t display holds, plus one
  std::vector<std::string> type_names_;
  // Per predator kind with discard "highest": its `of` kinds, most valuable first.
  std::vector<int> highest_order_[kMaxKinds];

  void do_action(State& s, Action a) const;
  void run(State& s) const;
  void predator(State& s, int k, int actor) const;
  void set_order(State& s) const;
  void start_summer(State& s) const;
  void next_taker(State& s) const;
  void end_round(State& s) const;
  void end_game(State& s) const;
  static void insert_card(uint8_t* hand, int type) {
    int i = 0;
    while (i < kHandSize && hand[i] != kNone) ++i;
    while (i > 0 && hand[i - 1] > type) {
      hand[i] = hand[i - 1];
      --i;
    }
    hand[i] = static_cast<uint8_t>(type);
  }
  // Branch-free over the whole hand: the shift from `index` on would become a call to memmove.
  static void remove_card(uint8_t* hand, int index) {
    for (int i = 0; i + 1 < kHandSize; ++i) hand[i] = i < index ? hand[i] : hand[i + 1];
    hand[kHandSize - 1] = kNone;
  }
  bool turn_cap_reached(State& s) const {
    if (s.turn < params_.turn_cap) return false;
    end_game(s);
    return true;
  }
};

// ---------------------------------------------------------------------------------------------
// Hot rules.

inline void Game::legal_actions(const State& s, ActionList& out) const {
  out.clear();
  const int p = s.current;
  switch (s.phase) {
    case Phase::kSummer: {
      const int trees = num_trees();
      const bool token = s.tokens[p] > 0;
      int previous = -1;
      for (int i = 0; i < kHandSize && s.hand[p][i] != kNone; ++i) {
        const int t = s.hand[p][i];
        if (t == previous) continue;
        previous = t;
        for (int j = 0; j < trees; ++j) {
          if (!has_room(s, j)) continue;
          out.push_back(act::kPlay + 10 * t + 2 * j);
          if (token) out.push_back(act::kPlay + 10 * t + 2 * j + 1);
        }
      }
      break;
    }
    case Phase::kWinter:
      for (int j = 0; j < num_trees(); ++j)
        if (s.taken[j] == kNone) out.push_back(act::kTake + j);
      break;
    case Phase::kPredators:
      for (int k = 0; k < num_kinds(); ++k)
        if (s.pending[k]) out.push_back(act::kApply + k);
      break;
    case Phase::kFinal: {
      int previous = -1;
      for (int i = 0; i < kHandSize && s.hand[p][i] != kNone; ++i) {
        const int k = type_kind_[s.hand[p][i]];
        if (k != previous) out.push_back(act::kFinal + k);
        previous = k;
      }
      break;
    }
    default:
      break;
  }
}

inline Action Game::random_action(const State& s, Rng& rng) const {
  if (s.phase != Phase::kSummer) return random_action_by_listing(*this, s, rng);  // a few actions
  // legal_actions lists, per distinct card type in hand, per open tree: the play, then (with a
  // token left) the play with the token. Count them, draw one index, decode it in that order.
  const int p = s.current;
  const int per_tree = s.tokens[p] > 0 ? 2 : 1;
  int open[kMaxTrees], num_open = 0;
  for (int j = 0; j < num_trees(); ++j)
    if (has_room(s, j)) open[num_open++] = j;
  int types[kHandSize], num_types = 0;
  for (int i = 0; i < kHandSize && s.hand[p][i] != kNone; ++i)
    if (num_types == 0 || types[num_types - 1] != s.hand[p][i]) types[num_types++] = s.hand[p][i];
  const int per_type = num_open * per_tree;
  const int i = static_cast<int>(rng.below(static_cast<uint32_t>(num_types * per_type)));
  const int r = i % per_type;
  return act::kPlay + 10 * types[i / per_type] + 2 * open[r / per_tree] + r % per_tree;
}

inline void Game::chance_outcomes(const State& s, ChanceList& out) const {
  out.clear();
  if (s.phase == Phase::kSquirrels) {
    const int n = s.num_players;
    uint32_t dealt = 0;
    for (int p = 0; p < s.step; ++p) dealt |= 1u << s.squirrel[p];
    const double prob = 1.0 / (n + 1 - s.step);
    for (int k = 1; k <= n + 1; ++k)
      if (!(dealt >> k & 1)) out.push_back({act::kSquirrel + k, prob});
  } else if (s.phase == Phase::kDeal) {
    const int total = deck_size(s);
    for (int t = 0; t < num_types_; ++t)
      if (s.deck[t]) out.push_back({act::kDeal + t, static_cast<double>(s.deck[t]) / total});
  }
}

inline Action Game::sample_chance(const State& s, Rng& rng) const {
  if (s.phase == Phase::kDeal) {  // the hot chance node: draw a card without listing the types
    int x = static_cast<int>(rng.below(static_cast<uint32_t>(deck_size(s))));
    int t = 0;
    while (x >= s.deck[t]) x -= s.deck[t++];
    return act::kDeal + t;
  }
  ChanceList list;
  chance_outcomes(s, list);
  return sample_outcome(list, rng);
}

// The order of play: seats by squirrel number.
inline void Game::set_order(State& s) const {
  int i = 0;
  for (int k = 1; k <= s.num_players + 1; ++k)
    for (int p = 0; p < s.num_players; ++p)
      if (s.squirrel[p] == k) s.order[i++] = static_cast<uint8_t>(p);
}

inline void Game::end_game(State& s) const {
  s.phase = Phase::kTerminal;
  s.step = 0;
  s.current = 0;
  for (int j = 0; j < kMaxTrees; ++j) s.taken[j] = kNone;
}

inline void Game::start_summer(State& s) const {
  s.phase = Phase::kSummer;
  s.step = 0;
  s.current = s.order[0];
  turn_cap_reached(s);
}

// Predator k's effect on one display it hits: all of its kinds, or `count` times the most
// valuable kind present (highest_order_: by value, ties to the lower kind number).
inline void Game::discard_from(uint8_t* d, int k) const {
  const Kind& kd = kind(k);
  if (kd.discard_all) {
    for (int x : kd.of) d[x] = 0;
    return;
  }
  for (int c = 0; c < kd.count; ++c)
    for (int x : highest_order_[k])
      if (d[x]) {
        --d[x];
        break;
      }
}

// Applies one predator of kind k collected or played by `actor`; it is then discarded.
inline void Game::predator(State& s, int k, int actor) const {
  const Kind& kd = kind(k);
  for (int q = 0; q < s.num_players; ++q) {
    const bool hit = kd.target == Kind::Target::kEveryone || (kd.target == Kind::Target::kSelf) == (q == actor);
    if (hit) discard_from(s.display[q], k);
  }
}

// The taker's predators are applied: the next seat in the order takes, or the round ends.
inline void Game::next_taker(State& s) const {
  if (++s.step == s.num_players) return end_round(s);
  s.phase = Phase::kWinter;
  s.current = s.order[s.step];
  turn_cap_reached(s);
}

inline void Game::end_round(State& s) const {
  const int n = s.num_players;
  for (int j = 0; j < n + 1; ++j) {
    if (s.taken[j] != kNone) {
      s.squirrel[s.taken[j]] = static_cast<uint8_t>(j + 1);
      s.taken[j] = kNone;
      continue;
    }
    // The tree nobody took: its face-down cards are discarded unseen, their tokens to the supply.
    for (int i = 0; i < kColumnMax && s.column[j][i] != kNone; ++i) {
      const uint8_t c = s.column[j][i];
      if (code_down(c)) {
        ++s.discarded[code_owner(c)][code_type(c)];
        ++s.supply;
      }
      s.column[j][i] = kNone;
    }
    if (j == n) {
      s.supply = static_cast<uint8_t>(s.supply + s.last_squirrel_token);
      s.last_squirrel_token = 0;
    }
  }
  set_order(s);
  s.step = 0;
  if (s.last_tree == 0) {
    s.phase = Phase::kFinal;
    s.current = s.order[0];
    return;
  }
  --s.last_tree;
  s.last_squirrel_token = 1;
  ++s.round;
  s.phase = Phase::kDeal;
  s.current = 0;
}

inline void Game::do_action(State& s, Action a) const {
  const int n = s.num_players;
  switch (s.phase) {
    case Phase::kSquirrels: {
      s.squirrel[s.step] = static_cast<uint8_t>(a - act::kSquirrel);
      if (++s.step < n) {
        s.current = s.step;
        break;
      }
      set_order(s);
      const int tokens = params_.last_tree_tokens;
      s.last_tree = static_cast<uint8_t>(tokens - 1);
      s.last_squirrel_token = 1;
      for (int p = 0; p < n; ++p) s.tokens[p] = 1;
      s.tokens[s.order[n - 1]] = 2;
      s.supply = static_cast<uint8_t>(params_.moon_tokens - tokens - (n + 1));
      s.phase = Phase::kDeal;
      s.step = s.current = 0;
      break;
    }
    case Phase::kDeal: {
      const int t = a - act::kDeal, p = s.current;
      --s.deck[t];
      insert_card(s.hand[p], t);
      if (s.hand[p][kHandSize - 1] == kNone) break;
      if (++s.current < n) {
        s.step = s.current;
        break;
      }
      start_summer(s);
      break;
    }
    case Phase::kSummer: {
      const int x = a - act::kPlay, t = x / 10, j = x % 10 / 2, p = s.current;
      const bool down = x & 1;
      int i = 0;
      while (s.hand[p][i] != t) ++i;
      remove_card(s.hand[p], i);
      s.column[j][column_size(s, j)] = card_code(t, down, p);
      if (down)
        --s.tokens[p];
      else
        ++s.revealed[t];
      ++s.turn;
      if (++s.step == 3 * n) {
        s.phase = Phase::kWinter;
        s.step = 0;
        s.current = s.order[0];
      } else {
        s.current = s.order[s.step % n];
      }
      turn_cap_reached(s);
      break;
    }
    case Phase::kWinter: {
      const int j = a - act::kTake, p = s.current;
      int gained = 0, moons = 0;
      bool predators = false;
      for (int i = 0; i < kColumnMax && s.column[j][i] != kNone; ++i) {
        const uint8_t c = s.column[j][i];
        const int t = code_type(c), k = type_kind_[t];
        if (code_down(c)) {
          ++s.revealed[t];
          ++gained;
        }
        moons += type_moons_[t];
        if (kind(k).food) {
          ++s.display[p][k];
        } else {
          ++s.pending[k];
          predators = true;
        }
        s.column[j][i] = kNone;
      }
      if (j == n) {
        gained += s.last_squirrel_token;
        s.last_squirrel_token = 0;
      }
      const int cap = params_.token_cap;
      int held = s.tokens[p] + gained;
      if (held > cap) {
        s.supply = static_cast<uint8_t>(s.supply + held - cap);
        held = cap;
      }
      const int from_supply = std::min({moons, static_cast<int>(s.supply), cap - held});
      s.supply = static_cast<uint8_t>(s.supply - from_supply);
      s.tokens[p] = static_cast<uint8_t>(held + from_supply);
      s.taken[j] = static_cast<uint8_t>(p);
      ++s.turn;
      if (predators)
        s.phase = Phase::kPredators;
      else
        next_taker(s);
      break;
    }
    case Phase::kPredators: {
      const int k = a - act::kApply;
      --s.pending[k];
      predator(s, k, s.current);
      bool more = false;
      for (int x = 0; x < kMaxKinds; ++x) more |= s.pending[x] != 0;
      if (!more) next_taker(s);
      break;
    }
    case Phase::kFinal: {
      const int k = a - act::kFinal, p = s.current;
      int i = 0;
      while (type_kind_[s.hand[p][i]] != k) ++i;
      const int t = s.hand[p][i];
      remove_card(s.hand[p], i);
      ++s.revealed[t];
      if (kind(k).food)
        ++s.display[p][k];
      else
        predator(s, k, p);
      if (s.hand[p][0] != kNone) break;
      if (++s.step == n) return end_game(s);
      s.current = s.order[s.step];
      break;
    }
    case Phase::kTerminal:
      break;
  }
}

// Forced decisions (exactly one legal action) are applied at once. Most decisions have a choice,
// which is seen without listing the actions: a token (face up or down), two kinds of card, two
// trees with room.
inline void Game::run(State& s) const {
  while (s.phase == Phase::kSummer || s.phase == Phase::kPredators || s.phase == Phase::kFinal) {
    const int p = s.current;
    if (s.phase == Phase::kSummer) {
      if (s.tokens[p] > 0 || s.hand[p][hand_size(s, p) - 1] != s.hand[p][0]) return;
      int room = 0;
      for (int j = 0; j < num_trees(); ++j) room += has_room(s, j);
      if (room > 1) return;
    }
    ActionList legal;
    legal_actions(s, legal);
    if (legal.size() != 1) return;
    do_action(s, legal[0]);
  }
}

inline void Game::apply(State& s, Action a) const {
  do_action(s, a);
  run(s);
}

inline void Game::scores(const State& s, int* out) const {
  for (int p = 0; p < s.num_players; ++p) out[p] = score_of(s, p);
}

inline void Game::returns(const State& s, double* out) const {
  const int n = s.num_players;
  for (int p = 0; p < n; ++p) out[p] = 0.0;
  if (!is_terminal(s)) return;
  int points[kMaxPlayers];
  scores(s, points);
  const int best = *std::max_element(points, points + n);
  const int winners = static_cast<int>(std::count(points, points + n, best));
  for (int p = 0; p < n; ++p)
    if (points[p] == best) out[p] = 1.0 / winners;
}

// ---------------------------------------------------------------------------------------------
// Information sets.

inline void Game::unseen(const State& s, int player, int* out) const {
  for (int t = 0; t < num_types_; ++t) out[t] = type_count_[t] - s.revealed[t] - s.discarded[player][t];
  for (int i = 0; i < kHandSize && s.hand[player][i] != kNone; ++i) --out[s.hand[player][i]];
  for (int j = 0; j < s.num_players + 1; ++j)
    for (int i = 0; i < kColumnMax && s.column[j][i] != kNone; ++i) {
      const uint8_t c = s.column[j][i];
      if (code_down(c) && code_owner(c) == player) --out[code_type(c)];
    }
}

// What `player` knows, as a state: the deck's composition is zeroed, other seats' hand cards become
// kHiddenCard, the type of their face-down cards kHiddenType, their discarded rows only a count.
// Two states give the same view exactly when the seat cannot tell them apart.
inline State Game::view(const State& s, int player) const {
  State v = s;
  std::memset(v.deck, 0, sizeof v.deck);
  v.deck[kHiddenType] = static_cast<uint8_t>(deck_size(s));
  for (int p = 0; p < s.num_players; ++p) {
    if (p == player) continue;
    for (int i = 0; i < kHandSize; ++i)
      if (v.hand[p][i] != kNone) v.hand[p][i] = kHiddenCard;
    int count = 0;
    for (int t = 0; t < kTypeSlots; ++t) count += s.discarded[p][t];
    std::memset(v.discarded[p], 0, kTypeSlots);
    v.discarded[p][kHiddenType] = static_cast<uint8_t>(count);
  }
  for (int j = 0; j < kMaxTrees; ++j)
    for (int i = 0; i < kColumnMax; ++i) {
      const uint8_t c = s.column[j][i];
      if (c != kNone && seen_type(c, player) == kHiddenType) v.column[j][i] = static_cast<uint8_t>(c | kHiddenType);
    }
  return v;
}

// The posterior given `player`'s view (docs/rules/nutz.md): the cards it has not seen, in a
// uniformly random order, fill others' hands, others' face-down cards, others' discards, then the
// deck. Reads nothing of `s` that the view hides (the counts it uses are public).
inline State Game::resample(const State& s, int player, Rng& rng) const {
  int counts[kTypeSlots] = {};
  unseen(s, player, counts);
  uint8_t cards[256];
  int m = 0;
  for (int t = 0; t < num_types_; ++t)
    for (int c = 0; c < counts[t]; ++c) cards[m++] = static_cast<uint8_t>(t);
  for (int i = m - 1; i > 0; --i) std::swap(cards[i], cards[rng.below(static_cast<uint32_t>(i + 1))]);
  State r = s;
  int next = 0;
  const int n = s.num_players;
  for (int p = 0; p < n; ++p) {
    if (p == player) continue;
    const int size = hand_size(s, p);
    for (int i = 0; i < kHandSize; ++i) r.hand[p][i] = kNone;
    for (int i = 0; i < size; ++i) insert_card(r.hand[p], cards[next++]);
  }
  for (int j = 0; j < n + 1; ++j)
    for (int i = 0; i < kColumnMax && s.column[j][i] != kNone; ++i) {
      const uint8_t c = s.column[j][i];
      if (code_down(c) && code_owner(c) != player) r.column[j][i] = card_code(cards[next++], true, code_owner(c));
    }
  for (int p = 0; p < n; ++p) {
    if (p == player) continue;
    int count = 0;
    for (int t = 0; t < kTypeSlots; ++t) count += s.discarded[p][t];
    std::memset(r.discarded[p], 0, kTypeSlots);
    for (int c = 0; c < count; ++c) ++r.discarded[p][cards[next++]];
  }
  std::memset(r.deck, 0, sizeof r.deck);
  for (; next < m; ++next) ++r.deck[cards[next]];
  return r;
}

}  // namespace nutcore::nutz

// The heuristics come with the rules: every unit that sees the game sees the same optional hooks
// (found by argument-dependent lookup, core/game_concept.h), so searches are the same everywhere.
#include "games/nutz/heuristic.h"
