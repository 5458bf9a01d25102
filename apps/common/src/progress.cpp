// progress_bar: one carriage-return-redrawn line on a terminal's stderr.
#include "bkt_apps/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace bkt::apps {
namespace {

using namespace std::chrono_literals;
constexpr auto quiet_start = 1s;  // quick runs never show a bar
constexpr auto redraw_interval = 200ms;

}  // namespace

progress_bar::progress_bar(std::string label, std::int64_t total)
    : label_(std::move(label)),
      total_(total),
      enabled_(::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

progress_bar::~progress_bar() { clear(); }

void progress_bar::relabel(std::string label, std::int64_t total) {
  label_ = std::move(label);
  total_ = total;
  last_draw_ = start_;  // the next update shows the new phase at once, not after the redraw interval
}

void progress_bar::update(std::int64_t done) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < quiet_start || now - last_draw_ < redraw_interval) return;
  last_draw_ = now;
  drawn_ = true;
  if (total_ > 0) {
    constexpr int width = 30;
    const double fraction = std::clamp(static_cast<double>(done) / static_cast<double>(total_), 0.0, 1.0);
    const int filled = static_cast<int>(fraction * width);
    std::fprintf(stderr, "\r%-6s [%.*s%*s] %5.1f%%", label_.c_str(), filled, "##############################",
                 width - filled, "", 100.0 * fraction);
  } else {
    std::fprintf(stderr, "\r%-6s %lld", label_.c_str(), static_cast<long long>(done));
  }
  std::fflush(stderr);
}

void progress_bar::clear() noexcept {
  if (!drawn_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace bkt::apps
