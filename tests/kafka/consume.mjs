// Reads the contract-events topic from the beginning with kafkajs, an independent Kafka client,
// and prints one JSON line {partition, offset, key, value} per message; exits 0 once `count`
// messages were read, 1 when they did not all arrive within the timeout.
//   node consume.mjs BOOTSTRAP TOPIC COUNT [TIMEOUT_MS]
import { Kafka, logLevel } from 'kafkajs';

const [bootstrap, topic, countText, timeoutText] = process.argv.slice(2);
const count = Number(countText);
const timeoutMs = Number(timeoutText ?? 30000);

const kafka = new Kafka({ clientId: 'esign-kafkajs-check', brokers: [bootstrap], logLevel: logLevel.ERROR });
const consumer = kafka.consumer({ groupId: `kafkajs-check-${process.pid}-${Date.now()}` });
let seen = 0;
let done;
const finished = new Promise((resolve) => { done = resolve; });
const timer = setTimeout(() => done(false), timeoutMs);

await consumer.connect();
await consumer.subscribe({ topic, fromBeginning: true });
await consumer.run({
  eachMessage: async ({ partition, message }) => {
    console.log(JSON.stringify({
      partition,
      offset: message.offset,
      key: message.key?.toString(),
      value: JSON.parse(message.value.toString()),
    }));
    if (++seen >= count) done(true);
  },
});
const ok = await finished;
clearTimeout(timer);
await consumer.disconnect();
process.exit(ok ? 0 : 1);
