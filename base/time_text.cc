#include "base/time_text.h"

#include <cstdio>

namespace esign {
namespace {

constexpr int64_t kSecondsPerDay = 86'400;

struct CivilDate {
  int64_t year;
  unsigned month;
  unsigned day;
};

// Days since 1970-01-01 to a proleptic Gregorian date and back, after H. Hinnant's
// civil_from_days and days_from_civil, which hold for every int64 day count we can format.
CivilDate CivilFromDays(int64_t days) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto day_of_era = static_cast<unsigned>(days - era * 146097);
  const unsigned year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const unsigned day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const unsigned shifted_month = (5 * day_of_year + 2) / 153;
  const unsigned day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
  const unsigned month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
  return CivilDate{static_cast<int64_t>(year_of_era) + era * 400 + (month <= 2 ? 1 : 0), month,
                   day};
}

int64_t DaysFromCivil(CivilDate date) {
  const int64_t year = date.year - (date.month <= 2 ? 1 : 0);
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const auto year_of_era = static_cast<unsigned>(year - era * 400);
  const unsigned day_of_year =
      (153 * (date.month > 2 ? date.month - 3 : date.month + 9) + 2) / 5 + date.day - 1;
  const unsigned day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + static_cast<int64_t>(day_of_era) - 719468;
}

bool IsLeapYear(int64_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int64_t DaysInMonth(int64_t year, int64_t month) {
  static constexpr int64_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

int64_t FloorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0);
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

// The day count of "YYYY-MM-DD" at the start of `text`, for a real day of a year >= min_year.
std::optional<int64_t> DateDays(std::string_view text, int64_t min_year) {
  const auto year = Digits(text, 0, 4);
  const auto month = Digits(text, 5, 2);
  const auto day = Digits(text, 8, 2);
  if (!year || !month || !day || text[4] != '-' || text[7] != '-') return std::nullopt;
  if (*year < min_year || *month < 1 || *month > 12 || *day < 1 ||
      *day > DaysInMonth(*year, *month)) {
    return std::nullopt;
  }
  return DaysFromCivil(
      CivilDate{*year, static_cast<unsigned>(*month), static_cast<unsigned>(*day)});
}

}  // namespace

std::string FormatTimestamp(int64_t unix_micros) {
  const int64_t seconds = FloorDiv(unix_micros, kMicrosPerSecond);
  const int64_t micros = unix_micros - seconds * kMicrosPerSecond;
  const int64_t days = FloorDiv(seconds, kSecondsPerDay);
  const int64_t second_of_day = seconds - days * kSecondsPerDay;
  const CivilDate date = CivilFromDays(days);
  char text[64];
  std::snprintf(text, sizeof text, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%06lldZ",
                static_cast<long long>(date.year), date.month, date.day,
                static_cast<long long>(second_of_day / 3600),
                static_cast<long long>(second_of_day / 60 % 60),
                static_cast<long long>(second_of_day % 60), static_cast<long long>(micros));
  return text;
}

std::optional<int64_t> ParseFormattedTimestamp(std::string_view text) {
  // "YYYY-MM-DDTHH:MM:SS.ffffffZ"
  if (text.size() != 27 || text[10] != 'T' || text[13] != ':' || text[16] != ':' ||
      text[19] != '.' || text[26] != 'Z') {
    return std::nullopt;
  }
  const std::optional<int64_t> days = DateDays(text, 0);
  const auto hour = Digits(text, 11, 2);
  const auto minute = Digits(text, 14, 2);
  const auto second = Digits(text, 17, 2);
  const auto micros = Digits(text, 20, 6);
  if (!days || !hour || !minute || !second || !micros) return std::nullopt;
  if (*hour > 23 || *minute > 59 || *second > 59) return std::nullopt;
  const int64_t seconds = *days * kSecondsPerDay + *hour * 3600 + *minute * 60 + *second;
  return seconds * kMicrosPerSecond + *micros;
}

std::optional<int64_t> ParseTimestampMicros(std::string_view text) {
  const std::optional<int64_t> days = DateDays(text, 1);
  if (!days) return std::nullopt;
  if (text.size() == 10) return *days * kSecondsPerDay * kMicrosPerSecond;

  if (text.size() < 20 || (text[10] != 'T' && text[10] != 't')) return std::nullopt;
  const auto hour = Digits(text, 11, 2);
  const auto minute = Digits(text, 14, 2);
  const auto second = Digits(text, 17, 2);
  if (!hour || !minute || !second || text[13] != ':' || text[16] != ':') return std::nullopt;
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
      *days * kSecondsPerDay + *hour * 3600 + *minute * 60 + *second - offset_minutes * 60;
  return seconds * kMicrosPerSecond + micros;
}

}  // namespace esign
