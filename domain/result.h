// Result<T>: a value or an Error. Nothing in domain/, eventstore/ or projections/ throws.
#pragma once

#include <expected>

#include "domain/error.h"

namespace esign {

template <class T>
using Result = std::expected<T, Error>;

// For calls that return nothing but may fail.
using Status = Result<void>;

inline std::unexpected<Error> Fail(ErrorCode code, std::string message) {
  return std::unexpected(Error::Of(code, std::move(message)));
}
inline std::unexpected<Error> Fail(ErrorCode code, std::string message, std::string field,
                                   std::string issue) {
  return std::unexpected(Error::Of(code, std::move(message), std::move(field), std::move(issue)));
}
inline std::unexpected<Error> Fail(Error error) { return std::unexpected(std::move(error)); }

}  // namespace esign
