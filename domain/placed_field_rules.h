// The rules of a contract made from uploads (DESIGN section 20), read from a create request:
// its documents (1 to 20, the caller's organization's uploads, 50 MiB together), its fields
// placed three ways (by coordinates in `fields`, by the text tags found in the documents, by
// AcroForm fields named in `formFieldMapping`; 500 together), and the implicit roles that stand
// in for a template's: one per participant, bound to it, whose signature placements are the
// participant's signature fields on the composed PDF's pages.
// Every problem is a kValidationFailed detail naming its path ("fields[3].x",
// "documents[1]", "formFieldMapping[0].formField"). Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <vector>

#include "domain/contract_state.h"
#include "domain/json_util.h"
#include "domain/participant.h"
#include "domain/placed_fields.h"
#include "domain/result.h"
#include "domain/template.h"
#include "domain/uploaded_document.h"

namespace esign {

inline constexpr size_t kMaxContractDocuments = 20;
inline constexpr uint64_t kMaxContractDocumentBytes = 50ull << 20;
inline constexpr size_t kMaxPlacedFields = 500;

// The documents of `value` as the uploads hold them, in order. kDocumentNotFound (with the path
// of the id) for an id that is not among `uploads`; shape problems go to `validation`.
Result<std::vector<ContractDocument>> ReadContractDocuments(
    const boost::json::value& value, const std::vector<UploadedDocument>& uploads,
    Details& validation);

// The fields of the request: `fields`, then each document's text tags, then `formFieldMapping`,
// numbered fld_1, fld_2, ... in that order. Fills each document's covers (every tag's box) and
// mapped form fields. `participants` are the request's, with their ids.
std::vector<PlacedField> ReadPlacedFields(const boost::json::value& fields,
                                          const boost::json::value& form_field_mapping,
                                          const std::vector<UploadedDocument>& uploads,
                                          std::vector<ContractDocument>& documents,
                                          const std::vector<Participant>& participants,
                                          Details& validation);

// At send: every signer has a signature field, and every field still names a signer.
Status CheckPlacedFieldsForSend(const ContractState& state);

// The template version a contract from uploads stands on: one role per participant (its id as
// the role id, "Participant N" as the name), with the participant's signature fields as its
// signature placements (composed-PDF pages).
TemplateVersion UploadsTemplateVersion(const ContractState& state);

// Each participant bound to its own implicit role.
std::vector<RoleBinding> UploadsRoleBindings(const std::vector<Participant>& participants);

}  // namespace esign
