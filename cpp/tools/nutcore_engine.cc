// nutcore-engine: the engine protocol on stdin and stdout (docs/engine-protocol.md), C++ only.
//
//   nutcore-engine                 # a client names no file for the engine to read
//   nutcore-engine --allow-files   # a trusted client may (a card set's path)
//   nutcore-engine --limits JSON   # caps, as nutcore.engine.Limits: {"iterations": 100000, ...}
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "engine/protocol.h"
#include "engine/stdio.h"

int main(int argc, char** argv) {
  using nutcore::engine::Limits;
  Limits limits;
  try {
    bool allow_files = false;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--allow-files") {
        allow_files = true;
      } else if (arg == "--test-hooks") {  // for the test suites: commands no client may have
        limits.test_hooks = true;
      } else if (arg == "--limits" && i + 1 < argc) {
        limits = Limits::from_json(nutcore::Json::parse(argv[++i]));
      } else if (arg == "--help" || arg == "-h") {
        std::printf(
            "usage: nutcore-engine [--allow-files] [--limits JSON]\n"
            "The nutcore engine protocol on stdin/stdout: one JSON object per line each way.\n");
        return 0;
      } else if (arg == "--version") {
        std::printf("nutcore-engine %s (protocol %d)\n", NUTCORE_VERSION, nutcore::engine::kProtocolVersion);
        return 0;
      } else {
        std::fprintf(stderr, "nutcore-engine: unknown argument %s (see --help)\n", arg.c_str());
        return 2;
      }
    }
    if (allow_files) limits.file_params = true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nutcore-engine: %s\n", e.what());
    return 2;
  }
  return nutcore::engine::run_stdio(0, 1, limits);
}
