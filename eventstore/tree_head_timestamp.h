// Timestamped signed tree heads (after RFC 4998's evidence records: one timestamp over a head
// vouches for the time of every event beneath it). The token is an RFC 3161 token over
// TreeHeadTimestampDigest(head): SHA-256 of the head's signed message (TreeHeadMessage: version,
// timestamp, size, root) followed by its 64-byte signature, so it binds everything the head says.
// A proof bundle carries it as "treeHeadTimestamp" (base64 DER) when its head has one, and
// CheckTreeHeadTimestamp is the check "treeHead.timestamp" of VerifyProofBundle.
// Thread safety: pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>

#include "base/sha256.h"
#include "eventstore/proof_bundle.h"
#include "eventstore/tree_head.h"

namespace esign::eventstore {

inline constexpr std::string_view kTreeHeadTimestampMember = "treeHeadTimestamp";

Sha256Digest TreeHeadTimestampDigest(const SignedTreeHead& head);

// Adds "treeHeadTimestamp" to `bundle` when `head` has a token; nothing otherwise.
void AddTreeHeadTimestamp(const SignedTreeHead& head, boost::json::object& bundle);

// The check of a bundle's "treeHeadTimestamp" member against its head (nullptr when the head
// failed its own check): base64 of a token that verifies (base/timestamp_token.h) over that head,
// its signer chaining to `trusted_ca_pem` when given (else to the certificates it carries). The
// detail names the time and the authority, and whether it was anchored to the trusted CA.
BundleCheck CheckTreeHeadTimestamp(const boost::json::value& member, const SignedTreeHead* head,
                                   std::string_view trusted_ca_pem = {});

}  // namespace esign::eventstore
