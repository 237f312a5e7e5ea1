// Writes an observation tensor front to back, as each game's docs/rules page lists its segments:
// numbers one by one, names as one-hot segments, over a tensor that starts all zeros.
#pragma once

#include <algorithm>

namespace nutcore {

class TensorWriter {
 public:
  TensorWriter(float* out, int size) : at_(out), end_(out + size) { std::fill(out, out + size, 0.0f); }
  void value(float x) { *at_++ = x; }
  // A segment of `size` with a 1 at `index`; an index out of range (the JSON's null) leaves it zeros.
  void one_hot(int index, int size) {
    if (index >= 0 && index < size) at_[index] = 1.0f;
    at_ += size;
  }
  bool full() const { return at_ == end_; }

 private:
  float* at_;
  float* end_;
};

}  // namespace nutcore
