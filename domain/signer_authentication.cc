#include "domain/signer_authentication.h"

#include <charconv>

#include "base/hmac.h"
#include "base/json_read.h"
#include "domain/text_formats.h"

namespace esign {

Status HashAccessCodes(std::vector<DomainEvent>& events, const SignerSecrets* secrets) {
  for (auto& event : events) {
    if (event.type != event_type::kContractCreated &&
        event.type != event_type::kParticipantsReplaced) {
      continue;
    }
    const std::string contract_id = StringMemberOrEmpty(event.data, "contractId");
    auto* participants = event.data.if_contains("participants");
    if (participants == nullptr || !participants->is_array()) continue;
    for (auto& item : participants->get_array()) {
      if (!item.is_object()) continue;
      auto& participant = item.get_object();
      const auto* code = participant.if_contains("accessCode");
      if (code == nullptr || !code->is_string()) continue;
      const std::string participant_id = StringMemberOrEmpty(participant, "participantId");
      if (secrets == nullptr) {
        return Fail(ErrorCode::kUnavailable, "access codes cannot be kept: no signer key is set",
                    "participants", participant_id);
      }
      const std::string hash = secrets->AccessCodeHash(contract_id, participant_id,
                                                       std::string_view(code->get_string()));
      participant.erase("accessCode");
      participant["accessCodeHash"] = hash;
    }
  }
  return {};
}

SignerCodeCheck CheckSignerCode(std::string_view contract_id, const SigningSession& session,
                                const Participant& signer, std::string_view code,
                                const SignerSecrets& secrets, std::string_view now) {
  switch (signer.authentication) {
    case SignerAuthentication::kNone:
      return SignerCodeCheck::kWrong;
    case SignerAuthentication::kAccessCode:
      return !signer.access_code_hash.empty() &&
                     ConstantTimeEquals(
                         secrets.AccessCodeHash(contract_id, signer.participant_id, code),
                         signer.access_code_hash)
                 ? SignerCodeCheck::kMatched
                 : SignerCodeCheck::kWrong;
    case SignerAuthentication::kEmailOtp:
      if (session.codes_sent == 0 ||
          !ConstantTimeEquals(code, secrets.EmailCode(session.session_id, session.codes_sent))) {
        return SignerCodeCheck::kWrong;
      }
      if (session.code_spent == session.codes_sent) return SignerCodeCheck::kSpent;
      return session.code_expires_at <= now ? SignerCodeCheck::kExpired : SignerCodeCheck::kMatched;
  }
  return SignerCodeCheck::kWrong;
}

Error SpentCodeError() {
  return Error{ErrorCode::kSignerAuthenticationFailed,
               "this code was used already: ask for a new one",
               {ErrorDetail{"code", "spent"}}};
}

std::string SignerProofHeader(const SignerSecrets& secrets, std::string_view session_id, int n) {
  return std::to_string(n) + "." + secrets.SignerProof(session_id, n);
}

std::optional<int> ProvenAuthentication(const SignerSecrets& secrets, const SigningSession& session,
                                        std::string_view header) {
  const size_t dot = header.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot > 4) return std::nullopt;
  int n = 0;
  const auto [end, ec] = std::from_chars(header.data(), header.data() + dot, n);
  if (ec != std::errc() || end != header.data() + dot) return std::nullopt;
  if (n < 1 || n > static_cast<int>(session.authenticated_at.size())) return std::nullopt;
  if (!ConstantTimeEquals(header.substr(dot + 1), secrets.SignerProof(session.session_id, n))) {
    return std::nullopt;
  }
  return n;
}

std::string MaskedEmail(std::string_view email) {
  const size_t at = email.rfind('@');
  if (at == std::string_view::npos || at == 0) return "***";
  return std::string(email.substr(0, 1)) + "***" + std::string(email.substr(at));
}

}  // namespace esign
