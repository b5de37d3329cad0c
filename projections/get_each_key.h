// The plain way to answer a MultiGet: one Get per key, in the keys' order. The default of the
// readers whose store has no batched look-up.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "domain/result.h"

namespace esign::projections {

template <typename Reader>
Result<std::vector<std::optional<std::string>>> GetEachKey(const Reader& reader,
                                                           const std::vector<std::string>& keys) {
  std::vector<std::optional<std::string>> values;
  values.reserve(keys.size());
  for (const std::string& key : keys) {
    Result<std::optional<std::string>> value = reader.Get(key);
    if (!value) return Fail(value.error());
    values.push_back(std::move(*value));
  }
  return values;
}

}  // namespace esign::projections
