// The learned evaluation's network: its file read and checked, and its forward pass.
#include "search/network.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace nutcore {

namespace {

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument("network: " + message); }

uint32_t read_u32(const std::string& b, size_t at) {
  uint32_t v = 0;
  for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<uint8_t>(b[at + k]);
  return v;
}

// IEEE half precision to single: exact (every half is a float).
float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1Fu;
  uint32_t mantissa = h & 0x3FFu;
  uint32_t bits;
  if (exponent == 0x1F) {
    bits = sign | 0x7F800000u | (mantissa << 13);  // infinity or NaN (refused after)
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal: normalise
    exponent = 113;
    while (!(mantissa & 0x400u)) {
      mantissa <<= 1;
      --exponent;
    }
    bits = sign | (exponent << 23) | ((mantissa & 0x3FFu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

}  // namespace

Network Network::from_bytes(const std::string& b) {
  if (b.size() < 16 || b.compare(0, 8, "NUTCNET\n") != 0) fail("not a nutcore network (its file starts otherwise)");
  const uint32_t version = read_u32(b, 8);
  if (version != kNetworkFormat)
    fail("format version " + std::to_string(version) + "; this build reads version " + std::to_string(kNetworkFormat));
  const uint32_t length = read_u32(b, 12);
  if (length > b.size() - 16 || length > kNetworkMaxHeader) fail("its header runs past the end");
  Network n;
  try {
    n.header_ = Json::parse(b.substr(16, length));
  } catch (const std::invalid_argument& e) {
    fail(std::string("its header is not JSON: ") + e.what());
  }
  JsonObjectReader r(n.header_, "network header");
  n.game_ = r.get("game").as_string("network header: game");
  n.players_ = json_int_in(r.get("players"), "network header: players", 1, kNetworkMaxPlayers);
  n.input_ = json_int_in(r.get("observation_size"), "network header: observation_size", 1, kNetworkMaxInputs);
  n.actions_ = json_int_in(r.get("num_actions"), "network header: num_actions", 1, kNetworkMaxActions);
  const auto& hidden = r.get("hidden").as_array("network header: hidden");
  if (hidden.empty() || hidden.size() > static_cast<size_t>(kNetworkMaxLayers))
    fail("1 to " + std::to_string(kNetworkMaxLayers) + " hidden layers, got " + std::to_string(hidden.size()));
  for (const Json& h : hidden) n.hidden_.push_back(json_int_in(h, "network header: hidden", 1, kNetworkMaxWidth));
  const std::string dtype = r.get("dtype").as_string("network header: dtype");
  if (dtype != "float16" && dtype != "float32") fail("dtype must be float16 or float32, got " + dtype);
  if (const Json* about = r.find("about")) about->items("network header: about");  // an object
  r.finish();

  // Offsets, and the count of parameters (bounded: kNetworkMaxParameters floats at most).
  size_t at = 0;
  auto take = [&](size_t count) {
    const size_t offset = at;
    at += count;
    if (at > kNetworkMaxParameters) fail("more than " + std::to_string(kNetworkMaxParameters) + " parameters");
    return offset;
  };
  n.scale_ = take(n.input_);
  size_t in = n.input_, widest = n.input_;
  for (int out : n.hidden_) {
    n.weights_.push_back(take(in * out));
    n.biases_.push_back(take(out));
    in = out;
    widest = std::max(widest, in);
  }
  n.value_w_ = take(in * n.players_);
  n.value_b_ = take(n.players_);
  n.policy_w_ = take(static_cast<size_t>(n.actions_) * in);
  n.policy_b_ = take(n.actions_);
  n.scratch_ = 2 * widest;

  const size_t width = dtype == "float16" ? 2 : 4;
  const size_t start = 16 + length;
  if (b.size() - start != at * width)
    fail("the header describes " + std::to_string(at) + " parameters (" + std::to_string(at * width) +
         " bytes), the file holds " + std::to_string(b.size() - start) + " bytes of them");
  n.params_.resize(at);
  for (size_t i = 0; i < at; ++i) {
    const size_t p = start + i * width;
    if (width == 2) {
      n.params_[i] =
          half_to_float(static_cast<uint16_t>(static_cast<uint8_t>(b[p]) | static_cast<uint8_t>(b[p + 1]) << 8));
    } else {
      const uint32_t bits = read_u32(b, p);
      std::memcpy(&n.params_[i], &bits, sizeof(float));
    }
    if (!std::isfinite(n.params_[i])) fail("parameter " + std::to_string(i) + " is not finite");
  }
  return n;
}

void Network::evaluate(const float* observation, float* scratch, double* values, const Action* actions, int count,
                       float* logits) const {
  const float* p = params_.data();
  float* x = scratch;
  float* y = scratch + scratch_ / 2;
  const float* scale = p + scale_;
  for (int i = 0; i < input_; ++i) x[i] = observation[i] * scale[i];
  int in = input_;
  for (size_t k = 0; k < hidden_.size(); ++k) {
    const int out = hidden_[k];
    const float* w = p + weights_[k];
    std::memcpy(y, p + biases_[k], sizeof(float) * out);
    // y += x W, a row of W per input: an input at 0 (most of an observation) costs nothing.
    for (int i = 0; i < in; ++i) {
      const float xi = x[i];
      if (xi == 0.0f) continue;
      const float* row = w + static_cast<size_t>(i) * out;
      for (int j = 0; j < out; ++j) y[j] += row[j] * xi;
    }
    for (int j = 0; j < out; ++j) y[j] = y[j] > 0.0f ? y[j] : 0.0f;
    std::swap(x, y);
    in = out;
  }
  // The value head: logits per seat, then their softmax.
  double v[kNetworkMaxPlayers];
  double top = -1e300;
  for (int q = 0; q < players_; ++q) {
    float s = p[value_b_ + q];
    for (int j = 0; j < in; ++j) s += x[j] * p[value_w_ + static_cast<size_t>(j) * players_ + q];
    v[q] = s;
    top = std::max(top, v[q]);
  }
  double sum = 0;
  for (int q = 0; q < players_; ++q) sum += (v[q] = std::exp(v[q] - top));
  for (int q = 0; q < players_; ++q) values[q] = v[q] / sum;
  // The policy head, only for the moves asked: a dot product each, in eight running sums (a fixed
  // order, so the same floats on every machine, and one a compiler can put in vector registers).
  for (int m = 0; m < count; ++m) {
    const float* row = p + policy_w_ + static_cast<size_t>(actions[m]) * in;
    float acc[8] = {};
    int j = 0;
    for (; j + 8 <= in; j += 8)
      for (int k = 0; k < 8; ++k) acc[k] += row[j + k] * x[j + k];
    for (; j < in; ++j) acc[0] += row[j] * x[j];
    logits[m] =
        p[policy_b_ + actions[m]] + (((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])));
  }
}

}  // namespace nutcore
