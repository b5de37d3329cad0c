#include "projections/status_row.h"

#include <charconv>

#include "projections/key_codec.h"

namespace esign::projections {
namespace {

template <class T>
bool ParseDecimal(std::string_view text, T& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace

std::string EncodeStatusRow(uint64_t version,
                            const std::map<std::string, uint8_t>& roles_by_organization,
                            std::string_view status_json) {
  std::string row = "v" + std::to_string(version);
  for (const auto& [organization, roles] : roles_by_organization) {
    row.push_back('/');
    AppendKeyPart(row, organization);
    row.push_back('/');
    row += std::to_string(roles);
  }
  row.push_back('\n');
  row.append(status_json);
  return row;
}

std::optional<StatusRowRead> ReadStatusRow(std::string_view row, std::string_view organization) {
  if (row.empty() || row.front() != 'v') return std::nullopt;
  const size_t end = row.find('\n');
  if (end == std::string_view::npos) return std::nullopt;
  std::string_view header = row.substr(1, end - 1);
  StatusRowRead read;
  read.json_offset = end + 1;
  size_t slash = header.find('/');
  if (!ParseDecimal(header.substr(0, slash), read.version)) return std::nullopt;
  const std::string escaped = EscapeKeyPart(organization);
  while (slash != std::string_view::npos) {
    header.remove_prefix(slash + 1);
    const size_t between = header.find('/');
    if (between == std::string_view::npos) return std::nullopt;
    slash = header.find('/', between + 1);
    unsigned roles = 0;
    if (!ParseDecimal(header.substr(between + 1, slash - between - 1), roles) || roles > 0xff) {
      return std::nullopt;
    }
    if (header.substr(0, between) == escaped) read.roles = static_cast<uint8_t>(roles);
  }
  return read;
}

}  // namespace esign::projections
