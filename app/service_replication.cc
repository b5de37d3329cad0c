// The service's side of the replicated log (docs/operations.md, DESIGN 22): the log topic opened
// before the store, and the admin socket's "promote" and "replication" requests. A change of role
// is carried out by the main thread, which stops this service and starts another
// (contractd_main.cc).
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "app/admin_socket.h"
#include "app/service.h"
#include "http/auth_token_key.h"

namespace esign::app {
namespace {

// The key that authenticates every entry of the log topic: every node of the shard holds the
// same one (contractd backup carries it), and a message under any other is never applied.
constexpr char kReplicationKeyFile[] = "replication-key";

}  // namespace

Status Service::OpenReplicatedLog(const ServeConfig& config,
                                  eventstore::RocksStoreOptions& options) {
  auto key =
      http::LoadOrCreateTokenKey(std::filesystem::path(config.data_dir) / kReplicationKeyFile);
  if (!key) return Fail(key.error());
  auto log = replication::ReplicatedLog::Open(replication::ReplicatedLogOptions{
      .brokers = config.kafka_brokers,
      .shard = config.log_shard,
      .key = *key,
      .node_name =
          config.public_base_url.empty() ? "http://" + config.listen : config.public_base_url,
      .log = [](const std::string& line) { std::cerr << "contractd: " << line << std::endl; },
      .on_fenced = [this] { RequestRoleChange(RoleChange::kStepDown); }});
  if (!log) return Fail(log.error());
  replicated_log_ = std::move(*log);
  options.replication = replicated_log_.get();
  std::cerr << "contractd: replicated log " << replication::LogTopicOf(config.log_shard) << " on "
            << config.kafka_brokers << (standby_ ? " (standby)" : "") << std::endl;
  return {};
}

Status Service::JoinWriterGroup(const ServeConfig& config) {
  // A writer always joins, even when no standby promotes by itself: a standby with
  // --auto-promote takes a group without the writer for a writer gone.
  if (standby_ && !config.auto_promote) return {};
  auto group = replication::WriterGroup::Start(replication::WriterGroupOptions{
      .brokers = config.kafka_brokers,
      .shard = config.log_shard,
      .writer = !standby_,
      .on_writer_gone = [this] { RequestRoleChange(RoleChange::kPromote); }});
  if (!group) return Fail(group.error());
  writer_group_ = std::move(*group);
  return {};
}

void Service::RequestRoleChange(RoleChange change) {
  RoleChange none = RoleChange::kNone;
  // The first request wins; the main thread takes it from SIGUSR1.
  if (role_change_.compare_exchange_strong(none, change)) ::kill(::getpid(), SIGUSR1);
}

std::string Service::HandleReplicationLine(const ServeConfig& config, std::string_view command) {
  if (!replicated_log_) {
    return EncodeAdminResponse(Fail(ErrorCode::kValidationFailed,
                                    "this service runs without --replication kafka", "command",
                                    std::string(command)));
  }
  const replication::LogStatus status = replicated_log_->status();
  if (command == "promote") {
    if (!standby_) {
      return EncodeAdminResponse(Fail(
          ErrorCode::kContractStateConflict,
          "this node is not a standby (it is the " + std::string(ToString(status.role)) + ")"));
    }
    RequestRoleChange(RoleChange::kPromote);
    return EncodeAdminResponse(boost::json::object{{"promoting", true}});
  }
  boost::json::object answer{
      {"role", ToString(status.role)}, {"shard", config.log_shard},        {"epoch", status.epoch},
      {"writer", status.writer},       {"nextOffset", status.next_offset}, {"events", status.size}};
  if (!promotion_failed_.empty()) answer["promotionFailed"] = promotion_failed_;
  return EncodeAdminResponse(std::move(answer));
}

}  // namespace esign::app
