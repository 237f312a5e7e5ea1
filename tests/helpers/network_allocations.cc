// Counts the heap allocations of Network::evaluate (issue 33: inference allocates nothing per
// call). Built and run by tests/generic/test_learning.py: network_allocations FILE.nnet prints
// "<evaluations> <allocations during them> <allocations loading the file>" (the last shows that
// the count counts).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>
#include <vector>

#include "search/network.h"

static long allocations = 0;

void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const long start = allocations;
  std::ifstream file(argv[1], std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  const nutcore::Network net = nutcore::Network::from_bytes(bytes.str());
  std::vector<float> observation(net.input_size()), scratch(net.scratch_size()), logits(net.num_actions());
  std::vector<double> values(net.players());
  std::vector<nutcore::Action> actions;
  for (int a = 0; a < net.num_actions(); ++a) actions.push_back(static_cast<nutcore::Action>(a));
  const long loading = allocations - start;
  const long before = allocations;
  const int evaluations = 1000;
  unsigned seed = 1;
  for (int n = 0; n < evaluations; ++n) {
    for (float& x : observation) x = static_cast<float>((seed = seed * 1103515245u + 12345u) >> 28);
    const int count = 1 + n % net.num_actions();  // every number of legal moves
    net.evaluate(observation.data(), scratch.data(), values.data(), actions.data(), count, logits.data());
  }
  std::printf("%d %ld %ld\n", evaluations, allocations - before, loading);
  return 0;
}
