// npm run bench:telemetry: what OpenTelemetry costs a call. The same build (dist/cli.cjs) runs twice, once with
// telemetry off and once exporting traces and metrics (http/protobuf) to an OTLP receiver on 127.0.0.1; both are
// driven over stdio by the MCP SDK client against the demo library API, in alternating rounds so that the noise
// of a shared machine falls on both alike. Per round: the CPU time the server process spent per call at 32 calls
// in flight, and the median latency of sequential calls. `--node=PATH` runs the servers on another Node.js.
// Progress goes to stderr; stdout gets the results only.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startOtlpReceiver } from '../test/fixtures/otlp-receiver.ts';
import { startApi } from './api.ts';
import { nodeVersion } from './launch.ts';
import { cpuMsOf, killAll, openSession, type Session } from './processes.ts';
import { median, rotate, timeBurst, timeSequential } from './stats.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    node: { type: 'string', default: process.execPath },
    rounds: { type: 'string', default: '8' },
    calls: { type: 'string', default: '2000' },
  },
});
const node = values.node!;
const ROUNDS = Number(values.rounds);
const CALLS = Number(values.calls);
const IN_FLIGHT = 32;
const SEQUENTIAL = 200;
const QUERY = '{ books(first: 3) { title author { name } } }';

const progress = (text: string) => process.stderr.write(`bench:telemetry: ${text}\n`);

interface Subject {
  readonly name: 'off' | 'on';
  readonly session: Session;
  readonly cpuPerCallUs: number[];
  readonly p50Ms: number[];
}

async function main(): Promise<void> {
  const api = await startApi(root, true);
  const receiver = await startOtlpReceiver();
  const launch = (env: Record<string, string>) =>
    openSession({
      command: node,
      args: [join(root, 'dist/cli.cjs'), `--endpoint=${api.url}`],
      env: { PATH: process.env.PATH ?? '', ...env },
    });
  const subjects: Subject[] = [
    { name: 'off', session: await launch({}), cpuPerCallUs: [], p50Ms: [] },
    {
      name: 'on',
      session: await launch({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: 'bench' }),
      cpuPerCallUs: [],
      p50Ms: [],
    },
  ];
  try {
    for (const subject of subjects) {
      progress(`warming up telemetry ${subject.name}`);
      await timeBurst(() => subject.session.query(QUERY), CALLS, IN_FLIGHT);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const subject of rotate(subjects, round)) {
        const pid = subject.session.serverPid();
        const before = cpuMsOf(pid);
        await timeBurst(() => subject.session.query(QUERY), CALLS, IN_FLIGHT);
        subject.cpuPerCallUs.push(((cpuMsOf(pid) - before) * 1000) / CALLS);
        const samples: number[] = [];
        await timeSequential(() => subject.session.query(QUERY), SEQUENTIAL, samples);
        subject.p50Ms.push(median(samples));
        api.forget();
        receiver.clear();
      }
      progress(`round ${round + 1} of ${ROUNDS}`);
    }
  } finally {
    for (const subject of subjects) await subject.session.close();
    await receiver.close();
    await api.close();
  }
  const [off, on] = subjects as [Subject, Subject];
  const cpu = (subject: Subject) => median(subject.cpuPerCallUs);
  const p50 = (subject: Subject) => median(subject.p50Ms);
  // Each round's on ÷ off: the two ran back to back, under the same load.
  const ratios = on.cpuPerCallUs.map((value, round) => value / off.cpuPerCallUs[round]!);
  const lines = [
    `telemetry on ÷ off, Node ${nodeVersion(node)}, ${ROUNDS} rounds of ${CALLS} calls at ${IN_FLIGHT} in flight`,
    `| measure                     | off      | on       | on ÷ off |`,
    `| --------------------------- | -------- | -------- | -------- |`,
    `| CPU per call (median round) | ${cpu(off).toFixed(0)} µs   | ${cpu(on).toFixed(0)} µs   | ${(cpu(on) / cpu(off)).toFixed(2)}×    |`,
    `| sequential p50              | ${p50(off).toFixed(2)} ms  | ${p50(on).toFixed(2)} ms  | ${(p50(on) / p50(off)).toFixed(2)}×    |`,
    `median of the rounds' on ÷ off, CPU per call: ${median(ratios).toFixed(2)}×`,
    `rounds, CPU per call (µs): off ${off.cpuPerCallUs.map((v) => v.toFixed(0)).join(' ')}; on ${on.cpuPerCallUs.map((v) => v.toFixed(0)).join(' ')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  killAll();
  process.stderr.write(`bench:telemetry: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
