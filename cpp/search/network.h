// A small multilayer perceptron that values a seat's observation and weighs its moves: the learned
// evaluation of the tree searches (search/evaluation.h), trained by self-play in Python
// (nutcore.learn) and read here from its file. No dependency: plain loops over float32.
//
//   x = observation * input_scale                     (per feature; zeros stay zeros)
//   h = relu(x W_k + b_k), for each hidden layer k     W_k stored [in][out]
//   values = softmax(h W_v + b_v)                      each seat's share of the win; W_v [h][P]
//   logits = h W_p + b_p, of the moves asked for       W_p stored [A][h], a row per move
//
// The file (docs/learning.md), little-endian:
//   8 bytes   "NUTCNET\n"
//   u32       format version (kNetworkFormat)
//   u32       n, then n bytes of JSON: {"game", "players", "observation_size", "num_actions",
//             "hidden": [sizes], "dtype": "float16" | "float32", "about": {...}} ("about": free
//             text of the trainer's: the command, commit and date that made it)
//   the parameters in the order above (input_scale [O]; per layer W, b; W_v, b_v; W_p, b_p), each
//   a float16 or float32, and nothing after them.
// Every bound is checked on load (std::invalid_argument names the problem): a file is data.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/types.h"

namespace nutcore {

constexpr uint32_t kNetworkFormat = 1;

// What from_bytes accepts, written only here: nutcore train checks a network's sizes against these
// (through nutcore._core.network_limits()) before it trains one, so that what it writes loads.
// Far above the networks trained here; they bound what a file can make this allocate.
constexpr int kNetworkMaxPlayers = 16;
constexpr int kNetworkMaxInputs = 1 << 20;   // observation_size
constexpr int kNetworkMaxActions = 1 << 20;  // num_actions
constexpr int kNetworkMaxLayers = 16;        // hidden layers (at least one)
constexpr int kNetworkMaxWidth = 1 << 14;    // units of a hidden layer
constexpr size_t kNetworkMaxParameters = size_t{1} << 26;
constexpr uint32_t kNetworkMaxHeader = 1u << 20;  // bytes of the JSON header

class Network {
 public:
  static Network from_bytes(const std::string& bytes);

  const std::string& game() const { return game_; }
  int players() const { return players_; }
  int input_size() const { return input_; }
  int num_actions() const { return actions_; }
  const std::vector<int>& hidden() const { return hidden_; }
  const Json& header() const { return header_; }
  int64_t num_parameters() const { return static_cast<int64_t>(params_.size()); }
  // Floats of scratch memory evaluate() needs (the caller's: evaluate allocates nothing).
  size_t scratch_size() const { return scratch_; }

  // values[players]: the seats' shares of the win, summing to 1; logits[i]: that of actions[i]
  // (count of them; each in 0..num_actions - 1).
  void evaluate(const float* observation, float* scratch, double* values, const Action* actions, int count,
                float* logits) const;

 private:
  Network() = default;
  std::string game_;
  int players_ = 0, input_ = 0, actions_ = 0;
  std::vector<int> hidden_;
  Json header_;
  std::vector<float> params_;
  // Offsets into params_.
  size_t scale_ = 0;
  std::vector<size_t> weights_, biases_;  // per hidden layer
  size_t value_w_ = 0, value_b_ = 0, policy_w_ = 0, policy_b_ = 0;
  size_t scratch_ = 0;
};

}  // namespace nutcore
