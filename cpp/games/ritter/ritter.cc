// Die Ritter von der Haselnuss: the cold path. Parameters and the board, action strings, canonical
// JSON, binary encoding, validation of positions from outside, the information-state text and
// tensor, and the readable board.
#include "games/ritter/ritter.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

#include "core/state_bytes.h"

namespace nutcore::ritter {

namespace {

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

const char* const kPhaseNames[] = {"place",       "roll",        "move",        "shout",   "draw",
                                   "first_right", "first_wrong", "first_shout", "terminal"};
const char* const kThiefNames[] = {"Max", "Leo", "Fritz"};
const char* const kCardNames[] = {"hazelnut", "Max", "Leo", "Fritz"};
const char* const kShoutNames[] = {"silent", "Max", "Leo", "Fritz"};

Board default_board() {
  Board b;
  for (char i = '1'; i <= '8'; ++i) b.bushes.push_back(std::string{'B', i});
  b.hiding_places = {"H1", "H2"};
  for (int i = 0; i < 8; ++i) b.edges.emplace_back(i, (i + 1) % 8);  // the ring B1..B8
  b.edges.emplace_back(1, 5);                                        // chord B2-B6
  b.edges.emplace_back(2, 6);                                        // chord B3-B7
  b.edges.emplace_back(8, 0);                                        // H1-B1
  b.edges.emplace_back(8, 7);                                        // H1-B8
  b.edges.emplace_back(9, 3);                                        // H2-B4
  b.edges.emplace_back(9, 4);                                        // H2-B5
  return b;
}

bool good_name(const std::string& name) {
  if (name.empty() || name.size() > 8) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

int int_param(const Json& v, const std::string& what) {
  return static_cast<int>(std::clamp<int64_t>(v.as_int(what), -1000000, 1000000));
}

}  // namespace

Params Game::params_from_json(const Json& j) {
  Params p;
  for (const auto& [key, value] : j.items("ritter parameters")) {
    const std::string what = "ritter: parameter " + key;
    if (key == "players")
      p.players = int_param(value, what);
    else if (key == "stack_size")
      p.stack_size = int_param(value, what);
    else if (key == "hazelnuts")
      p.hazelnuts = int_param(value, what);
    else if (key == "thieves_per_kind")
      p.thieves_per_kind = int_param(value, what);
    else if (key == "shout_points")
      p.shout_points = int_param(value, what);
    else if (key == "score_floor")
      p.score_floor = int_param(value, what);
    else if (key == "score_target")
      p.score_target = int_param(value, what);
    else if (key == "empty_stacks_to_end")
      p.empty_stacks_to_end = int_param(value, what);
    else if (key == "turn_cap")
      p.turn_cap = int_param(value, what);
    else if (key == "die" || key == "delivery_points") {
      auto& list = key == "die" ? p.die : p.delivery_points;
      list.clear();
      for (const Json& v : value.as_array(what)) list.push_back(int_param(v, what));
    } else if (key == "shout_resolution") {
      const std::string& mode = value.as_string(what);
      if (mode != "separate" && mode != "first_only") fail(what + " must be \"separate\" or \"first_only\"");
      p.first_only = mode == "first_only";
    } else if (key == "board") {
      JsonObjectReader r(value, what);
      std::vector<std::string> names;
      for (const char* part : {"bushes", "hiding_places"}) {
        auto& list = part[0] == 'b' ? p.board.bushes : p.board.hiding_places;
        for (const Json& v : r.get(part).as_array(what + "." + part)) list.push_back(v.as_string(what + "." + part));
        names.insert(names.end(), list.begin(), list.end());
      }
      for (const Json& e : r.get("edges").as_array(what + ".edges")) {
        const auto& ends = e.as_array(what + ".edges");
        if (ends.size() != 2) fail(what + ": each edge is [a, b]");
        int ids[2];
        for (int i = 0; i < 2; ++i) {
          const std::string& name = ends[i].as_string(what + ".edges");
          auto it = std::find(names.begin(), names.end(), name);
          if (it == names.end()) fail(what + ": an edge names an unknown node \"" + name + "\"");
          ids[i] = static_cast<int>(it - names.begin());
        }
        p.board.edges.emplace_back(ids[0], ids[1]);
      }
      r.finish();
      if (p.board.bushes.empty()) fail(what + ": no bushes");
    } else {
      fail("ritter has no parameter \"" + key + "\"");
    }
  }
  return p;
}

Game::Game(const Params& params) : params_(params) {
  Params& p = params_;
  if (p.players < 2 || p.players > kMaxPlayers) fail("ritter: players must be 2..4");
  if (p.board.bushes.empty()) p.board = default_board();
  const Board& b = p.board;
  num_bushes_ = static_cast<int>(b.bushes.size());
  num_nodes_ = num_bushes_ + static_cast<int>(b.hiding_places.size());
  if (num_bushes_ < 2 || num_bushes_ > kMaxBushes) fail("ritter: the board needs 2..12 bushes");
  if (b.hiding_places.size() > kMaxHides) fail("ritter: the board has at most 4 hiding places");
  if (num_nodes_ > kMaxNodes) fail("ritter: the board has at most 16 nodes");
  if (num_bushes_ < p.players) fail("ritter: the board needs at least one bush per player");
  names_ = b.bushes;
  names_.insert(names_.end(), b.hiding_places.begin(), b.hiding_places.end());
  for (size_t i = 0; i < names_.size(); ++i) {
    if (!good_name(names_[i])) fail("ritter: node names are 1..8 letters, digits or _, not \"" + names_[i] + "\"");
    for (size_t k = 0; k < i; ++k)
      if (names_[k] == names_[i]) fail("ritter: two nodes are called \"" + names_[i] + "\"");
  }
  for (const auto& [u, v] : b.edges) {
    if (u == v) fail("ritter: an edge joins " + names_[u] + " to itself");
    for (int i = 0; i < degree_[u]; ++i)
      if (adjacent_[u][i] == v) fail("ritter: two edges join " + names_[u] + " and " + names_[v]);
    adjacent_[u][degree_[u]++] = static_cast<uint8_t>(v);
    adjacent_[v][degree_[v]++] = static_cast<uint8_t>(u);
  }
  // Connected: a search from node 0 reaches every node.
  uint32_t reached = 1, frontier = 1;
  while (frontier) {
    uint32_t next = 0;
    for (uint32_t f = frontier; f; f &= f - 1)
      for (int i = 0; i < degree_[__builtin_ctz(f)]; ++i) next |= 1u << adjacent_[__builtin_ctz(f)][i];
    frontier = next & ~reached;
    reached |= next;
  }
  if (reached != (1u << num_nodes_) - 1) fail("ritter: the board is not connected");
  // Adjacency in ascending node order: walks, and so everything, do not depend on the edge order.
  for (int n = 0; n < num_nodes_; ++n) std::sort(adjacent_[n], adjacent_[n] + degree_[n]);
  build_ends_table();

  if (p.stack_size < 1 || p.stack_size > 15) fail("ritter: stack_size must be 1..15");
  if (p.hazelnuts < 0 || p.hazelnuts > 255) fail("ritter: hazelnuts must be 0..255");
  if (p.thieves_per_kind < 0 || p.thieves_per_kind > 60) fail("ritter: thieves_per_kind must be 0..60");
  if (p.hazelnuts + 3 * p.thieves_per_kind != num_bushes_ * p.stack_size)
    fail("ritter: the cards must fill the stacks: hazelnuts + 3 * thieves_per_kind = " +
         std::to_string(p.hazelnuts + 3 * p.thieves_per_kind) +
         ", bushes * stack_size = " + std::to_string(num_bushes_ * p.stack_size));
  if (p.die.empty() || p.die.size() > kMaxFaces) fail("ritter: the die has 1..12 faces");
  for (int f : p.die) {
    if (f < 1 || f > 6) fail("ritter: die faces are 1..6");
    ++face_count_[f];
  }
  for (int k = 1; k <= 6; ++k) num_distinct_faces_ += face_count_[k] > 0;
  const double faces = static_cast<double>(p.die.size());
  for (int k = 1; k <= 6; ++k)
    if (face_count_[k]) roll_outcomes_.push_back({act::kRoll + k, face_count_[k] / faces});
  if (p.delivery_points.empty() || p.delivery_points.size() > 8) fail("ritter: delivery_points has 1..8 entries");
  for (int v : p.delivery_points)
    if (v < 0 || v > 100) fail("ritter: delivery points are 0..100");
  if (p.shout_points < 0 || p.shout_points > 25) fail("ritter: shout_points must be 0..25");
  if (p.score_floor < -25 || p.score_floor > 0) fail("ritter: score_floor must be -25..0");
  if (p.score_target < 1 || p.score_target > 100) fail("ritter: score_target must be 1..100");
  if (p.empty_stacks_to_end < 1 || p.empty_stacks_to_end > num_bushes_)
    fail("ritter: empty_stacks_to_end must be 1..bushes");
  if (p.turn_cap < 1 || p.turn_cap > 60000) fail("ritter: turn_cap must be 1..60000");
}

void Game::build_ends_table() {
  if (num_bushes_ > kTabledBushes) return;  // move_ends walks instead
  ends_table_.assign((size_t{1} << num_bushes_) * num_nodes_ * 7, 0);
  for (uint32_t empty = 0; empty < (1u << num_bushes_); ++empty)
    for (int node = 0; node < num_nodes_; ++node)
      for (int roll = 0; roll <= 6; ++roll) {
        uint32_t ends = 0;
        walk(empty, node, -1, roll, ends);
        ends_table_[(static_cast<size_t>(empty) * num_nodes_ + node) * 7 + roll] = ends;
      }
}

Json Game::params_json() const {
  const Params& p = params_;
  auto ints = [](const std::vector<int>& v) {
    Json a = Json::array();
    for (int x : v) a.push(Json::integer(x));
    return a;
  };
  auto strings = [](const std::vector<std::string>& v) {
    Json a = Json::array();
    for (const auto& x : v) a.push(Json::string(x));
    return a;
  };
  Json j = Json::object();
  j.set("players", Json::integer(p.players));
  Json board = Json::object();
  board.set("bushes", strings(p.board.bushes));
  board.set("hiding_places", strings(p.board.hiding_places));
  Json edges = Json::array();
  for (const auto& [u, v] : p.board.edges) edges.push(strings({names_[u], names_[v]}));
  board.set("edges", edges);
  j.set("board", board);
  j.set("stack_size", Json::integer(p.stack_size));
  j.set("hazelnuts", Json::integer(p.hazelnuts));
  j.set("thieves_per_kind", Json::integer(p.thieves_per_kind));
  j.set("die", ints(p.die));
  j.set("delivery_points", ints(p.delivery_points));
  j.set("shout_points", Json::integer(p.shout_points));
  j.set("score_floor", Json::integer(p.score_floor));
  j.set("score_target", Json::integer(p.score_target));
  j.set("empty_stacks_to_end", Json::integer(p.empty_stacks_to_end));
  j.set("shout_resolution", Json::string(p.first_only ? "first_only" : "separate"));
  j.set("turn_cap", Json::integer(p.turn_cap));
  return j;
}

State Game::new_initial_state() const {
  State s;
  std::memset(&s, 0, sizeof s);
  for (int b = 0; b < kMaxBushes; ++b) {
    s.cards[b] = static_cast<uint8_t>(b < num_bushes_ ? params_.stack_size : 0);
    s.top[b] = kNone;
  }
  for (int p = 0; p < kMaxPlayers; ++p) s.knight[p] = s.shout[p] = kNone;
  s.pool[0] = static_cast<uint8_t>(params_.hazelnuts);
  for (int k = 0; k < kKinds; ++k) s.pool[1 + k] = static_cast<uint8_t>(params_.thieves_per_kind);
  s.num_players = static_cast<uint8_t>(params_.players);
  s.phase = Phase::kPlace;
  s.drawer = s.roll = s.card = kNone;
  run(s);
  return s;
}

std::string Game::action_to_string(Action a) const {
  if (a < 0 || a >= act::kNumDistinct) return "action " + std::to_string(a) + " (out of range)";
  if (a < act::kSilent) return a < num_nodes_ ? "to " + names_[a] : "to node " + std::to_string(a);
  if (a == act::kSilent) return "silent";
  if (a < act::kRoll + 1) return std::string("shout ") + kThiefNames[a - act::kShout];
  if (a < act::kDrawNut) return "roll " + std::to_string(a - act::kRoll);
  if (a < act::kFirstRight) return std::string("draw ") + kCardNames[a - act::kDrawNut];
  if (a < act::kFirstWrong) return "first right: seat " + std::to_string(a - act::kFirstRight);
  if (a < act::kFirstShout) return "first wrong: seat " + std::to_string(a - act::kFirstWrong);
  return "first shout: seat " + std::to_string(a - act::kFirstShout);
}

Observed Game::observe(const State& s, Action a, int player) const {
  const std::string full = action_to_string(a);
  if (s.phase != Phase::kShout && s.phase != Phase::kDraw) return {full, true};  // walks, rolls, first shouters
  const int n = s.num_players, drawer = s.drawer, bush = s.knight[drawer];
  uint8_t shout[kMaxPlayers];
  std::copy(s.shout, s.shout + kMaxPlayers, shout);
  int card = -1;  // 0 hazelnut, 1 + thief kind: the card, where this event resolves it
  Observed out{full, true};
  if (s.phase == Phase::kShout) {
    const int shouter = s.current;
    shout[shouter] = static_cast<uint8_t>(a - act::kSilent);
    if (shouter != player) out = {"a secret shout", false};
    if (next_seat(shouter, n) == drawer) {  // the last shout: the card comes off the stack now
      if (s.top[bush] != kNone) {
        card = 1 + s.top[bush];
      } else {  // a draw with one possible kind is no chance node
        int kinds = 0;
        for (int c = 0; c < 1 + kKinds; ++c)
          if (s.pool[c]) {
            ++kinds;
            card = c;
          }
        if (kinds != 1) return out;  // a chance node draws it
      }
    }
  } else {
    card = a - act::kDrawNut;
  }
  if (card < 0) return out;
  bool shouted = false;
  for (int p = 0; p < n; ++p) shouted |= p != drawer && shout[p] != 0;
  // A hazelnut lies face up and a thief that drew a shout is shown; else only the drawer looks,
  // and whoever had seen that known top knows it.
  const bool known = card == 0 || shouted || player == drawer ||
                     (s.phase == Phase::kShout && s.top[bush] != kNone && (s.seen[bush] >> player & 1));
  if (s.phase == Phase::kDraw)
    out = known ? Observed{full, true} : Observed{"draw a thief", false};
  else
    out.text += std::string("; card: ") + (known ? kCardNames[card] : "a thief");
  out.text += "; shouts:";
  const char* sep = " ";
  for (int p = 0; p < n; ++p) {
    if (p == drawer) continue;
    out.text += sep + std::string("seat ") + std::to_string(p) + " " + kShoutNames[shout[p]];
    if (shout[p] != 0) out.text += shout[p] == card ? " (right)" : " (wrong)";
    sep = ", ";
  }
  return out;
}

Json Game::to_json(const State& s) const {
  const int n = s.num_players;
  auto or_null = [](uint8_t v) { return v == kNone ? Json::null() : Json::integer(v); };
  Json j = Json::object();
  j.set("game", Json::string(kName));
  j.set("players", Json::integer(n));
  j.set("phase", Json::string(kPhaseNames[static_cast<int>(s.phase)]));
  j.set("current_player", Json::integer(current_player(s)));
  j.set("turn", Json::integer(s.turn));
  j.set("drawer", or_null(s.drawer));
  j.set("roll", or_null(s.roll));
  Json knights = Json::array(), scores = Json::array(), carried = Json::array(), shouts = Json::array();
  for (int p = 0; p < n; ++p) {
    knights.push(s.knight[p] == kNone ? Json::null() : Json::string(names_[s.knight[p]]));
    scores.push(Json::integer(s.score[p]));
    carried.push(Json::integer(s.carried[p]));
    shouts.push(s.shout[p] == kNone ? Json::null() : Json::string(kShoutNames[s.shout[p]]));
  }
  j.set("knights", knights);
  j.set("scores", scores);
  j.set("carried", carried);
  Json stacks = Json::array();
  for (int b = 0; b < num_bushes_; ++b) {
    Json stack = Json::object();
    stack.set("bush", Json::string(names_[b]));
    stack.set("cards", Json::integer(s.cards[b]));
    stack.set("top", s.top[b] == kNone ? Json::null() : Json::string(kThiefNames[s.top[b]]));
    Json seen = Json::array();
    for (int p = 0; p < n; ++p)
      if (s.seen[b] >> p & 1) seen.push(Json::integer(p));
    stack.set("seen_by", seen);
    stacks.push(stack);
  }
  j.set("stacks", stacks);
  Json pool = Json::object();
  pool.set("hazelnuts", Json::integer(s.pool[0]));
  for (int k = 0; k < kKinds; ++k) pool.set(kThiefNames[k], Json::integer(s.pool[1 + k]));
  j.set("pool", pool);
  j.set("shouts", shouts);
  j.set("card", s.card == kNone ? Json::null() : Json::string(kCardNames[s.card]));
  return j;
}

// The view keeps to_json's shape: tops the seat has not looked at and others' open shouts are
// "hidden", and the pool (whose thief counts depend on unseen tops) gives way to the public
// counts of cards revealed so far.
Json Game::view_json(const State& s, int player) const {
  const State w = view(s, player);
  const Json full = to_json(s);
  Json j = Json::object();
  j.set("view_of", Json::integer(player));
  for (const auto& [key, value] : full.items("ritter state")) {
    if (key == "stacks") {
      Json stacks = Json::array();
      for (int b = 0; b < num_bushes_; ++b) {
        Json stack = value.as_array("stacks")[b];
        if (w.top[b] == kKinds) stack.set("top", Json::string("hidden"));
        stacks.push(stack);
      }
      j.set(key, stacks);
    } else if (key == "pool") {
      Json revealed = Json::object();
      revealed.set("hazelnuts", Json::integer(params_.hazelnuts - s.pool[0]));
      for (int k = 0; k < kKinds; ++k) revealed.set(kThiefNames[k], Json::integer(removed(s, k)));
      j.set("revealed", revealed);
    } else if (key == "shouts") {
      Json shouts = Json::array();
      for (int p = 0; p < s.num_players; ++p)
        shouts.push(w.shout[p] == kHidden ? Json::string("hidden") : value.as_array("shouts")[p]);
      j.set(key, shouts);
    } else {
      j.set(key, value);
    }
  }
  return j;
}

State Game::from_json(const Json& j) const {
  State s;
  std::memset(&s, 0, sizeof s);
  for (int b = 0; b < kMaxBushes; ++b) s.top[b] = kNone;
  for (int p = 0; p < kMaxPlayers; ++p) s.knight[p] = s.shout[p] = kNone;
  JsonObjectReader r(j, "ritter state");
  if (r.get("game").as_string("game") != kName) fail("game: expected \"ritter\"");
  const int n = json_int_in(r.get("players"), "players", 2, 4);
  if (n != params_.players)
    fail("players: the state has " + std::to_string(n) + " players, the game " + std::to_string(params_.players));
  s.num_players = static_cast<uint8_t>(n);
  s.phase = static_cast<Phase>(name_index(kPhaseNames, kNumPhases, r.get("phase").as_string("phase"), "phase"));
  const int claimed_player = json_int_in(r.get("current_player"), "current_player", -4, n - 1);
  s.turn = static_cast<uint16_t>(json_int_in(r.get("turn"), "turn", 0, params_.turn_cap));
  const Json& drawer = r.get("drawer");
  s.drawer = drawer.is_null() ? kNone : static_cast<uint8_t>(json_int_in(drawer, "drawer", 0, n - 1));
  const Json& roll = r.get("roll");
  s.roll = roll.is_null() ? kNone : static_cast<uint8_t>(json_int_in(roll, "roll", 1, 6));
  auto seat_list = [&](const char* key) -> const std::vector<Json>& {
    const auto& list = r.get(key).as_array(key);
    if (static_cast<int>(list.size()) != n) fail(std::string(key) + ": expected one entry per seat");
    return list;
  };
  auto node_index = [&](const Json& v, const std::string& what, int count) {
    const std::string& name = v.as_string(what);
    for (int i = 0; i < count; ++i)
      if (names_[i] == name) return i;
    fail(what + ": no such node \"" + name + "\"");
  };
  const auto& knights = seat_list("knights");
  for (int p = 0; p < n; ++p)
    if (!knights[p].is_null()) s.knight[p] = static_cast<uint8_t>(node_index(knights[p], "knights", num_nodes_));
  const auto& scores = seat_list("scores");
  for (int p = 0; p < n; ++p)
    s.score[p] = static_cast<int8_t>(json_int_in(scores[p], "scores", params_.score_floor, params_.score_target));
  const auto& carried = seat_list("carried");
  for (int p = 0; p < n; ++p)
    s.carried[p] = static_cast<uint8_t>(json_int_in(carried[p], "carried", 0, params_.hazelnuts));
  const auto& stacks = r.get("stacks").as_array("stacks");
  if (static_cast<int>(stacks.size()) != num_bushes_) fail("stacks: expected one per bush");
  for (int b = 0; b < num_bushes_; ++b) {
    JsonObjectReader st(stacks[b], "stacks[" + std::to_string(b) + "]");
    if (st.get("bush").as_string("bush") != names_[b]) fail("stacks: expected the bushes in node order");
    s.cards[b] = static_cast<uint8_t>(json_int_in(st.get("cards"), "cards", 0, params_.stack_size));
    const Json& top = st.get("top");
    if (!top.is_null()) s.top[b] = static_cast<uint8_t>(name_index(kThiefNames, kKinds, top.as_string("top"), "top"));
    for (const Json& v : st.get("seen_by").as_array("seen_by")) {
      const int p = json_int_in(v, "seen_by", 0, n - 1);
      if (s.seen[b] >> p & 1) fail("seen_by: a seat is listed twice");
      s.seen[b] = static_cast<uint8_t>(s.seen[b] | 1u << p);
    }
    st.finish();
  }
  JsonObjectReader pool(r.get("pool"), "pool");
  s.pool[0] = static_cast<uint8_t>(json_int_in(pool.get("hazelnuts"), "pool hazelnuts", 0, params_.hazelnuts));
  for (int k = 0; k < kKinds; ++k)
    s.pool[1 + k] = static_cast<uint8_t>(json_int_in(pool.get(kThiefNames[k]), "pool", 0, params_.thieves_per_kind));
  pool.finish();
  const auto& shouts = seat_list("shouts");
  for (int p = 0; p < n; ++p)
    if (!shouts[p].is_null())
      s.shout[p] = static_cast<uint8_t>(name_index(kShoutNames, 4, shouts[p].as_string("shouts"), "shouts"));
  const Json& card = r.get("card");
  s.card = card.is_null() ? kNone : static_cast<uint8_t>(name_index(kCardNames, 4, card.as_string("card"), "card"));
  r.finish();
  // The seat to act is stored: the shouter or the placer as given, else the mover (turn mod players).
  if (s.phase == Phase::kShout || s.phase == Phase::kPlace) {
    if (claimed_player < 0)
      fail(std::string("current_player: phase ") + kPhaseNames[static_cast<int>(s.phase)] + " needs a seat");
    s.current = static_cast<uint8_t>(claimed_player);
  } else if (s.phase != Phase::kTerminal) {
    s.current = static_cast<uint8_t>(s.turn % n);
  }
  validate(s);
  if (claimed_player != current_player(s)) fail("current_player does not match the phase");
  run(s);
  return s;
}

void Game::validate(const State& s) const {
  const int n = s.num_players;
  require_players(s);  // require() and this: core/game_defaults.h
  require(static_cast<int>(s.phase) < kNumPhases, "bad phase");
  const Phase ph = s.phase;
  require(s.turn <= params_.turn_cap && (s.turn < params_.turn_cap || ph == Phase::kTerminal),
          "turn counter past the cap");
  require(s.current < n, "current seat out of range");
  int tops[kKinds] = {}, known_tops = 0, cards = 0, empty = 0;
  for (int b = 0; b < kMaxBushes; ++b) {
    if (b >= num_bushes_) {
      require(s.cards[b] == 0 && s.top[b] == kNone && s.seen[b] == 0, "a stack on a bush that does not exist");
      continue;
    }
    require(s.cards[b] <= params_.stack_size, "a stack is higher than stack_size");
    require(s.top[b] == kNone || s.top[b] < kKinds, "bad top card");
    require((s.top[b] == kNone) == (s.seen[b] == 0),
            "a known top needs the seats that saw it, and only a known top has them");
    require((s.seen[b] >> n) == 0, "a seat that does not play has seen a card");
    require(s.top[b] == kNone || s.cards[b] >= 1, "a known top on an empty stack");
    if (s.top[b] != kNone) {
      ++tops[s.top[b]];
      ++known_tops;
    }
    cards += s.cards[b];
    empty += s.cards[b] == 0;
  }
  require(s.pool[0] <= params_.hazelnuts, "more hazelnuts undrawn than exist");
  for (int k = 0; k < kKinds; ++k)
    require(s.pool[1 + k] + tops[k] <= params_.thieves_per_kind, "more thieves than exist");
  const int pool_total = s.pool[0] + s.pool[1] + s.pool[2] + s.pool[3];
  require(cards == pool_total + known_tops, "stack heights do not add up to the undrawn cards and the known tops");
  int carried = 0;
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (p >= n) {
      require(s.knight[p] == kNone && s.score[p] == 0 && s.carried[p] == 0 && s.shout[p] == kNone,
              "a seat that does not play is used");
      continue;
    }
    require(s.score[p] >= params_.score_floor && s.score[p] <= params_.score_target, "score off the track");
    // A right shout reaching the target ends the game once the shouts are resolved: only a
    // first_wrong chance node may still come between.
    require(ph == Phase::kTerminal || s.score[p] < params_.score_target ||
                (ph == Phase::kFirstWrong && s.shout[p] == s.card),
            "a score at the target ends the game");
    require(s.knight[p] == kNone || s.knight[p] < num_nodes_, "knight off the board");
    require(s.shout[p] == kNone || s.shout[p] <= kKinds, "bad shout");
    carried += s.carried[p];
  }
  const bool in_hand =
      (ph == Phase::kFirstRight || ph == Phase::kFirstWrong || ph == Phase::kFirstShout) && s.card == 0;
  require(carried + (in_hand ? 1 : 0) <= params_.hazelnuts - s.pool[0], "more hazelnuts carried than drawn");
  const bool drawing = ph == Phase::kShout || ph == Phase::kDraw || ph == Phase::kFirstRight ||
                       ph == Phase::kFirstWrong || ph == Phase::kFirstShout;
  const bool resolving = ph == Phase::kFirstRight || ph == Phase::kFirstWrong || ph == Phase::kFirstShout;
  require(drawing ? s.drawer < n : s.drawer == kNone, "drawer set exactly while a card is drawn");
  require(ph == Phase::kMove ? (s.roll <= 6 && face_count_[s.roll] > 0) : s.roll == kNone,
          "roll set exactly in phase move, to a face of the die");
  require(resolving ? s.card <= kKinds : s.card == kNone, "card set exactly while it is resolved");
  if (ph == Phase::kPlace) {
    require(s.turn == 0 && cards == num_bushes_ * params_.stack_size && pool_total == cards,
            "setup: nothing drawn yet");
    for (int p = 0; p < n; ++p) {
      require(s.score[p] == 0 && s.carried[p] == 0 && s.shout[p] == kNone, "setup: no scores, hazelnuts or shouts");
      require(p < s.current ? s.knight[p] < num_bushes_ : s.knight[p] == kNone,
              "setup: the seats before the one to place stand on bushes, no others");
      for (int q = 0; q < p; ++q)
        require(p >= s.current || s.knight[q] != s.knight[p], "setup: two knights on one bush");
    }
    return;
  }
  for (int p = 0; p < n; ++p) require(s.knight[p] != kNone, "a knight is not placed after setup");
  if (ph == Phase::kTerminal) {
    require(s.current == 0, "a finished game has nobody to move (current seat must be 0)");
    for (int p = 0; p < n; ++p) require(s.shout[p] == kNone, "shouts in a finished game");
    bool target = false;
    for (int p = 0; p < n; ++p) target |= s.score[p] == params_.score_target;
    require(target || empty >= params_.empty_stacks_to_end || s.turn == params_.turn_cap,
            "the game is over for no reason");
    return;
  }
  const int mover = s.turn % n;
  if (!drawing) {
    require(s.current == mover, "the mover is seat turn mod players");
    require(empty < params_.empty_stacks_to_end, "enough stacks are empty: the game is over");
    for (int p = 0; p < n; ++p) require(s.shout[p] == kNone, "shouts outside the shouting phases");
    return;
  }
  require(s.drawer == mover, "the drawer is seat turn mod players");
  const int bush = s.knight[s.drawer];
  require(bush < num_bushes_, "the drawer stands on a bush");
  require(s.shout[s.drawer] == kNone, "the drawer does not shout");
  if (ph == Phase::kShout) {
    require(s.current != s.drawer, "the drawer does not shout");
    require(s.cards[bush] >= 1 && empty < params_.empty_stacks_to_end, "shouting at an empty stack");
    // Seats from drawer + 1 up to (not including) the shouter have shouted; the rest not yet.
    for (int i = 1; i < n; ++i) {
      const int p = (s.drawer + i) % n;
      const bool before = ((p - s.drawer + n) % n) < ((s.current - s.drawer + n) % n);
      require(before ? s.shout[p] != kNone : s.shout[p] == kNone, "shouts out of seat order");
    }
    return;
  }
  require(s.current == s.drawer, "at the card's chance nodes the drawer is recorded");
  for (int i = 1; i < n; ++i) require(s.shout[(s.drawer + i) % n] != kNone, "a shout is missing");
  if (ph == Phase::kDraw) {
    require(s.cards[bush] >= 1 && s.top[bush] == kNone && pool_total >= 1,
            "draw: an undrawn card on top of the drawer's stack");
    require(empty < params_.empty_stacks_to_end, "enough stacks are empty: the game is over");
    return;
  }
  // The card is out and being resolved: the candidates for the chance node must be at least two.
  require(params_.first_only == (ph == Phase::kFirstShout), "this chance node belongs to the other shout_resolution");
  const Shouts x = shouts(s);
  const uint32_t candidates = ph == Phase::kFirstRight   ? x.right
                              : ph == Phase::kFirstWrong ? x.wrong
                                                         : x.right | x.wrong;
  require(popcount(candidates) >= 2, "a first-shouter chance node needs two candidates");
}

State Game::deserialize(const std::string& bytes) const {
  State s = state_from_bytes<State>(bytes, kGameTag, kFormatVersion, params_.players);
  // Only phases with a defined byte layout: validate() reads the phase first.
  validate(s);
  run(s);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Information.

int Game::observation_tensor_size() const {
  const int n = params_.players, b = num_bushes_, v = num_nodes_;
  return 23 + 11 * n + 5 * b + n * v + n * b;
}

void Game::observation_tensor(const State& s, int player, float* out) const {
  const State w = view(s, player);
  const int n = s.num_players, nb = num_bushes_, nv = num_nodes_;
  std::fill(out, out + observation_tensor_size(), 0.0f);
  float* o = out;
  auto ratio = [](int a, int b) { return static_cast<float>(static_cast<double>(a) / b); };
  o[player] = 1;
  o += n;
  if (!is_chance(s) && !is_terminal(s)) o[s.current] = 1;
  o += n;
  o[static_cast<int>(s.phase)] = 1;
  o += kNumPhases;
  if (s.phase == Phase::kMove) o[s.roll - 1] = 1;
  o += 6;
  if (s.drawer != kNone) o[s.drawer] = 1;
  o += n;
  for (int p = 0; p < n; ++p)
    if (s.knight[p] != kNone) o[p * nv + s.knight[p]] = 1;
  o += n * nv;
  for (int p = 0; p < n; ++p) o[p] = ratio(s.score[p], params_.score_target);
  o += n;
  for (int p = 0; p < n; ++p) o[p] = ratio(s.carried[p], 4);
  o += n;
  for (int b = 0; b < nb; ++b) o[b] = ratio(s.cards[b], params_.stack_size);
  o += nb;
  for (int b = 0; b < nb; ++b) o[b] = s.top[b] != kNone;
  o += nb;
  for (int b = 0; b < nb; ++b)
    if (w.top[b] < kKinds) o[3 * b + w.top[b]] = 1;
  o += 3 * nb;
  for (int b = 0; b < nb; ++b)
    for (int p = 0; p < n; ++p) o[b * n + p] = s.seen[b] >> p & 1;
  o += n * nb;
  o[0] = ratio(params_.hazelnuts - s.pool[0], std::max(1, params_.hazelnuts));
  for (int k = 0; k < kKinds; ++k) o[1 + k] = ratio(removed(s, k), std::max(1, params_.thieves_per_kind));
  o += 4;
  for (int p = 0; p < n; ++p) {
    const int x = w.shout[p];  // kNone, kHidden, or 0..3 (silent, Max, Leo, Fritz)
    o[6 * p + (x == kNone ? 0 : x == kHidden ? 1 : 2 + x)] = 1;
  }
  o += 6 * n;
  if (s.card != kNone) o[s.card] = 1;
}

std::string Game::information_string(const State& s, int player) const { return seat_string(s, player, true); }
std::string Game::to_string(const State& s) const { return full_string(s, true); }

Json Game::unaided_json(const State& s, int player) const {
  Json j = player < 0 ? to_json(s) : view_json(s, player);
  Json stacks = Json::array();
  for (Json stack : j.find("stacks")->as_array("stacks")) {
    stack.set("top", Json::null());
    stack.set("seen_by", Json::array());
    stacks.push(stack);
  }
  j.set("stacks", stacks);
  return j;
}

std::string Game::unaided_string(const State& s, int player) const {
  return player < 0 ? full_string(s, false) : seat_string(s, player, false);
}

std::string Game::seat_string(const State& s, int player, bool memory) const {
  const State w = view(s, player);
  const int n = s.num_players;
  std::ostringstream o;
  o << "view of seat " << player << "\n";
  const std::string turn = "turn " + std::to_string(s.turn) + ": ";
  switch (s.phase) {
    case Phase::kPlace:
      o << "setup: seat " << int(s.current) << " places";
      break;
    case Phase::kRoll:
      o << turn << "seat " << int(s.current) << " rolls";
      break;
    case Phase::kMove:
      o << turn << "seat " << int(s.current) << " moves " << int(s.roll);
      break;
    case Phase::kShout:
      o << turn << "seat " << int(s.drawer) << " draws at " << names_[s.knight[s.drawer]] << "; seat " << int(s.current)
        << " shouts";
      break;
    case Phase::kDraw:
      o << turn << "seat " << int(s.drawer) << " draws at " << names_[s.knight[s.drawer]];
      break;
    case Phase::kTerminal:
      o << turn << "game over";
      break;
    default:
      o << turn << "seat " << int(s.drawer) << " drew " << kCardNames[s.card] << " at " << names_[s.knight[s.drawer]];
  }
  o << "\nknights:";
  for (int p = 0; p < n; ++p) o << " " << (s.knight[p] == kNone ? std::string("-") : names_[s.knight[p]]);
  o << "\nscores:";
  for (int p = 0; p < n; ++p) o << " " << int(s.score[p]);
  o << "\ncarried:";
  for (int p = 0; p < n; ++p) o << " " << int(s.carried[p]);
  o << "\nstacks:";
  for (int b = 0; b < num_bushes_; ++b) {
    o << (b ? ", " : " ") << names_[b] << " " << int(s.cards[b]);
    if (s.top[b] == kNone || !memory) continue;
    o << " top " << (w.top[b] < kKinds ? kThiefNames[w.top[b]] : "?") << " seen ";
    for (int p = 0; p < n; ++p)
      if (s.seen[b] >> p & 1) o << p;
  }
  o << "\nrevealed: hazelnuts " << params_.hazelnuts - s.pool[0];
  for (int k = 0; k < kKinds; ++k) o << ", " << kThiefNames[k] << " " << removed(s, k);
  o << "\nshouts:";
  for (int p = 0; p < n; ++p) {
    const int x = w.shout[p];
    o << " " << (x == kNone ? "-" : x == kHidden ? "?" : kShoutNames[x]);
  }
  return o.str();
}

std::string Game::full_string(const State& s, bool memory) const {
  const int n = s.num_players;
  std::ostringstream o;
  o << "Die Ritter von der Haselnuss, " << n << " players, turn " << s.turn << ", phase "
    << kPhaseNames[static_cast<int>(s.phase)];
  const int cp = current_player(s);
  o << (cp >= 0 ? ", seat " + std::to_string(cp) + " to act" : cp == kChancePlayer ? ", chance" : ", game over");
  if (s.phase == Phase::kMove) o << ", rolled " << int(s.roll);
  if (s.drawer != kNone) o << ", seat " << int(s.drawer) << " draws at " << names_[s.knight[s.drawer]];
  if (s.card != kNone) o << ", the card is " << kCardNames[s.card];
  o << "\n";
  for (int p = 0; p < n; ++p) {
    o << "  seat " << p << ": knight " << (s.knight[p] == kNone ? std::string("-") : names_[s.knight[p]]) << ", score "
      << int(s.score[p]) << ", carrying " << int(s.carried[p]) << " hazelnut" << (s.carried[p] == 1 ? "" : "s");
    if (s.shout[p] != kNone) o << ", shouted " << kShoutNames[s.shout[p]];
    o << "\n";
  }
  o << "  stacks:";
  for (int b = 0; b < num_bushes_; ++b) {
    o << " " << names_[b] << ":" << int(s.cards[b]);
    if (s.top[b] != kNone && memory) {
      o << "(" << kThiefNames[s.top[b]] << " seen by ";
      for (int p = 0; p < n; ++p)
        if (s.seen[b] >> p & 1) o << p;
      o << ")";
    }
  }
  o << "\n  undrawn: " << int(s.pool[0]) << " hazelnuts, " << int(s.pool[1]) << " Max, " << int(s.pool[2]) << " Leo, "
    << int(s.pool[3]) << " Fritz\n";
  o << "  hiding places:";
  for (int h = num_bushes_; h < num_nodes_; ++h) o << " " << names_[h];
  o << "\n";
  return o.str();
}

}  // namespace nutcore::ritter
