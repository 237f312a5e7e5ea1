// The information-set functions of a game of perfect information, where every seat sees the whole
// state: its information set is the state itself. A game inherits them (CRTP) to fit the concept.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "core/json.h"
#include "core/rng.h"

namespace nutcore {

// 64-bit FNV-1a over a trivially copyable value's bytes, then a splitmix64 finaliser.
template <typename T>
uint64_t hash_bytes(const T& value, uint64_t salt = 0) {
  uint64_t h = 0xcbf29ce484222325ULL ^ salt;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
  for (size_t i = 0; i < sizeof(T); ++i) h = (h ^ bytes[i]) * 0x100000001b3ULL;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

template <typename Game, typename State>
struct PerfectInformation {
  uint64_t information_key(const State& s, int) const { return hash_bytes(s); }
  std::string information_string(const State& s, int) const { return static_cast<const Game*>(this)->to_string(s); }
  // The observation is the whole state: one float per byte of its layout (documented per game).
  static int observation_tensor_size() { return static_cast<int>(sizeof(State)); }
  void observation_tensor(const State& s, int, float* out) const {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&s);
    for (size_t i = 0; i < sizeof(State); ++i) out[i] = bytes[i];
  }
  State resample(const State& s, int, Rng&) const { return s; }
  Json view_json(const State& s, int) const { return static_cast<const Game*>(this)->to_json(s); }
};

}  // namespace nutcore
