// The rules of signer authentication on the hosted page (DESIGN section 15) that need no log:
// whether a typed code matches, the proof a browser keeps once it matched, how an address is
// shown to the signer, and the replacement of access codes by their keyed hashes before a
// contract's events are appended. The counting (tries, codes sent, the lock) is decided with the
// contract (contract_rules: DecideSendSignerCode, DecideSignerAuthentication).
// Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/contract_commands.h"
#include "domain/contract_events.h"
#include "domain/participant.h"
#include "domain/result.h"
#include "domain/signer_secrets.h"
#include "domain/signing_session.h"

namespace esign {

inline constexpr int kMaxSignerCodeFailures = 5;          // the fifth locks the session
inline constexpr int kMaxEmailCodesPerSession = 5;        // codes mailed per session
inline constexpr int64_t kEmailCodeTtlSeconds = 600;      // a mailed code is valid 10 minutes
inline constexpr int64_t kEmailCodeIntervalSeconds = 30;  // between two codes of a session
inline constexpr int kMaxSignerAuthentications = 10;      // proofs per session (each appends)
inline constexpr size_t kMaxTypedCodeLength = 64;         // what a signer may type

// Replaces every participant's accessCode in contract.created and
// contract.participants_replaced by accessCodeHash. Without secrets an access code cannot be
// kept: kUnavailable, naming the participant.
Status HashAccessCodes(std::vector<DomainEvent>& events, const SignerSecrets* secrets);

// `code` against the participant's access code hash, or against the session's latest e-mail
// code (kExpired once past its expiry; kWrong when none was sent; kSpent once it proved the
// session: an e-mail code is good for one proof). Compared in constant time.
SignerCodeCheck CheckSignerCode(std::string_view contract_id, const SigningSession& session,
                                const Participant& signer, std::string_view code,
                                const SignerSecrets& secrets, std::string_view now);

// The answer to an e-mail code typed again after it proved the session: 401
// SIGNER_AUTHENTICATION_FAILED with the detail code "spent". Nothing is recorded: it is not a
// wrong guess, and the signer asks for a new code as after an expiry.
Error SpentCodeError();

// "<n>.<SignerProof(session, n)>": what the hosted page sends as Signer-Proof.
std::string SignerProofHeader(const SignerSecrets& secrets, std::string_view session_id, int n);

// The number n of a valid Signer-Proof for the session (1..its authentications), else nullopt.
std::optional<int> ProvenAuthentication(const SignerSecrets& secrets, const SigningSession& session,
                                        std::string_view header);

// "j***@example.com": enough for a signer to recognise their address, not to learn another's.
std::string MaskedEmail(std::string_view email);

}  // namespace esign
