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
#include <string>
#include <string_view>
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
// The pages a template renders: A4 (documents/pdf_canvas.h), of which a role's field may name
// the first kMaxRenderedFieldPage, as its signature placements may.
inline constexpr double kRenderedPageWidth = 595.276;
inline constexpr double kRenderedPageHeight = 841.89;
inline constexpr int64_t kMaxRenderedFieldPage = 1000;

// How a request names the owner of a field: a contract's participants, or a template's roles
// (whose "participants" below stand in for them, the role id as the participant id).
struct FieldOwnerKeys {
  std::string_view id;
  std::string_view index;
  std::string_view noun;
};
inline constexpr FieldOwnerKeys kParticipantOwners{"participantId", "participantIndex",
                                                   "participant"};
inline constexpr FieldOwnerKeys kRoleOwners{"templateRoleId", "roleIndex", "role"};

// The document ids a request's `documents` names, in order, up to kMaxContractDocuments (more is
// refused when the documents are read): the uploads to look up before deciding.
std::vector<std::string> DocumentIdsNamedBy(const boost::json::value& documents);

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
                                          Details& validation,
                                          const FieldOwnerKeys& owners = kParticipantOwners);

// The fields of a template file's roles (`roles[i].fields`, DESIGN section 21), placed by
// coordinates on the pages of the PDF the version renders: each takes the members of a contract's
// field in `fields` but the owner and `documentIndex`, which its role gives. Only sign roles have
// fields. A field's id is its `name` when that is an identifier (^[A-Za-z0-9_-]{1,64}$, not
// fld_...) that no other field of the version has, else fld_N, N its 1-based place among the
// version's fields (roles in order); a showIf names a field of the same role by that id. Each
// field's participant_id is its role's id. Problems go to `validation`, named under `roles_path`
// ("versions[0].roles[1].fields[0].pattern").
std::vector<PlacedField> ReadRoleFields(const boost::json::array& roles,
                                        const std::string& roles_path, Details& validation);

// At send: every field still names a signer, no provider_managed signer has a field to fill
// in, and, for a contract from uploads, every signer has a signature field (a template's signers
// have their role's signature placements).
Status CheckPlacedFieldsForSend(const ContractState& state);

// The values `participant_id` gives with its signature (`fieldValues`, signer_field_rules.h
// CheckSignerValues) as signer.completed records them: [{fieldId, value}]. A contract without
// placed fields takes none (an empty array or null). `uploaded`: the files of the signer's
// session, which attachment fields name.
Result<boost::json::array> SignerValuesOf(const ContractState& state,
                                          std::string_view participant_id,
                                          const boost::json::value& field_values,
                                          const std::vector<SignerAttachment>& uploaded);

// The signature fields of `owner` (a participant's or a role's id) as placements on the pages of
// the documents composed into one PDF.
std::vector<SignaturePlacement> SignaturePlacementsOf(
    const std::vector<ContractDocument>& documents, const std::vector<PlacedField>& fields,
    std::string_view owner);

// The template version a contract from uploads stands on: one role per participant ("Participant
// N" as the name; the id of the role it is bound to, see below), with the participant's
// signature fields as its signature placements (composed-PDF pages).
TemplateVersion UploadsTemplateVersion(const ContractState& state);

// Each participant bound to its own implicit role: the template role it was bound to when the
// contract came from a template version made from uploads, else a role named by its own id.
std::vector<RoleBinding> UploadsRoleBindings(
    const std::vector<Participant>& participants,
    const std::vector<RoleBinding>& template_bindings = {});

}  // namespace esign
