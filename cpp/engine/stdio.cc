// The protocol on stdin and stdout (stdio.h).
#include "engine/stdio.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <string>

namespace nutcore::engine {

namespace {

// Writes all of `data`; false once the reader has gone (the engine keeps reading until the end).
bool write_all(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

int run_stdio(int in_fd, int out_fd, const Limits& limits, const std::function<bool()>& interrupted) {
  bool writable = true;
  Engine engine(
      [&](const std::string& line) {
        if (writable) writable = write_all(out_fd, line + "\n");  // the engine sends one line at a time
      },
      limits);
  std::string pending;    // read, not yet a whole line
  bool overlong = false;  // the current line passed the limit: the rest of it is skipped
  char buf[65536];
  const auto take_line = [&](std::string line) {
    if (overlong) {
      overlong = false;
      line.resize(kMaxLineBytes + 1);  // what was kept of it: parse_line says it is too long
    }
    engine.handle(line);
  };
  while (!engine.closed()) {
    if (interrupted) {
      pollfd p{in_fd, POLLIN, 0};
      const int ready = ::poll(&p, 1, 10);
      if (ready < 0 && errno != EINTR) break;
      if (ready <= 0) {
        if (interrupted()) {
          engine.close(true);
          return 130;
        }
        continue;
      }
    }
    const ssize_t n = ::read(in_fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the end of input
    size_t start = 0;
    for (size_t i = 0; i < static_cast<size_t>(n) && !engine.closed(); ++i) {
      if (buf[i] != '\n') continue;
      if (!overlong) pending.append(buf + start, i - start);
      take_line(std::move(pending));
      pending.clear();
      start = i + 1;
    }
    if (engine.closed()) break;
    if (!overlong) pending.append(buf + start, static_cast<size_t>(n) - start);
    if (pending.size() > kMaxLineBytes + 1) {  // + 1: a line may end in \r\n
      overlong = true;
      pending.resize(kMaxLineBytes + 1);
    }
  }
  if (!pending.empty() && !engine.closed()) take_line(std::move(pending));  // a last line without its newline
  engine.close(true);  // a running search is stopped first, and answers
  return 0;
}

}  // namespace nutcore::engine
