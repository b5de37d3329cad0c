// GET /contracts/{id}/notifications (contracts:read): every e-mail the contract caused, in log
// order, as the outbox recorded it (mail/mail_outbox.h): to whom, what, its state and attempts,
// the mail server's last reply. Controller only: the recipients and the outbox are the
// controlling organization's business, so any other reader, even one with a signer or viewer
// grant, gets CONTRACT_NOT_FOUND, as for the controller's commands (domain RequireControl). The
// reply keeps the server's numeric code but not its text, which can name hosts and paths inside
// the mail system: a fixed text per class of answer stands in for it.
#include <algorithm>
#include <boost/json.hpp>

#include "base/time_text.h"
#include "http/contract_routes.h"
#include "mail/mail_rate_limits.h"
#include "mail/outgoing_mail.h"
#include "projections/contract_queries.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

// More messages than any contract causes (participants x events); a bound, not a page size.
constexpr size_t kMaxNotifications = 2000;

boost::json::value Timestamp(int64_t micros) {
  if (micros <= 0) return nullptr;
  return boost::json::value(FormatTimestamp(micros));
}

std::string_view StateName(delivery::DeliveryState state) {
  return state == delivery::DeliveryState::kSucceeded ? "sent" : delivery::DeliveryStateName(state);
}

// The text shown for an attempt's reply: an hourly limit's refusal in the service's own words, else
// a fixed text for its code (0: no server answered), never the transport's.
std::string_view ReplyText(const delivery::DeliveryAttempt& attempt) {
  if (attempt.error.starts_with(mail::kRateLimitedReply)) return attempt.error;
  const int code = attempt.code;
  if (code == 0) return "no answer: could not connect to the mail server or lost the connection";
  if (code >= 200 && code < 300) return "accepted by the mail server";
  if (code >= 400 && code < 500) return "deferred by the mail server; tried again later";
  if (code >= 500 && code < 600) return "refused by the mail server";
  return "unexpected answer from the mail server";
}

boost::json::object NotificationJson(const delivery::Delivery& d, std::string_view mail_from) {
  auto mail = mail::ParseOutgoingMail(d.body);
  boost::json::object item{
      {"id", d.id},
      {"kind", mail ? ToString(mail->kind) : "unknown"},
      {"recipient",
       boost::json::object{
           {"email", mail ? mail->to : ""},
           {"name", mail && !mail->to_name.empty() ? boost::json::value(mail->to_name) : nullptr},
           {"participantId", mail && !mail->participant_id.empty()
                                 ? boost::json::value(mail->participant_id)
                                 : nullptr}}},
      {"state", StateName(d.state)},
      {"eventId", d.event_id},
      {"eventType", d.event_type},
      {"messageId", "<" + mail::MessageIdOf(d.id, mail_from) + ">"},
      {"createdAt", Timestamp(d.created_us)},
      {"attempts", d.attempts.size()},
      {"nextAttemptAt",
       d.state == delivery::DeliveryState::kPending ? Timestamp(d.next_attempt_us) : nullptr},
  };
  if (d.attempts.empty()) {
    item["lastAttemptAt"] = nullptr;
    item["lastReply"] = nullptr;
  } else {
    const delivery::DeliveryAttempt& last = d.attempts.back();
    item["lastAttemptAt"] = Timestamp(last.at_us);
    item["lastReply"] =
        boost::json::object{{"code", last.code != 0 ? boost::json::value(last.code) : nullptr},
                            {"text", ReplyText(last)}};
  }
  return item;
}

ApiResult ListNotifications(const ContractRoutesDeps& deps, const ApiRequest& request) {
  if (auto ready = BeginRead(deps, request); !ready) return std::unexpected(ready.error());
  const std::string id(request.params.Get("id"));
  auto row = deps.queries.Status(ReaderOf(request), id);
  if (!row) return std::unexpected(row.error());
  if (std::ranges::find(row->access_roles, projections::AccessRole::kController) ==
      row->access_roles.end()) {
    return ContractNotFound();
  }
  auto records = deps.mail_records->OfContract(id, kMaxNotifications);
  if (!records) return std::unexpected(records.error());
  boost::json::array items;
  for (const delivery::Delivery& d : *records) {
    items.push_back(NotificationJson(d, deps.mail_from));
  }
  return ApiResponse{200,
                     boost::json::serialize(boost::json::object{{"items", std::move(items)}}),
                     "application/json",
                     {}};
}

}  // namespace

void AddNotificationRoutes(ApiRoutes& routes, const ContractRoutesDeps& deps) {
  routes.Add(verb::get, "/api/v1/contracts/{id}/notifications",
             {"listContractNotifications", Auth::kBearer,
              [deps](const ApiRequest& r) { return ListNotifications(deps, r); }});
}

}  // namespace esign::http
