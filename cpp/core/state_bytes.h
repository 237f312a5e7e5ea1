// The binary form shared by every game's serialize(): an 8-byte header ("NUTC", game tag, format
// version, player count, state size) followed by the trivially copyable state itself. Reading
// checks the header only; the game then validates the state before it is used.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace nutcore {

inline constexpr char kStateMagic[4] = {'N', 'U', 'T', 'C'};
inline constexpr size_t kStateHeader = 8;

template <typename State>
std::string state_to_bytes(const State& s, uint8_t game_tag, uint8_t version, int players) {
  static_assert(std::is_trivially_copyable_v<State> && sizeof(State) < 256);
  std::string out(kStateHeader + sizeof(State), '\0');
  std::memcpy(&out[0], kStateMagic, 4);
  out[4] = static_cast<char>(game_tag);
  out[5] = static_cast<char>(version);
  out[6] = static_cast<char>(players);
  out[7] = static_cast<char>(sizeof(State));
  std::memcpy(&out[kStateHeader], &s, sizeof(State));
  return out;
}

// Throws std::invalid_argument for anything but this game's, version's and player count's bytes.
template <typename State>
State state_from_bytes(const std::string& bytes, uint8_t game_tag, uint8_t version, int players) {
  auto fail = [](const char* why) { throw std::invalid_argument(why); };
  if (bytes.size() < kStateHeader || std::memcmp(bytes.data(), kStateMagic, 4) != 0)
    fail("not a serialized nutcore state");
  if (static_cast<uint8_t>(bytes[4]) != game_tag) fail("serialized state belongs to another game");
  if (static_cast<uint8_t>(bytes[5]) != version) fail("serialized state has an unknown format version");
  if (static_cast<uint8_t>(bytes[6]) != players) fail("serialized state is for another player count");
  if (static_cast<uint8_t>(bytes[7]) != sizeof(State) || bytes.size() != kStateHeader + sizeof(State))
    fail("serialized state has the wrong length (truncated or padded)");
  State s;
  std::memcpy(&s, bytes.data() + kStateHeader, sizeof(State));
  return s;
}

}  // namespace nutcore
