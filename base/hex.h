// Hexadecimal text of bytes: lowercase when written, either case when read.
// Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace esign {

std::string ToHex(std::span<const uint8_t> bytes);
std::string ToHex(std::string_view bytes);

// The bytes of an even number of hexadecimal digits; nothing for any other character or an odd
// length.
std::optional<std::string> FromHex(std::string_view hex);

}  // namespace esign
