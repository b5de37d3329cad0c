#include "projections/timestamp.h"

namespace esign::projections {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int64_t DaysInMonth(int64_t y, int64_t m) {
  static constexpr int64_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

// Reads exactly `width` digits at `pos`.
std::optional<int64_t> Digits(std::string_view text, size_t pos, size_t width) {
  if (pos + width > text.size()) return std::nullopt;
  int64_t value = 0;
  for (size_t i = pos; i < pos + width; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

}  // namespace

std::optional<int64_t> ParseTimestampMicros(std::string_view text) {
  const auto year = Digits(text, 0, 4);
  const auto month = Digits(text, 5, 2);
  const auto day = Digits(text, 8, 2);
  if (!year || !month || !day || text[4] != '-' || text[7] != '-') return std::nullopt;
  if (*year < 1 || *month < 1 || *month > 12 || *day < 1 || *day > DaysInMonth(*year, *month)) {
    return std::nullopt;
  }
  const int64_t days = DaysFromCivil(*year, *month, *day);
  constexpr int64_t kMicrosPerSecond = 1'000'000;
  if (text.size() == 10) return days * 86'400 * kMicrosPerSecond;

  if (text.size() < 20 || (text[10] != 'T' && text[10] != 't')) return std::nullopt;
  const auto hour = Digits(text, 11, 2);
  const auto minute = Digits(text, 14, 2);
  const auto second = Digits(text, 17, 2);
  if (!hour || !minute || !second || text[13] != ':' || text[16] != ':') return std::nullopt;
  // A leap second (60) is accepted as RFC 3339 allows and counts as the next second.
  if (*hour > 23 || *minute > 59 || *second > 60) return std::nullopt;
  size_t pos = 19;
  int64_t micros = 0;
  if (text[pos] == '.') {
    ++pos;
    const size_t digits_start = pos;
    int64_t scale = 100'000;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      micros += (text[pos] - '0') * scale;
      scale /= 10;
      ++pos;
    }
    if (pos == digits_start || pos - digits_start > 9) return std::nullopt;
  }
  int64_t offset_minutes = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const int64_t sign = text[pos] == '-' ? -1 : 1;
    const auto off_hour = Digits(text, pos + 1, 2);
    const auto off_minute = Digits(text, pos + 4, 2);
    if (!off_hour || !off_minute || text[pos + 3] != ':' || *off_hour > 23 || *off_minute > 59) {
      return std::nullopt;
    }
    offset_minutes = sign * (*off_hour * 60 + *off_minute);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  const int64_t seconds =
      days * 86'400 + *hour * 3600 + *minute * 60 + *second - offset_minutes * 60;
  return seconds * kMicrosPerSecond + micros;
}

}  // namespace esign::projections
