// libFuzzer targets for the loaders and the hot rules of every game (docs/reliability.md).
// Built and run by .ci/fuzz: clang++ -fsanitize=fuzzer,address,undefined, linked with the rules
// sources only (cpp/core/json.cc, cpp/games/*/*.cc).
//
// One binary; the target is chosen by NUTCORE_FUZZ_TARGET = GAME_KIND with GAME one of
// auf_die_nuesse, purzelbaum, ritter, nutz and KIND one of
//   bytes    game.deserialize(input)
//   json     game.from_json(Json::parse(input))
//   actions  from new_initial_state(), 2 input bytes per step choose among the legal actions or
//            chance outcomes (index modulo their number); once the input is used up, the game is
//            played to its end by a generator seeded from the input
// The first input byte picks the game: the player count (2 + byte % 3) and the turn cap (byte / 3
// % 4: the default, or 1, 9 or 25 turns, so that games stopped by the cap are fuzzed too); the
// rest is the input proper. Ritter alternates its two shouting rules with the byte's parity.
// Every state checked also has each seat's view checked: a state resampled from it is valid and
// gives that seat the same information key and text.
//
// Inputs may be rejected only by std::invalid_argument. Whatever loads, and every state reached
// by play, must be valid (validate), round-trip through bytes and JSON text to an equal state with
// identical encodings, offer >= 2 actions at a decision and probabilities summing to 1 at chance,
// and reach the end within kMaxSteps. A load may differ from the position fed only where that
// stood at a forced decision (< 2 legal actions) or a single-outcome chance node, which loading
// applies. Anything else aborts,
// and libFuzzer reports it with the input.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/json.h"
#include "games/auf_die_nuesse/auf_die_nuesse.h"
#include "games/purzelbaum/purzelbaum.h"
#include "games/nutz/nutz.h"
#include "games/ritter/ritter.h"

namespace {

using namespace nutcore;

constexpr long kMaxSteps = 100000;  // far more than any game lasts (turn caps 400 and 200)

[[noreturn]] void bug(const std::string& what) {
  std::fprintf(stderr, "\nnutcore fuzz: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}
#define FUZZ_CHECK(cond)                                                              \
  do {                                                                                \
    if (!(cond)) bug(std::string("check failed: ") + #cond + " at line " + std::to_string(__LINE__)); \
  } while (0)

struct Input {
  const uint8_t* data;
  size_t size;
  bool empty() const { return size == 0; }
  unsigned u16() {  // little-endian; a lone last byte counts as the low byte
    unsigned v = data[0];
    if (size >= 2) v |= unsigned(data[1]) << 8;
    const size_t used = size >= 2 ? 2 : 1;
    data += used;
    size -= used;
    return v;
  }
};

uint64_t hash_bytes(const uint8_t* data, size_t size) {  // FNV-1a
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ULL;
  return h;
}

// Everything a valid state at rest must satisfy (valid, as deserialize() checks), but the JSON
// round trip (check_state). Any exception here is a bug too.
template <class G>
void check_cheap(const G& game, const typename G::StateType& s) {
  try {
    const std::string bytes = game.serialize(s);  // deserialize() validates
    const auto from_bytes = game.deserialize(bytes);
    FUZZ_CHECK(from_bytes == s);
    FUZZ_CHECK(game.serialize(from_bytes) == bytes);
  } catch (const std::exception& e) {
    bug(std::string("a state at rest is invalid or does not round-trip through bytes: ") + e.what() + "\n" +
        game.to_string(s));
  }
  // Every seat's view: a resampled state is valid and gives the seat the same information set.
  Rng rng(hash_bytes(reinterpret_cast<const uint8_t*>(&s), sizeof s));
  std::vector<float> tensor(static_cast<size_t>(game.observation_tensor_size()));
  for (int p = 0; p < game.num_players(); ++p) {
    const auto sample = game.resample(s, p, rng);
    FUZZ_CHECK(game.information_key(sample, p) == game.information_key(s, p));
    FUZZ_CHECK(game.information_string(sample, p) == game.information_string(s, p));
    try {
      game.deserialize(game.serialize(sample));
    } catch (const std::exception& e) {
      bug(std::string("a resampled state is invalid: ") + e.what() + "\n" + game.to_string(sample));
    }
    game.observation_tensor(s, p, tensor.data());
  }
  const int player = game.current_player(s);
  typename G::Actions legal;
  typename G::Chances chances;
  game.legal_actions(s, legal);
  game.chance_outcomes(s, chances);
  if (game.is_terminal(s)) {
    FUZZ_CHECK(player == kTerminalPlayer && legal.empty() && chances.empty());
  } else if (game.is_chance(s)) {
    FUZZ_CHECK(player == kChancePlayer && legal.empty() && !chances.empty());
    double sum = 0;
    for (int i = 0; i < chances.size(); ++i) {
      FUZZ_CHECK(chances[i].action >= 0 && chances[i].action < G::kNumDistinctActions);
      FUZZ_CHECK(i == 0 || chances[i - 1].action < chances[i].action);
      FUZZ_CHECK(chances[i].probability > 0 && chances[i].probability <= 1);
      sum += chances[i].probability;
    }
    FUZZ_CHECK(std::abs(sum - 1) < 1e-9);
  } else {
    FUZZ_CHECK(player >= 0 && player < game.num_players() && chances.empty());
    FUZZ_CHECK(legal.size() >= 2);  // forced decisions are applied, never left standing
    for (int i = 0; i < legal.size(); ++i) {
      FUZZ_CHECK(legal[i] >= 0 && legal[i] < G::kNumDistinctActions);
      FUZZ_CHECK(i == 0 || legal[i - 1] < legal[i]);
    }
  }
}

// check_cheap, and the round trip through JSON text to an equal state and identical text.
template <class G>
void check_state(const G& game, const typename G::StateType& s) {
  check_cheap(game, s);
  try {
    const std::string text = game.to_json(s).dump();
    const auto from_json = game.from_json(Json::parse(text));
    FUZZ_CHECK(from_json == s);
    FUZZ_CHECK(game.to_json(from_json).dump() == text);
  } catch (const std::exception& e) {
    bug(std::string("a state at rest does not round-trip through JSON: ") + e.what() + "\n" + game.to_string(s));
  }
}

// One step chosen by `choice` (index modulo the number of options); chance by index, not by
// probability, so that rare outcomes are as easy to reach as common ones.
template <class G>
void step(const G& game, typename G::StateType& s, unsigned choice) {
  if (game.is_chance(s)) {
    typename G::Chances chances;
    game.chance_outcomes(s, chances);
    game.apply(s, chances[static_cast<int>(choice % chances.size())].action);
  } else {
    typename G::Actions legal;
    game.legal_actions(s, legal);
    game.apply(s, legal[static_cast<int>(choice % legal.size())]);
  }
}

// Plays to the end. Steps the input chooses are checked (check_cheap), fully (check_state) where
// the input runs out; after that, every 16th step and the end. Validation is the slow part (it
// is the cold path): checking every step of every run would cost 10x the executions, and over
// many runs of different lengths the checks still meet every kind of position.
template <class G>
void play_to_end(const G& game, typename G::StateType s, Input in, uint64_t seed) {
  Rng rng(seed);
  for (long steps = 0; !game.is_terminal(s); ++steps) {
    if (steps >= kMaxSteps) bug("the game did not end within kMaxSteps\n" + game.to_string(s));
    const bool driven = !in.empty();
    step(game, s, driven ? in.u16() : static_cast<unsigned>(rng.next() >> 40));
    if (driven && in.empty()) check_state(game, s);
    else if (driven || steps % 16 == 0) check_cheap(game, s);
  }
  check_state(game, s);
}

// What a successful load of bytes must be: the position fed (`fed`), or, if that stood at a forced
// decision, what the forced move makes of it.
template <class G>
void check_load(const G& game, const typename G::StateType& fed, const typename G::StateType& loaded) {
  check_state(game, loaded);
  if (loaded == fed) return;
  FUZZ_CHECK(!game.is_terminal(fed));
  if (game.is_chance(fed)) {  // a chance node with a single outcome is resolved at once
    typename G::Chances chances;
    game.chance_outcomes(fed, chances);
    FUZZ_CHECK(chances.size() == 1);
    auto resolved = fed;
    game.apply(resolved, chances[0].action);
    FUZZ_CHECK(resolved == loaded);
    return;
  }
  typename G::Actions legal;
  game.legal_actions(fed, legal);
  FUZZ_CHECK(legal.size() < 2);
  if (legal.size() == 1) {
    auto forced = fed;
    game.apply(forced, legal[0]);
    FUZZ_CHECK(forced == loaded);
  }
}

template <class G>
void fuzz_bytes(const G& game, const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  typename G::StateType loaded;
  try {
    loaded = game.deserialize(bytes);
  } catch (const std::invalid_argument&) {
    return;
  }
  // The position as fed: the bytes after the header, which deserialize validated.
  typename G::StateType fed;
  FUZZ_CHECK(size == 8 + sizeof fed);
  std::memcpy(&fed, data + 8, sizeof fed);
  check_load(game, fed, loaded);
  if (loaded == fed) FUZZ_CHECK(game.serialize(loaded) == bytes);
  play_to_end(game, loaded, Input{nullptr, 0}, hash_bytes(data, size));
}

template <class G>
void fuzz_json(const G& game, const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  typename G::StateType loaded;
  Json j;
  try {
    j = Json::parse(text);
  } catch (const std::invalid_argument&) {
    return;
  }
  try {  // the writer's output reads back as the same value
    const std::string dumped = j.dump();
    FUZZ_CHECK(Json::parse(dumped).dump() == dumped);
  } catch (const std::invalid_argument& e) {
    bug(std::string("Json::dump wrote what Json::parse rejects: ") + e.what());
  }
  try {
    loaded = game.from_json(j);
  } catch (const std::invalid_argument&) {
    return;
  }
  // The position as fed is not visible from outside from_json (it validates, then applies forced
  // moves); what loaded must be at rest and agree with the bytes path (check_state).
  check_state(game, loaded);
  play_to_end(game, loaded, Input{nullptr, 0}, hash_bytes(data, size));
}

template <class G>
void fuzz_actions(const G& game, const uint8_t* data, size_t size) {
  const auto s = game.new_initial_state();
  check_state(game, s);
  play_to_end(game, s, Input{data, size}, hash_bytes(data, size));
}

// ---------------------------------------------------------------------------------------------
// Games and target selection.

constexpr int kCaps[] = {0, 1, 9, 25};  // turn caps; 0: the game's default
constexpr int kNumVariants = 3 * 4;     // player counts x turn caps
std::unique_ptr<adn::Game> g_adn[kNumVariants];
std::unique_ptr<purzel::Game> g_purzel[kNumVariants];
void (*g_target)(int variant, const uint8_t* data, size_t size) = nullptr;

void load_purzelbaum() {
  for (int v = 0; v < kNumVariants; ++v) {
    purzel::Params p;
    p.players = 2 + v % 3;
    if (kCaps[v / 3]) p.turn_cap = kCaps[v / 3];
    g_purzel[v] = std::make_unique<purzel::Game>(p);
  }
}

void load_adn() {
  for (int v = 0; v < kNumVariants; ++v) {
    adn::Params p;
    p.players = 2 + v % 3;
    if (kCaps[v / 3]) p.turn_cap = kCaps[v / 3];
    g_adn[v] = std::make_unique<adn::Game>(p);
  }
}

std::unique_ptr<ritter::Game> g_ritter[kNumVariants];

void load_ritter() {
  for (int v = 0; v < kNumVariants; ++v) {
    ritter::Params p;
    p.players = 2 + v % 3;
    if (kCaps[v / 3]) p.turn_cap = kCaps[v / 3];
    p.first_only = v % 2;  // both shouting rules
    g_ritter[v] = std::make_unique<ritter::Game>(p);
  }
}

std::unique_ptr<nutz::Game> g_nutz[kNumVariants];

void load_nutz() {
  for (int v = 0; v < kNumVariants; ++v) {
    nutz::Params p;
    p.players = 2 + v % 3;
    if (kCaps[v / 3]) p.turn_cap = kCaps[v / 3];
    p.last_tree_tokens = 1 + v % 4;  // short games too
    g_nutz[v] = std::make_unique<nutz::Game>(p);
  }
}

struct Target {
  const char* name;
  void (*fn)(int, const uint8_t*, size_t);
  void (*load)();
};

const Target kTargets[] = {
    {"auf_die_nuesse_bytes", [](int v, const uint8_t* d, size_t n) { fuzz_bytes(*g_adn[v], d, n); }, load_adn},
    {"auf_die_nuesse_json", [](int v, const uint8_t* d, size_t n) { fuzz_json(*g_adn[v], d, n); }, load_adn},
    {"auf_die_nuesse_actions", [](int v, const uint8_t* d, size_t n) { fuzz_actions(*g_adn[v], d, n); }, load_adn},
    {"purzelbaum_bytes", [](int v, const uint8_t* d, size_t n) { fuzz_bytes(*g_purzel[v], d, n); }, load_purzelbaum},
    {"purzelbaum_json", [](int v, const uint8_t* d, size_t n) { fuzz_json(*g_purzel[v], d, n); }, load_purzelbaum},
    {"purzelbaum_actions", [](int v, const uint8_t* d, size_t n) { fuzz_actions(*g_purzel[v], d, n); }, load_purzelbaum},
    {"ritter_bytes", [](int v, const uint8_t* d, size_t n) { fuzz_bytes(*g_ritter[v], d, n); }, load_ritter},
    {"ritter_json", [](int v, const uint8_t* d, size_t n) { fuzz_json(*g_ritter[v], d, n); }, load_ritter},
    {"ritter_actions", [](int v, const uint8_t* d, size_t n) { fuzz_actions(*g_ritter[v], d, n); }, load_ritter},
    {"nutz_bytes", [](int v, const uint8_t* d, size_t n) { fuzz_bytes(*g_nutz[v], d, n); }, load_nutz},
    {"nutz_json", [](int v, const uint8_t* d, size_t n) { fuzz_json(*g_nutz[v], d, n); }, load_nutz},
    {"nutz_actions", [](int v, const uint8_t* d, size_t n) { fuzz_actions(*g_nutz[v], d, n); }, load_nutz},
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* name = std::getenv("NUTCORE_FUZZ_TARGET");
  std::string names;
  for (const Target& t : kTargets) {
    names += std::string(" ") + t.name;
    if (name && std::strcmp(name, t.name) == 0) {
      g_target = t.fn;
      try {
        t.load();
      } catch (const std::exception& e) {
        bug(std::string("cannot load the games: ") + e.what());
      }
    }
  }
  if (!g_target) bug("set NUTCORE_FUZZ_TARGET to one of:" + names);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  g_target(data[0] % kNumVariants, data + 1, size - 1);
  return 0;
}
