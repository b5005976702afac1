// What the process writes to one of its standard streams while a capture is open. Device printf output and the
// messages of failed device asserts reach the host's stdout/stderr at a synchronization point (5.4.10.1,
// PG12.9 10.35); a rule about them captures the stream around the launch and the synchronization.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuconform_functions {

class CapturedStream {
 public:
  // Starts capturing file descriptor `fd` (1: stdout, 2: stderr) into a temporary file.
  explicit CapturedStream(int fd) : fd_(fd) {
    std::fflush(nullptr);
    file_ = std::tmpfile();
    if (!file_) throw std::runtime_error("CapturedStream: tmpfile failed");
    saved_ = ::dup(fd_);
    if (saved_ < 0 || ::dup2(::fileno(file_), fd_) < 0) throw std::runtime_error("CapturedStream: dup failed");
  }
  CapturedStream(const CapturedStream&) = delete;
  CapturedStream& operator=(const CapturedStream&) = delete;
  ~CapturedStream() {
    restore();
    if (file_) std::fclose(file_);
  }

  // Stops capturing and returns everything written to the stream since the capture started.
  std::string stop() {
    restore();
    std::string text;
    std::rewind(file_);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file_)) > 0;) text.append(buffer, n);
    return text;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(nullptr);
    ::dup2(saved_, fd_);
    ::close(saved_);
    saved_ = -1;
  }

  int fd_;
  int saved_ = -1;
  std::FILE* file_ = nullptr;
};

// The text split into lines, without their '\n'; a last line without '\n' counts too.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace cuconform_functions
