// The information-set functions of a game of perfect information, where every seat sees the whole
// state: its information set is the state itself. A game inherits them (CRTP) to fit the concept.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "core/json.h"
#include "core/rng.h"

namespace nutcore {

// A trivially copyable value's bytes hashed 8 at a time (multiply and fold, FNV-1a style over
// 64-bit words; the tail byte by byte), then a splitmix64 finaliser. Hot: the information-set
// searches key every tree decision by it (a state of hundreds of bytes).
template <typename T>
uint64_t hash_bytes(const T& value, uint64_t salt = 0) {
  uint64_t h = 0xcbf29ce484222325ULL ^ salt;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
  size_t i = 0;
  for (; i + 8 <= sizeof(T); i += 8) {
    uint64_t word;
    std::memcpy(&word, bytes + i, 8);
    h = (h ^ word) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
  }
  for (; i < sizeof(T); ++i) h = (h ^ bytes[i]) * 0x100000001b3ULL;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

template <typename Game, typename State>
struct PerfectInformation {
  uint64_t information_key(const State& s, int) const { return hash_bytes(s); }
  std::string information_string(const State& s, int) const { return static_cast<const Game*>(this)->to_string(s); }
  // The observation is the whole state: one float per byte of its layout. A start for a new game
  // only: a network learns little from packed bytes, so a game hides these with its own decoding.
  static int observation_tensor_size() { return static_cast<int>(sizeof(State)); }
  void observation_tensor(const State& s, int, float* out) const {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&s);
    for (size_t i = 0; i < sizeof(State); ++i) out[i] = bytes[i];
  }
  State resample(const State& s, int, Rng&) const { return s; }
  Json view_json(const State& s, int) const { return static_cast<const Game*>(this)->to_json(s); }
};

}  // namespace nutcore
