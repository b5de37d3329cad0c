#include "base/base64.h"

#include <array>
#include <cstdint>

namespace esign {
namespace {

constexpr std::string_view kStandardAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view kUrlSafeAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

constexpr std::array<int8_t, 256> MakeDecodeTable(std::string_view alphabet) {
  std::array<int8_t, 256> table{};
  for (auto& entry : table) entry = -1;
  for (size_t i = 0; i < alphabet.size(); ++i) {
    table[static_cast<unsigned char>(alphabet[i])] = static_cast<int8_t>(i);
  }
  return table;
}

constexpr std::array<int8_t, 256> kStandardDecode = MakeDecodeTable(kStandardAlphabet);
constexpr std::array<int8_t, 256> kUrlSafeDecode = MakeDecodeTable(kUrlSafeAlphabet);

std::string_view AlphabetOf(Base64Form form) {
  return form.alphabet == Base64Form::Alphabet::kStandard ? kStandardAlphabet : kUrlSafeAlphabet;
}

const std::array<int8_t, 256>& DecodeTableOf(Base64Form form) {
  return form.alphabet == Base64Form::Alphabet::kStandard ? kStandardDecode : kUrlSafeDecode;
}

uint32_t Byte(std::string_view bytes, size_t i) { return static_cast<unsigned char>(bytes[i]); }

}  // namespace

std::string EncodeBase64(std::string_view bytes, Base64Form form) {
  const std::string_view alphabet = AlphabetOf(form);
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t n = Byte(bytes, i) << 16 | Byte(bytes, i + 1) << 8 | Byte(bytes, i + 2);
    out.push_back(alphabet[(n >> 18) & 63]);
    out.push_back(alphabet[(n >> 12) & 63]);
    out.push_back(alphabet[(n >> 6) & 63]);
    out.push_back(alphabet[n & 63]);
  }
  const size_t rest = bytes.size() - i;
  if (rest == 0) return out;
  const uint32_t n = Byte(bytes, i) << 16 | (rest == 2 ? Byte(bytes, i + 1) << 8 : 0);
  out.push_back(alphabet[(n >> 18) & 63]);
  out.push_back(alphabet[(n >> 12) & 63]);
  if (rest == 2) out.push_back(alphabet[(n >> 6) & 63]);
  if (form.padded) out.append(3 - rest, '=');
  return out;
}

std::optional<std::string> DecodeBase64(std::string_view text, Base64Form form) {
  if (form.padded) {
    if (text.size() % 4 != 0) return std::nullopt;
    // At most two '=', only at the end; a full group of padding encodes nothing.
    size_t padding = 0;
    while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') {
      ++padding;
    }
    text.remove_suffix(padding);
    if (padding > 0 && text.size() % 4 + padding != 4) return std::nullopt;
  } else if (text.size() % 4 == 1) {
    return std::nullopt;
  }
  const std::array<int8_t, 256>& decode = DecodeTableOf(form);
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t buffer = 0;
  int bits = 0;
  for (const char c : text) {
    const int8_t value = decode[static_cast<unsigned char>(c)];
    if (value < 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xff));
    }
  }
  // The bits left over must be zero: otherwise two texts would decode to the same bytes.
  if ((buffer & ((1u << bits) - 1)) != 0) return std::nullopt;
  return out;
}

}  // namespace esign
