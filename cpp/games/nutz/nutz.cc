// Nutz!: the cold path. The parameters (the card set: card_set.cc), action strings, canonical JSON, binary
// encoding, validation of positions from outside, the information-state text and tensor, and the
// readable table.
#include "games/nutz/nutz.h"

#include <sstream>
#include <stdexcept>

#include "core/state_bytes.h"

namespace nutcore::nutz {

namespace {

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

const char* const kPhaseNames[] = {"squirrels", "deal", "summer", "winter", "predators", "final", "terminal"};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Parameters.

Params Game::params_from_json(const Json& j) {
  Params p;
  for (const auto& [key, value] : j.items("nutz parameters")) {
    const std::string what = "nutz: parameter " + key;
    if (key == "players")
      p.players = int_in(value, what, -1000000, 1000000);
    else if (key == "cards")
      p.cards = CardSet::from_json(value);
    else if (key == "last_tree_tokens")
      p.last_tree_tokens = int_in(value, what, 1, 12);
    else if (key == "moon_tokens")
      p.moon_tokens = int_in(value, what, 1, 60);
    else if (key == "token_cap")
      p.token_cap = int_in(value, what, 2, 15);
    else if (key == "turn_cap")
      p.turn_cap = int_in(value, what, 1, 60000);
    else if (key == "remove_three_plus") {
      if (value.type() != Json::Type::kBool) fail(what + " must be true or false");
      p.remove_three_plus = value.as_bool(what);
    } else {
      fail("nutz has no parameter \"" + key + "\"");
    }
  }
  return p;
}

Game::Game(const Params& params) : params_(params) {
  Params& p = params_;
  const int n = p.players;
  if (n < 2 || n > kMaxPlayers) fail("nutz: players must be 2..4");
  if (p.cards.kinds.empty()) p.cards = CardSet::default_set();
  if (p.last_tree_tokens == 0) p.last_tree_tokens = 9 - n;
  if (p.remove_three_plus < 0) p.remove_three_plus = n == 2;
  if (p.last_tree_tokens < 1 || p.last_tree_tokens > 12) fail("nutz: last_tree_tokens must be 1..12");
  if (p.moon_tokens < 1 || p.moon_tokens > 60) fail("nutz: moon_tokens must be 1..60");
  if (p.token_cap < 2 || p.token_cap > 15) fail("nutz: token_cap must be 2..15");
  if (p.turn_cap < 1 || p.turn_cap > 60000) fail("nutz: turn_cap must be 1..60000");
  if (p.last_tree_tokens + n + 1 > p.moon_tokens)
    fail("nutz: the set-up needs last_tree_tokens + players + 1 = " + std::to_string(p.last_tree_tokens + n + 1) +
         " moon tokens, and moon_tokens is " + std::to_string(p.moon_tokens));
  // Card types: (kind, moons) of the groups in the game, by kind, then moons.
  int in_game = 0;
  for (int k = 0; k < static_cast<int>(p.cards.kinds.size()); ++k) {
    const Kind& kind = p.cards.kinds[k];
    for (int moons = 0; moons <= 3; ++moons) {
      int count = 0;
      for (const Kind::Group& g : kind.groups)
        if (g.moons == moons && !(g.three_plus && p.remove_three_plus)) count += g.count;
      if (!count) continue;
      if (num_types_ == kMaxTypes) fail("nutz: cards: more than 15 card types (kind and moon icons) in the game");
      if (count > 60) fail("nutz: cards: more than 60 cards of type " + kind.name + std::string(moons, '*'));
      type_kind_[num_types_] = static_cast<uint8_t>(k);
      type_moons_[num_types_] = static_cast<uint8_t>(moons);
      type_count_[num_types_] = static_cast<uint8_t>(count);
      type_mask_[num_types_] = 0xFF;
      type_names_.push_back(kind.name + std::string(moons, '*'));
      ++num_types_;
      in_game += count;
    }
    if (!kind.food && !kind.discard_all) {
      highest_order_[k] = kind.of;
      // Most valuable first; equal values: the lower kind number first.
      std::sort(highest_order_[k].begin(), highest_order_[k].end(), [&](int a, int b) {
        const int va = p.cards.kinds[a].each, vb = p.cards.kinds[b].each;
        return va != vb ? va > vb : a < b;
      });
    }
  }
  for (int k = 0; k < static_cast<int>(p.cards.kinds.size()); ++k)
    for (int c = 0; c < 257; ++c) points_[k][c] = p.cards.kinds[k].points(c);
  const int needed = n * (kHandSize + kRefill * (p.last_tree_tokens - 1));
  if (in_game < needed)
    fail("nutz: the deck has " + std::to_string(in_game) + " cards and " + std::to_string(p.last_tree_tokens) +
         " rounds for " + std::to_string(n) + " players deal " + std::to_string(needed));
}

Json Game::params_json() const {
  const Params& p = params_;
  Json j = Json::object();
  j.set("players", Json::integer(p.players));
  j.set("cards", p.cards.to_json());
  j.set("last_tree_tokens", Json::integer(p.last_tree_tokens));
  j.set("moon_tokens", Json::integer(p.moon_tokens));
  j.set("token_cap", Json::integer(p.token_cap));
  j.set("remove_three_plus", Json::boolean(p.remove_three_plus != 0));
  j.set("turn_cap", Json::integer(p.turn_cap));
  return j;
}

State Game::new_initial_state() const {
  State s;
  std::memset(&s, 0, sizeof s);
  for (int t = 0; t < num_types_; ++t) s.deck[t] = type_count_[t];
  std::memset(s.hand, kNone, sizeof s.hand);
  std::memset(s.column, kNone, sizeof s.column);
  std::memset(s.order, kNone, sizeof s.order);
  std::memset(s.taken, kNone, sizeof s.taken);
  s.supply = static_cast<uint8_t>(params_.moon_tokens);
  s.round = 1;
  s.num_players = static_cast<uint8_t>(params_.players);
  s.phase = Phase::kSquirrels;
  return s;
}

// ---------------------------------------------------------------------------------------------
// Actions.

std::string Game::action_to_string(Action a) const {
  if (a < 0 || a >= act::kNumDistinct) return "action " + std::to_string(a) + " (out of range)";
  auto type = [&](int t) { return t < num_types_ ? type_names_[t] : "type " + std::to_string(t); };
  auto kind_name = [&](int k) { return k < num_kinds() ? kind(k).name : "kind " + std::to_string(k); };
  if (a < act::kTake) {
    const int t = a / 10, j = a % 10 / 2 + 1;
    return type(t) + (a & 1 ? " face down" : "") + " to tree " + std::to_string(j);
  }
  if (a < act::kApply) return "take tree " + std::to_string(a - act::kTake + 1);
  if (a < act::kFinal) return "apply " + kind_name(a - act::kApply);
  if (a < act::kSquirrel + 1) return "play " + kind_name(a - act::kFinal);
  if (a < act::kDeal) return "squirrel " + std::to_string(a - act::kSquirrel);
  if (a < act::kDeal + kMaxTypes) return "deal " + type(a - act::kDeal);
  return "action " + std::to_string(a);
}

Observed Game::observe(const State& s, Action a, int player) const {
  const std::string full = action_to_string(a);
  switch (s.phase) {
    case Phase::kDeal:
      if (s.current == player) return {full, true};
      return {"deal a card to seat " + std::to_string(s.current), false};
    case Phase::kSummer:
      if (!(a & 1) || s.current == player) return {full, true};
      return {"a card face down to tree " + std::to_string(a % 10 / 2 + 1), false};
    case Phase::kWinter: {
      const int j = a - act::kTake;
      std::string shown;
      for (int i = 0; i < kColumnMax && s.column[j][i] != kNone; ++i)
        if (code_down(s.column[j][i])) shown += (shown.empty() ? "" : ", ") + type_names_[code_type(s.column[j][i])];
      if (shown.empty()) return {full, true};
      return {full + "; face down: " + shown, true};
    }
    default:  // squirrel numbers, predators applied, the last cards played: public
      return {full, true};
  }
}

// ---------------------------------------------------------------------------------------------
// JSON.

Json Game::to_json(const State& s) const {
  const int n = s.num_players;
  Json j = Json::object();
  j.set("game", Json::string(kName));
  j.set("players", Json::integer(n));
  j.set("phase", Json::string(kPhaseNames[static_cast<int>(s.phase)]));
  j.set("current_player", Json::integer(current_player(s)));
  j.set("round", Json::integer(s.round));
  j.set("turn", Json::integer(s.turn));
  j.set("step", Json::integer(s.step));
  Json squirrels = Json::array(), tokens = Json::array(), hands = Json::array();
  for (int p = 0; p < n; ++p) {
    squirrels.push(s.squirrel[p] ? Json::integer(s.squirrel[p]) : Json::null());
    tokens.push(Json::integer(s.tokens[p]));
    Json hand = Json::array();
    for (int i = 0; i < kHandSize && s.hand[p][i] != kNone; ++i) hand.push(Json::string(type_names_[s.hand[p][i]]));
    hands.push(hand);
  }
  j.set("squirrels", squirrels);
  j.set("tokens", tokens);
  j.set("supply", Json::integer(s.supply));
  j.set("last_tree", Json::integer(s.last_tree));
  j.set("last_squirrel_token", Json::integer(s.last_squirrel_token));
  j.set("hands", hands);
  Json trees = Json::array(), taken = Json::array();
  for (int t = 0; t < n + 1; ++t) {
    Json column = Json::array();
    for (int i = 0; i < kColumnMax && s.column[t][i] != kNone; ++i) {
      const uint8_t c = s.column[t][i];
      Json card = Json::object();
      card.set("card", Json::string(type_names_[code_type(c)]));
      card.set("face_down", Json::boolean(code_down(c)));
      card.set("by", Json::integer(code_owner(c)));
      column.push(card);
    }
    trees.push(column);
    taken.push(s.taken[t] == kNone ? Json::null() : Json::integer(s.taken[t]));
  }
  j.set("trees", trees);
  j.set("taken", taken);
  Json pending = Json::array();
  for (int k = 0; k < num_kinds(); ++k)
    for (int c = 0; c < s.pending[k]; ++c) pending.push(Json::string(kind(k).name));
  j.set("pending", pending);
  Json displays = Json::array();
  for (int p = 0; p < n; ++p) {
    Json d = Json::object();
    for (int k = 0; k < num_kinds(); ++k)
      if (kind(k).food) d.set(kind(k).name, Json::integer(s.display[p][k]));
    displays.push(d);
  }
  j.set("displays", displays);
  auto per_type = [&](const uint8_t* counts) {
    Json o = Json::object();
    for (int t = 0; t < num_types_; ++t) o.set(type_names_[t], Json::integer(counts[t]));
    return o;
  };
  j.set("deck", per_type(s.deck));
  j.set("revealed", per_type(s.revealed));
  Json discarded = Json::array();
  for (int p = 0; p < n; ++p) discarded.push(per_type(s.discarded[p]));
  j.set("discarded_unseen", discarded);
  return j;
}

// The view keeps to_json's shape where it can: others' hand cards and face-down cards are "hidden",
// the deck is only a size (with the counts of cards the seat has not seen), and others' discards
// unseen only a count.
Json Game::view_json(const State& s, int player) const {
  const Json full = to_json(s);
  Json j = Json::object();
  j.set("view_of", Json::integer(player));
  const int n = s.num_players;
  for (const auto& [key, value] : full.items("nutz state")) {
    if (key == "hands") {
      Json hands = Json::array();
      for (int p = 0; p < n; ++p) {
        if (p == player) {
          hands.push(value.as_array("hands")[p]);
          continue;
        }
        Json hand = Json::array();
        for (int i = 0; i < hand_size(s, p); ++i) hand.push(Json::string("hidden"));
        hands.push(hand);
      }
      j.set(key, hands);
    } else if (key == "trees") {
      Json trees = Json::array();
      for (int t = 0; t < n + 1; ++t) {
        Json column = Json::array();
        for (int i = 0; i < kColumnMax && s.column[t][i] != kNone; ++i) {
          Json card = value.as_array("trees")[t].as_array("column")[i];
          const uint8_t c = s.column[t][i];
          if (code_down(c) && code_owner(c) != player) card.set("card", Json::string("hidden"));
          column.push(card);
        }
        trees.push(column);
      }
      j.set(key, trees);
    } else if (key == "deck") {
      int counts[kTypeSlots] = {};
      j.set("deck_size", Json::integer(deck_size(s)));
      unseen(s, player, counts);
      Json o = Json::object();
      for (int t = 0; t < num_types_; ++t) o.set(type_names_[t], Json::integer(counts[t]));
      j.set("unseen", o);
    } else if (key == "discarded_unseen") {
      Json discarded = Json::array();
      for (int p = 0; p < n; ++p) {
        if (p == player) {
          discarded.push(value.as_array("discarded_unseen")[p]);
          continue;
        }
        int count = 0;
        for (int t = 0; t < kTypeSlots; ++t) count += s.discarded[p][t];
        Json o = Json::object();
        o.set("hidden", Json::integer(count));
        discarded.push(o);
      }
      j.set(key, discarded);
    } else {
      j.set(key, value);
    }
  }
  return j;
}

State Game::from_json(const Json& j) const {
  State s = new_initial_state();
  std::memset(s.deck, 0, sizeof s.deck);
  s.supply = 0;
  JsonObjectReader r(j, "nutz state");
  if (r.get("game").as_string("game") != kName) fail("game: expected \"nutz\"");
  const int n = json_int_in(r.get("players"), "players", 2, 4);
  if (n != params_.players)
    fail("players: the state has " + std::to_string(n) + " players, the game " + std::to_string(params_.players));
  s.phase = static_cast<Phase>(name_index(kPhaseNames, kNumPhases, r.get("phase").as_string("phase"), "phase"));
  const int claimed_player = json_int_in(r.get("current_player"), "current_player", -4, n - 1);
  s.round = static_cast<uint8_t>(json_int_in(r.get("round"), "round", 1, params_.last_tree_tokens));
  s.turn = static_cast<uint16_t>(json_int_in(r.get("turn"), "turn", 0, params_.turn_cap));
  s.step = static_cast<uint8_t>(json_int_in(r.get("step"), "step", 0, 3 * n - 1));
  auto seat_list = [&](const char* key) -> const std::vector<Json>& {
    const auto& list = r.get(key).as_array(key);
    if (static_cast<int>(list.size()) != n) fail(std::string(key) + ": expected one entry per seat");
    return list;
  };
  auto type_index = [&](const Json& v, const std::string& what) {
    const std::string& name = v.as_string(what);
    for (int t = 0; t < num_types_; ++t)
      if (type_names_[t] == name) return t;
    fail(what + ": no card type \"" + name + "\"");
  };
  const auto& squirrels = seat_list("squirrels");
  for (int p = 0; p < n; ++p)
    if (!squirrels[p].is_null()) s.squirrel[p] = static_cast<uint8_t>(json_int_in(squirrels[p], "squirrels", 1, n + 1));
  const auto& tokens = seat_list("tokens");
  for (int p = 0; p < n; ++p)
    s.tokens[p] = static_cast<uint8_t>(json_int_in(tokens[p], "tokens", 0, params_.token_cap));
  s.supply = static_cast<uint8_t>(json_int_in(r.get("supply"), "supply", 0, params_.moon_tokens));
  s.last_tree = static_cast<uint8_t>(json_int_in(r.get("last_tree"), "last_tree", 0, params_.last_tree_tokens));
  s.last_squirrel_token = static_cast<uint8_t>(json_int_in(r.get("last_squirrel_token"), "last_squirrel_token", 0, 1));
  const auto& hands = seat_list("hands");
  for (int p = 0; p < n; ++p) {
    const auto& hand = hands[p].as_array("hands");
    if (hand.size() > kHandSize) fail("hands: at most 5 cards");
    for (const Json& c : hand) insert_card(s.hand[p], type_index(c, "hands"));
  }
  const auto& trees = r.get("trees").as_array("trees");
  if (static_cast<int>(trees.size()) != n + 1) fail("trees: expected one column per tree");
  for (int t = 0; t < n + 1; ++t) {
    const auto& column = trees[t].as_array("trees");
    if (column.size() > kColumnMax) fail("trees: at most 3 cards under a tree");
    for (size_t i = 0; i < column.size(); ++i) {
      JsonObjectReader c(column[i], "trees card");
      const int type = type_index(c.get("card"), "trees card");
      const bool down = c.get("face_down").as_bool("face_down");
      const int by = json_int_in(c.get("by"), "by", 0, n - 1);
      c.finish();
      s.column[t][i] = card_code(type, down, by);
    }
  }
  const auto& taken = r.get("taken").as_array("taken");
  if (static_cast<int>(taken.size()) != n + 1) fail("taken: expected one entry per tree");
  for (int t = 0; t < n + 1; ++t)
    if (!taken[t].is_null()) s.taken[t] = static_cast<uint8_t>(json_int_in(taken[t], "taken", 0, n - 1));
  for (const Json& k : r.get("pending").as_array("pending")) {
    const std::string& name = k.as_string("pending");
    int found = -1;
    for (int x = 0; x < num_kinds(); ++x)
      if (kind(x).name == name && !kind(x).food) found = x;
    if (found < 0) fail("pending: no predator kind \"" + name + "\"");
    if (++s.pending[found] > kColumnMax) fail("pending: more predators than a column holds");
  }
  const auto& displays = seat_list("displays");
  for (int p = 0; p < n; ++p) {
    JsonObjectReader d(displays[p], "displays");
    for (int k = 0; k < num_kinds(); ++k)
      if (kind(k).food) s.display[p][k] = static_cast<uint8_t>(json_int_in(d.get(kind(k).name), "displays", 0, 240));
    d.finish();
  }
  auto per_type = [&](const Json& v, const std::string& what, uint8_t* out) {
    JsonObjectReader o(v, what);
    for (int t = 0; t < num_types_; ++t)
      out[t] = static_cast<uint8_t>(json_int_in(o.get(type_names_[t]), what, 0, type_count_[t]));
    o.finish();
  };
  per_type(r.get("deck"), "deck", s.deck);
  per_type(r.get("revealed"), "revealed", s.revealed);
  const auto& discarded = seat_list("discarded_unseen");
  for (int p = 0; p < n; ++p) per_type(discarded[p], "discarded_unseen", s.discarded[p]);
  r.finish();
  if (s.phase != Phase::kSquirrels) set_order(s);
  // The seat to act follows from the phase and the step.
  switch (s.phase) {
    case Phase::kSquirrels:
    case Phase::kDeal:
      s.current = s.step < n ? s.step : 0;
      break;
    case Phase::kSummer:
      s.current = s.order[s.step % n];
      break;
    case Phase::kTerminal:
      s.current = 0;
      break;
    default:
      s.current = s.step < n ? s.order[s.step] : 0;
  }
  validate(s);
  if (claimed_player != current_player(s)) fail("current_player does not match the phase and step");
  run(s);
  return s;
}

void Game::validate(const State& s) const {
  const int n = s.num_players, trees = n + 1;
  require_players(s);  // require() and this: core/game_defaults.h
  require(static_cast<int>(s.phase) < kNumPhases, "bad phase");
  const Phase ph = s.phase;
  const int T = params_.last_tree_tokens;
  require(s.round >= 1 && s.round <= T, "round out of range");
  require(s.turn <= params_.turn_cap, "turn counter past the cap");
  // Unused slots are neutral.
  for (int t = num_types_; t < kTypeSlots; ++t) {
    require(s.deck[t] == 0 && s.revealed[t] == 0, "a card type the game does not have");
    for (int p = 0; p < kMaxPlayers; ++p) require(s.discarded[p][t] == 0, "a card type the game does not have");
  }
  for (int p = n; p < kMaxPlayers; ++p) {
    require(s.squirrel[p] == 0 && s.order[p] == kNone && s.tokens[p] == 0, "a seat that does not play is used");
    for (int i = 0; i < kHandSize; ++i) require(s.hand[p][i] == kNone, "a seat that does not play is used");
    for (int k = 0; k < kMaxKinds; ++k) require(s.display[p][k] == 0, "a seat that does not play is used");
    for (int t = 0; t < kTypeSlots; ++t) require(s.discarded[p][t] == 0, "a seat that does not play is used");
  }
  for (int j = trees; j < kMaxTrees; ++j) {
    require(s.taken[j] == kNone, "a tree the game does not have");
    for (int i = 0; i < kColumnMax; ++i) require(s.column[j][i] == kNone, "a tree the game does not have");
  }
  for (int k = 0; k < kMaxKinds; ++k) {
    const bool food = k < num_kinds() && kind(k).food;
    const bool predator = k < num_kinds() && !kind(k).food;
    for (int p = 0; p < n; ++p) require(food || s.display[p][k] == 0, "a display holds a predator");
    require(predator || s.pending[k] == 0, "a pending card is not a predator");
  }
  // Cards: hands sorted, columns packed; every card of each type is somewhere.
  int where[kTypeSlots] = {};
  int hand_sizes[kMaxPlayers] = {}, played_by[kMaxPlayers] = {}, in_columns = 0, face_down = 0;
  for (int p = 0; p < n; ++p) {
    for (int i = 0; i < kHandSize; ++i) {
      const int c = s.hand[p][i];
      if (c == kNone) {
        for (int m = i; m < kHandSize; ++m) require(s.hand[p][m] == kNone, "a gap in a hand");
        break;
      }
      require(c < num_types_, "a hand card of no type");
      require(i == 0 || s.hand[p][i - 1] <= c, "a hand is not sorted");
      ++where[c];
      ++hand_sizes[p];
    }
  }
  for (int j = 0; j < trees; ++j)
    for (int i = 0; i < kColumnMax; ++i) {
      const uint8_t c = s.column[j][i];
      if (c == kNone) {
        for (int m = i; m < kColumnMax; ++m) require(s.column[j][m] == kNone, "a gap in a column");
        break;
      }
      require(code_type(c) < num_types_ && code_owner(c) < n, "a bad card in a column");
      ++in_columns;
      ++played_by[code_owner(c)];
      if (code_down(c)) {
        ++face_down;
        ++where[code_type(c)];
      }
    }
  int deck = 0;
  for (int t = 0; t < num_types_; ++t) {
    int face_up_in_columns = 0;
    for (int j = 0; j < trees; ++j)
      for (int i = 0; i < kColumnMax && s.column[j][i] != kNone; ++i)
        face_up_in_columns += !code_down(s.column[j][i]) && code_type(s.column[j][i]) == t;
    require(s.revealed[t] >= face_up_in_columns, "a face-up card in a column is not counted as revealed");
    int discarded = 0;
    for (int p = 0; p < n; ++p) discarded += s.discarded[p][t];
    require(s.deck[t] + where[t] + discarded + s.revealed[t] == type_count_[t],
            "the cards of a type do not add up (deck + hands + face-down + discarded unseen + revealed)");
    deck += s.deck[t];
  }
  // Displays and pending predators hold revealed cards that are not face up in a column.
  for (int k = 0; k < num_kinds(); ++k) {
    int out = 0;
    for (int t = 0; t < num_types_; ++t) {
      if (type_kind_[t] != k) continue;
      out += s.revealed[t];
      for (int j = 0; j < trees; ++j)
        for (int i = 0; i < kColumnMax && s.column[j][i] != kNone; ++i)
          out -= !code_down(s.column[j][i]) && code_type(s.column[j][i]) == t;
    }
    int held_cards = s.pending[k];
    for (int p = 0; p < n; ++p) held_cards += s.display[p][k];
    require(held_cards <= out, "displays and pending predators hold more cards than were revealed");
  }
  int held = s.supply + s.last_tree + s.last_squirrel_token + face_down;
  for (int p = 0; p < n; ++p) {
    require(s.tokens[p] <= params_.token_cap, "a player holds more tokens than the cap");
    held += s.tokens[p];
  }
  require(held == params_.moon_tokens, "the moon tokens do not add up");
  require(s.last_squirrel_token <= 1, "last_squirrel_token is 0 or 1");
  int pending = 0, pending_kinds = 0;
  for (int k = 0; k < kMaxKinds; ++k) {
    pending += s.pending[k];
    pending_kinds += s.pending[k] != 0;
  }
  require(ph == Phase::kPredators ? pending_kinds >= 1 && pending <= kColumnMax : pending == 0,
          "pending predators exactly in phase predators");
  int taken = 0;
  for (int j = 0; j < trees; ++j)
    if (s.taken[j] != kNone) {
      require(s.taken[j] < n, "taken by a seat that does not play");
      for (int m = 0; m < j; ++m) require(s.taken[m] != s.taken[j], "a seat took two trees");
      require(s.column[j][0] == kNone, "a taken tree still has cards");
      ++taken;
    }
  require(ph == Phase::kWinter || ph == Phase::kPredators || taken == 0, "trees taken outside winter");
  if (ph == Phase::kSquirrels) {
    require(s.round == 1 && s.turn == 0 && s.step < n, "squirrels: round 1, nothing played");
    for (int p = 0; p < n; ++p) {
      require(p < s.step ? s.squirrel[p] >= 1 && s.squirrel[p] <= trees : s.squirrel[p] == 0,
              "squirrels: the seats before the one dealt have a number");
      for (int q = 0; q < p; ++q)
        require(s.squirrel[p] == 0 || s.squirrel[q] != s.squirrel[p], "two seats hold one squirrel");
      require(hand_sizes[p] == 0 && s.tokens[p] == 0 && s.order[p] == kNone, "squirrels: no cards or tokens yet");
    }
    require(
        deck ==
            [&] {
              int x = 0;
              for (int t = 0; t < num_types_; ++t) x += type_count_[t];
              return x;
            }(),
        "squirrels: every card in the deck");
    require(s.supply == params_.moon_tokens, "squirrels: every token in the supply");
    return;
  }
  for (int p = 0; p < n; ++p) {
    require(s.squirrel[p] >= 1 && s.squirrel[p] <= trees, "a squirrel number out of range");
    for (int q = 0; q < p; ++q) require(s.squirrel[q] != s.squirrel[p], "two seats hold one squirrel");
  }
  if (ph == Phase::kTerminal) {
    require(s.step == 0 && s.current == 0, "a finished game has step 0 and nobody to act");
    const bool normal = s.round == T && s.last_tree == 0 && in_columns == 0;
    bool hands_empty = true;
    for (int p = 0; p < n; ++p) hands_empty &= hand_sizes[p] == 0;
    require((normal && hands_empty) || s.turn == params_.turn_cap, "the game is over for no reason");
    return;
  }
  require(s.last_tree == T - s.round, "last_tree must be last_tree_tokens - round");
  const int base_turn = (s.round - 1) * 4 * n;
  // The deck holds every card not dealt yet (so it can deal the rounds still to come).
  int dealt = n * (kHandSize + kRefill * (s.round - 1));
  if (ph == Phase::kDeal)
    for (int p = 0; p < n; ++p) dealt -= kHandSize - hand_sizes[p];
  int in_game = 0;
  for (int t = 0; t < num_types_; ++t) in_game += type_count_[t];
  require(deck == in_game - dealt, "the deck must hold exactly the cards not dealt yet");
  const int start = s.round == 1 ? 0 : kHandSize - kRefill;
  switch (ph) {
    case Phase::kDeal:
      require(s.step < n && s.current == s.step, "deal: the seat receiving");
      require(s.turn == base_turn && in_columns == 0, "deal: nothing played this round");
      require(s.last_squirrel_token == 1, "deal: the last squirrel holds its token");
      for (int p = 0; p < n; ++p)
        require(p < s.step    ? hand_sizes[p] == kHandSize
                : p == s.step ? hand_sizes[p] >= start && hand_sizes[p] < kHandSize
                              : hand_sizes[p] == start,
                "deal: hand sizes");
      break;
    case Phase::kSummer:
      require(s.turn == base_turn + s.step && in_columns == s.step, "summer: the turn and the cards played");
      require(s.last_squirrel_token == 1, "summer: the last squirrel holds its token");
      for (int i = 0; i < n; ++i) {
        const int plays = s.step / n + (i < s.step % n ? 1 : 0);
        require(hand_sizes[s.order[i]] == kHandSize - plays && played_by[s.order[i]] == plays,
                "summer: hands and plays");
      }
      break;
    case Phase::kWinter:
    case Phase::kPredators: {
      require(s.step < n, "winter: step out of range");
      require(taken == s.step + (ph == Phase::kPredators ? 1 : 0), "winter: the trees taken");
      require(s.turn == base_turn + 3 * n + taken, "winter: the turn");
      for (int i = 0; i < n; ++i) {
        int tree = -1;
        for (int j = 0; j < trees; ++j)
          if (s.taken[j] == s.order[i]) tree = j;
        require((i < taken) == (tree >= 0), "winter: the seats take in the order of play");
      }
      const bool last_taken = s.taken[n] != kNone;
      require(s.last_squirrel_token == (last_taken ? 0 : 1), "winter: the last squirrel token");
      for (int p = 0; p < n; ++p) require(hand_sizes[p] == kHandSize - kRefill, "winter: two cards in each hand");
      // Each seat played 3 cards this summer (some may have left in trees taken already).
      for (int p = 0; p < n; ++p) require(played_by[p] <= 3, "winter: a seat played more than 3 cards");
      break;
    }
    case Phase::kFinal:
      require(s.step < n && s.last_tree == 0 && s.last_squirrel_token == 0 && in_columns == 0,
              "final: the table is cleared");
      require(s.turn == base_turn + 4 * n, "final: the turn");
      for (int i = 0; i < n; ++i) {
        const int size = hand_sizes[s.order[i]];
        require(i < s.step ? size == 0 : i == s.step ? size >= 1 && size <= 2 : size == 2, "final: hand sizes");
      }
      break;
    default:
      break;
  }
}

State Game::deserialize(const std::string& bytes) const {
  State s = state_from_bytes<State>(bytes, kGameTag, kFormatVersion, params_.players);
  require(static_cast<int>(s.phase) < kNumPhases, "bad phase");
  require_players(s);
  // Derived fields must match what they derive from.
  State check = s;
  if (s.phase != Phase::kSquirrels) set_order(check);
  require(std::memcmp(check.order, s.order, sizeof s.order) == 0, "the order of play");
  validate(s);
  const int n = s.num_players;
  int expected = 0;
  switch (s.phase) {
    case Phase::kSquirrels:
    case Phase::kDeal:
      expected = s.step;
      break;
    case Phase::kSummer:
      expected = s.order[s.step % n];
      break;
    case Phase::kTerminal:
      expected = 0;
      break;
    default:
      expected = s.order[s.step];
  }
  require(s.current == expected, "the seat to act");
  run(s);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Information.

int Game::observation_tensor_size() const {
  const int n = params_.players, c = n + 1, y = num_types_, k = num_kinds();
  int f = 0;
  for (const Kind& x : params_.cards.kinds) f += x.food;
  return 13 + 5 * n + n * c + 3 * c * (3 + n + y) + 4 * y + k + n * f;
}

void Game::observation_tensor(const State& s, int player, float* out) const {
  const State w = view(s, player);
  const int n = s.num_players, trees = n + 1, y = num_types_;
  std::fill(out, out + observation_tensor_size(), 0.0f);
  float* o = out;
  o[player] = 1;
  o += n;
  if (!is_chance(s) && !is_terminal(s)) o[s.current] = 1;
  o += n;
  o[static_cast<int>(s.phase)] = 1;
  o += kNumPhases;
  o[0] = s.round;
  o[1] = s.turn;
  o += 2;
  for (int p = 0; p < n; ++p)
    if (s.squirrel[p]) o[p * trees + s.squirrel[p] - 1] = 1;
  o += n * trees;
  for (int p = 0; p < n; ++p) o[p] = s.tokens[p];
  o[n] = s.supply;
  o[n + 1] = s.last_tree;
  o[n + 2] = s.last_squirrel_token;
  o += n + 3;
  for (int i = 0; i < kHandSize && s.hand[player][i] != kNone; ++i) o[s.hand[player][i]] += 1;
  o += y;
  for (int p = 0; p < n; ++p) o[p] = hand_size(s, p);
  o += n;
  const int slot = 3 + n + y;
  for (int j = 0; j < trees; ++j)
    for (int i = 0; i < kColumnMax; ++i) {
      float* x = o + (j * kColumnMax + i) * slot;
      if (s.taken[j] != kNone) x[2] = 1;
      const uint8_t c = w.column[j][i];
      if (c == kNone) continue;
      x[0] = 1;
      x[1] = code_down(c);
      x[3 + code_owner(c)] = 1;
      if (code_type(c) != kHiddenType) x[3 + n + code_type(c)] = 1;
    }
  o += trees * kColumnMax * slot;
  for (int k = 0; k < num_kinds(); ++k) o[k] = s.pending[k];
  o += num_kinds();
  for (int p = 0; p < n; ++p)
    for (int k = 0; k < num_kinds(); ++k)
      if (kind(k).food) *o++ = s.display[p][k];
  for (int t = 0; t < y; ++t) o[t] = s.revealed[t];
  o += y;
  int counts[kTypeSlots] = {};
  unseen(s, player, counts);
  for (int t = 0; t < y; ++t) o[t] = static_cast<float>(counts[t]);
  o += y;
  for (int p = 0; p < n; ++p) {
    int count = 0;
    for (int t = 0; t < kTypeSlots; ++t) count += s.discarded[p][t];
    o[p] = static_cast<float>(count);
  }
  o += n;
  for (int t = 0; t < y; ++t) o[t] = s.discarded[player][t];
  o += y;
  o[0] = w.deck[kHiddenType];
}

std::string Game::information_string(const State& s, int player) const {
  const int n = s.num_players;
  std::ostringstream o;
  auto card_list = [&](const uint8_t* counts) {
    std::string text;
    for (int t = 0; t < num_types_; ++t)
      for (int c = 0; c < counts[t]; ++c) text += (text.empty() ? "" : " ") + type_names_[t];
    return text.empty() ? std::string("-") : text;
  };
  o << "view of seat " << player << "\n";
  o << "round " << int(s.round) << ", turn " << s.turn << ": ";
  const int c = s.current;
  switch (s.phase) {
    case Phase::kSquirrels:
      o << "seat " << c << " is dealt a squirrel";
      break;
    case Phase::kDeal:
      o << "seat " << c << " is dealt a card";
      break;
    case Phase::kSummer:
      o << "summer, seat " << c << " plays";
      break;
    case Phase::kWinter:
      o << "winter, seat " << c << " takes";
      break;
    case Phase::kPredators:
      o << "seat " << c << " applies predators";
      break;
    case Phase::kFinal:
      o << "seat " << c << " plays its last cards";
      break;
    case Phase::kTerminal:
      o << "game over";
      break;
  }
  o << "\nsquirrels:";
  for (int p = 0; p < n; ++p) o << " " << (s.squirrel[p] ? std::to_string(s.squirrel[p]) : "-");
  o << "\norder:";
  if (s.order[0] == kNone) o << " -";
  for (int i = 0; i < n && s.order[i] != kNone; ++i) o << " " << int(s.order[i]);
  o << "\ntokens:";
  for (int p = 0; p < n; ++p) o << " " << int(s.tokens[p]);
  o << ", supply " << int(s.supply) << ", last tree " << int(s.last_tree) << ", last squirrel "
    << int(s.last_squirrel_token);
  uint8_t mine[kTypeSlots] = {};
  for (int i = 0; i < kHandSize && s.hand[player][i] != kNone; ++i) ++mine[s.hand[player][i]];
  o << "\nhand: " << card_list(mine);
  o << "\nhand sizes:";
  for (int p = 0; p < n; ++p) o << " " << hand_size(s, p);
  for (int j = 0; j < n + 1; ++j) {
    o << "\ntree " << j + 1 << ": ";
    if (s.taken[j] != kNone) {
      o << "taken by " << int(s.taken[j]);
      continue;
    }
    if (s.column[j][0] == kNone) o << "-";
    for (int i = 0; i < kColumnMax && s.column[j][i] != kNone; ++i) {
      const uint8_t x = s.column[j][i];
      if (i) o << ", ";
      if (!code_down(x))
        o << type_names_[code_type(x)] << " by " << code_owner(x);
      else
        o << (code_owner(x) == player ? type_names_[code_type(x)] : "?") << " face down by " << code_owner(x);
    }
  }
  o << "\npending:";
  bool any = false;
  for (int k = 0; k < num_kinds(); ++k)
    for (int x = 0; x < s.pending[k]; ++x) {
      o << " " << kind(k).name;
      any = true;
    }
  if (!any) o << " -";
  for (int p = 0; p < n; ++p) {
    o << "\ndisplay " << p << ":";
    bool first = true;
    for (int k = 0; k < num_kinds(); ++k) {
      if (!kind(k).food) continue;
      o << (first ? " " : ", ") << kind(k).name << " " << int(s.display[p][k]);
      first = false;
    }
  }
  o << "\nrevealed:";
  for (int t = 0; t < num_types_; ++t) o << (t ? ", " : " ") << type_names_[t] << " " << int(s.revealed[t]);
  int counts[kTypeSlots] = {};
  unseen(s, player, counts);
  o << "\nunseen:";
  for (int t = 0; t < num_types_; ++t) o << (t ? ", " : " ") << type_names_[t] << " " << counts[t];
  o << "\ndiscarded unseen:";
  for (int p = 0; p < n; ++p) {
    int count = 0;
    for (int t = 0; t < kTypeSlots; ++t) count += s.discarded[p][t];
    o << " " << count;
  }
  o << "; mine: " << card_list(s.discarded[player]);
  o << "\ndeck: " << deck_size(s);
  return o.str();
}

std::string Game::to_string(const State& s) const {
  const int n = s.num_players;
  std::ostringstream o;
  o << "Nutz!, " << n << " players, round " << int(s.round) << " of " << params_.last_tree_tokens << ", turn " << s.turn
    << ", phase " << kPhaseNames[static_cast<int>(s.phase)];
  const int cp = current_player(s);
  o << (cp >= 0               ? ", seat " + std::to_string(cp) + " to act"
        : cp == kChancePlayer ? ", chance"
                              : ", game over")
    << "\n";
  o << "  tokens: supply " << int(s.supply) << ", last tree " << int(s.last_tree) << ", last squirrel "
    << int(s.last_squirrel_token) << "\n";
  for (int p = 0; p < n; ++p) {
    o << "  seat " << p << ": squirrel " << (s.squirrel[p] ? std::to_string(s.squirrel[p]) : "-") << ", "
      << int(s.tokens[p]) << " token" << (s.tokens[p] == 1 ? "" : "s") << ", score " << score_of(s, p) << ", hand [";
    for (int i = 0; i < kHandSize && s.hand[p][i] != kNone; ++i) o << (i ? " " : "") << type_names_[s.hand[p][i]];
    o << "], display";
    bool any = false;
    for (int k = 0; k < num_kinds(); ++k)
      if (s.display[p][k]) {
        o << " " << kind(k).name << "x" << int(s.display[p][k]);
        any = true;
      }
    if (!any) o << " empty";
    o << "\n";
  }
  for (int j = 0; j < n + 1; ++j) {
    o << "  tree " << j + 1 << ":";
    if (s.taken[j] != kNone) o << " taken by seat " << int(s.taken[j]);
    for (int i = 0; i < kColumnMax && s.column[j][i] != kNone; ++i) {
      const uint8_t x = s.column[j][i];
      o << " " << type_names_[code_type(x)] << (code_down(x) ? "(down)" : "") << "@" << code_owner(x);
    }
    o << "\n";
  }
  o << "  deck: " << deck_size(s) << " cards\n";
  return o.str();
}

}  // namespace nutcore::nutz
