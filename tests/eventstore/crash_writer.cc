// Helper process of crash_test.cc: appends forever to a RocksDB store and reports every
// acknowledged append on stdout, until the test kills it with SIGKILL.
//
// Usage: eventstore_crash_writer <data_dir> <threads>
// Each acknowledgement is one 16-byte record: position (u64), thread (u32), sequence (u32), in the
// machine's byte order, written with a single write(2) so records never interleave.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "eventstore/rocksdb_event_store.h"

namespace {

struct Ack {
  uint64_t position;
  uint32_t thread;
  uint32_t sequence;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace esign::eventstore;
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <data_dir> <threads>\n", argv[0]);
    return 2;
  }
  RocksStoreOptions options;
  options.data_dir = argv[1];
  options.write_buffer_bytes = size_t{4} << 20;
  auto store = RocksEventStore::Open(options);
  if (!store) {
    std::fprintf(stderr, "open: %s\n", store.error().message.c_str());
    return 1;
  }
  const int threads = std::atoi(argv[2]);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      const std::string stream = "crash-" + std::to_string(t);
      // A restarted writer continues its stream where the previous one's writes ended.
      const auto current = (*store)->CurrentVersion(stream);
      if (!current) std::_Exit(1);
      for (auto seq = static_cast<uint32_t>(current->value());; ++seq) {
        NewEvent event;
        event.event_id = "evt-" + std::to_string(t) + "-" + std::to_string(seq);
        event.type = "crash.test";
        event.data = R"({"payload":")" + std::string(64 + seq % 200, 'x') + R"("})";
        auto result = (*store)->Append(stream, ExpectedVersion::Exactly(esign::StreamVersion(seq)),
                                       {std::move(event)});
        if (!result) {
          std::fprintf(stderr, "append: %s\n", result.error().message.c_str());
          std::_Exit(1);
        }
        const Ack ack{result->first_position.value(), static_cast<uint32_t>(t), seq};
        if (::write(STDOUT_FILENO, &ack, sizeof ack) != sizeof ack) std::_Exit(1);
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
}
