// The bench's report, built from one run's figures: a table each for start-up, calls and introspection (one row
// a subject, saying how it was launched), the targets against the first peer launched alike, before and after
// (--baseline), and where ours is behind.
import { DIRECT, PING, type ColdStart, type Introspection, type Load } from './figures.ts';
import type { BenchOptions } from './options.ts';
import type { Table } from './report.ts';
import { count, median, megabytes, ms, perSecond, quantile, ratio } from './stats.ts';
import { CACHED_FLOOR, FLOOR, OURS, OURS_2026, type Launch, type Subject } from './subjects.ts';

/** Against the first peer, launched alike (mcp-graphql in the README's example): ours over theirs. */
const PEER_TARGETS = { toolsListRatio: 1.0, p50Ratio: 0.8, throughputRatio: 1.3, rssRatio: 0.8 };

/** Targets of an earlier round, against bare node and direct POSTs: kept as reference. */
const TARGETS = {
  toolsListRatio: 1.1,
  p50Ratio: 1.5,
  throughputRatio: 0.9,
  rssMb: 70,
  repeatedIntrospectMs: 5,
};

/** How much worse than the baseline the p50 and the throughput may be (the bar of a refactor). */
const BASELINE_TOLERANCE = 0.05;

/** A part of the report: a table, or lines of text. */
export interface Section {
  title: string;
  table?: Table;
  lines?: string[];
}

export interface Verdict {
  measure: string;
  target: string;
  /** The figure judged, as printed, with any figure beside it. */
  value: string;
  met: boolean;
}

export interface Figures {
  cold: ColdStart;
  load: Load;
  introspection: Introspection | null;
}

const LAUNCHED: Record<Launch, string> = {
  node: 'both launched with node',
  npx: 'both launched through npx',
  'as given': 'the peer launched as given',
};

// Ratios are judged as printed, to two decimals: a third is below the noise, and a "0.90×" marked as missing
// "≥ 0.90×" would only confuse.
const rounded = (r: number) => Math.round(r * 100) / 100;
const microseconds = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} µs` : '–');

export function buildReport(
  subjects: readonly Subject[],
  options: BenchOptions,
  { cold, load, introspection }: Figures,
): { sections: Section[]; verdicts: Verdict[] } {
  const callers = subjects.filter((subject) => subject.measures !== 'start-up');
  const introspected = subjects.filter((subject) => subject.measures === 'all');
  const named = (name: string) => subjects.find((subject) => subject.name === name);
  const peers = subjects.filter((subject) => subject.kind === 'peer');
  /** The first peer launched as `subject` is: its rival in start-up. */
  const alike = (subject: Subject) =>
    subject.launch === 'as given' ? undefined : peers.find((peer) => peer.launch === subject.launch);
  /** The first peer whose calls were measured: the rival in calls. */
  const callPeer = callers.find((subject) => subject.kind === 'peer');
  const baseline = subjects.find((subject) => subject.kind === 'baseline');
  const floor = named(FLOOR);
  /** The floors start-up is read against: as bundled, and behind a bin that turns on the compile cache. */
  const floors = [FLOOR, CACHED_FLOOR].filter((name) => named(name) !== undefined);

  // Start-up: each round spawns bare node and every subject back to back, so the median of the rounds' own
  // ratios leaves out the drift of the machine's speed from one round to the next.
  const initialize = (name: string) => median(cold.initializeMs[name]!);
  const toolsList = (name: string) => median(cold.toolsListMs[name]!);
  const paired = (times: number[], by: number[]) => median(times.map((time, round) => time / by[round]!));
  const listVsBare = (name: string) => paired(cold.toolsListMs[name]!, cold.bareNodeMs);
  const listVs = (name: string, other: string) => paired(cold.toolsListMs[name]!, cold.toolsListMs[other]!);
  const initializeVs = (name: string, other: string) =>
    paired(cold.initializeMs[name]!, cold.initializeMs[other]!);

  const p = (name: string, q: number) => quantile(load.latencyMs[name]!, q);
  const rate = (name: string) => (load.throughput[name]!.calls / load.throughput[name]!.ms) * 1000;
  const cpuUs = (name: string) => (load.throughput[name]!.cpuMs / load.throughput[name]!.calls) * 1000;
  const memory = (name: string) => load.memory[name]!;
  const first = (name: string) => median(introspection?.firstMs[name] ?? []);
  const repeated = (name: string) => median(introspection?.repeatedMs[name] ?? []);
  const introspectRss = (name: string) => median(introspection?.rssKb[name] ?? []);

  const sections: Section[] = [];
  const firstPeerName = options.peers[0]?.name;
  sections.push({
    title: `Start-up: spawn → first answers, median of ${options.rounds} rounds`,
    table: {
      header: [
        'subject',
        'launched with',
        'spawn → initialize',
        'spawn → tools/list',
        'tools/list ÷ node -e ""',
        ...floors.map((name) => `tools/list ÷ ${name}`),
        ...(firstPeerName === undefined ? [] : [`tools/list ÷ ${firstPeerName} launched alike`]),
      ],
      rows: [
        ...subjects.map((subject) => {
          const rival = subject.kind === 'peer' ? undefined : alike(subject);
          return [
            subject.name,
            subject.commandLine,
            ms(initialize(subject.name)),
            ms(toolsList(subject.name)),
            ratio(listVsBare(subject.name)),
            ...floors.map((name) => ratio(listVs(subject.name, name))),
            ...(firstPeerName === undefined ? [] : [rival ? ratio(listVs(subject.name, rival.name)) : '']),
          ];
        }),
        [
          'node -e ""',
          'node -e ""',
          '',
          ms(median(cold.bareNodeMs)),
          ratio(1),
          ...floors.map(() => ''),
          ...(firstPeerName === undefined ? [] : ['']),
        ],
      ],
    },
  });

  const sequentialCalls = memory(OURS).sequentialCalls;
  const allCalls = memory(OURS).calls;
  sections.push({
    title: `Calls: the query ${options.query} through the SDK client over stdio`,
    table: {
      header: [
        'subject',
        'launched with',
        'p50 (÷ direct)',
        'p99',
        `throughput, ${options.concurrency} in flight (÷ direct)`,
        'CPU per call',
        'RSS after start-up',
        `RSS after ${count(sequentialCalls)} calls`,
        `RSS after ${count(allCalls)} calls (peak)`,
      ],
      rows: [
        ...callers.map((subject) => {
          const n = subject.name;
          return [
            n,
            subject.commandLine,
            `${ms(p(n, 0.5))} (${ratio(p(n, 0.5) / p(DIRECT, 0.5))})`,
            ms(p(n, 0.99)),
            `${perSecond(rate(n), 'calls')} (${ratio(rate(n) / rate(DIRECT))})`,
            microseconds(cpuUs(n)),
            megabytes(memory(n).startRssKb),
            megabytes(memory(n).sequentialRssKb),
            `${megabytes(memory(n).rssKb)} (peak ${megabytes(memory(n).peakKb)})`,
          ];
        }),
        [
          DIRECT,
          'fetch from the bench process',
          ms(p(DIRECT, 0.5)),
          ms(p(DIRECT, 0.99)),
          perSecond(rate(DIRECT), 'req'),
          '',
          '',
          '',
          '',
        ],
        [PING, `the SDK client pinging ${OURS}`, ms(p(PING, 0.5)), ms(p(PING, 0.99)), '', '', '', '', ''],
      ],
    },
  });

  if (introspection) {
    sections.push({
      title: `GitHub-schema introspection: graphql_introspect without arguments, medians of ${options.introspectRounds} processes`,
      table: {
        header: ['subject', 'first call', 'repeated', 'RSS after the repeats', 'characters answered'],
        rows: [
          ...introspected.map((subject) => {
            const n = subject.name;
            return [
              n,
              ms(first(n)),
              ms(repeated(n)),
              megabytes(introspectRss(n)),
              count(introspection.chars[n]!),
            ];
          }),
          ['direct POST of the introspection query', ms(median(introspection.directMs)), '', '', ''],
        ],
      },
    });
  }

  // Targets: against the first peer launched alike, and the earlier round's.
  const verdicts: Verdict[] = [];
  const judge = (measure: string, value: number, target: string, met: boolean, beside = '') =>
    verdicts.push({ measure, target, value: `${ratio(value)}${beside}`, met });
  const floorBeside = (value: (name: string) => number) => (floor ? `; ${FLOOR} ${ratio(value(FLOOR))}` : '');
  for (const ours of subjects.filter((subject) => subject.kind === 'ours' && subject.name !== OURS_2026)) {
    const rival = alike(ours);
    if (!rival) continue;
    const value = rounded(listVs(ours.name, rival.name));
    judge(
      `spawn → tools/list vs ${rival.name}, ${LAUNCHED[ours.launch]}`,
      value,
      `≤ ${ratio(PEER_TARGETS.toolsListRatio)}`,
      value <= PEER_TARGETS.toolsListRatio,
      ours.launch === 'node' && floor ? floorBeside((n) => listVs(n, rival.name)) : '',
    );
  }
  if (callPeer) {
    const vs = `vs ${callPeer.name}, ${LAUNCHED[callPeer.launch]}`;
    const p50 = (n: string) => p(n, 0.5) / p(callPeer.name, 0.5);
    const tput = (n: string) => rate(n) / rate(callPeer.name);
    const rss = (n: string) => memory(n).rssKb / memory(callPeer.name).rssKb;
    const target = (sign: string, value: number) => `${sign} ${ratio(value)}`;
    judge(
      `small-query p50 ${vs}`,
      rounded(p50(OURS)),
      target('≤', PEER_TARGETS.p50Ratio),
      rounded(p50(OURS)) <= PEER_TARGETS.p50Ratio,
      floorBeside(p50),
    );
    judge(
      `throughput ${vs}`,
      rounded(tput(OURS)),
      target('≥', PEER_TARGETS.throughputRatio),
      rounded(tput(OURS)) >= PEER_TARGETS.throughputRatio,
      floorBeside(tput),
    );
    judge(
      `RSS after the load ${vs}`,
      rounded(rss(OURS)),
      target('≤', PEER_TARGETS.rssRatio),
      rounded(rss(OURS)) <= PEER_TARGETS.rssRatio,
      floorBeside(rss),
    );
  }
  const earlier: Verdict[] = [
    {
      measure: 'spawn → tools/list vs node -e ""',
      target: `≤ ${ratio(TARGETS.toolsListRatio)}`,
      value: ratio(listVsBare(OURS)),
      met: rounded(listVsBare(OURS)) <= TARGETS.toolsListRatio,
    },
    {
      measure: 'small-query p50 vs a direct POST',
      target: `≤ ${ratio(TARGETS.p50Ratio)}`,
      value: ratio(p(OURS, 0.5) / p(DIRECT, 0.5)),
      met: rounded(p(OURS, 0.5) / p(DIRECT, 0.5)) <= TARGETS.p50Ratio,
    },
    {
      measure: 'throughput vs direct POSTs',
      target: `≥ ${ratio(TARGETS.throughputRatio)}`,
      value: ratio(rate(OURS) / rate(DIRECT)),
      met: rounded(rate(OURS) / rate(DIRECT)) >= TARGETS.throughputRatio,
    },
    {
      measure: 'RSS after the load',
      target: `≤ ${TARGETS.rssMb} MB`,
      value: megabytes(memory(OURS).rssKb),
      met: memory(OURS).rssKb / 1024 <= TARGETS.rssMb,
    },
  ];
  if (introspection) {
    earlier.push({
      measure: 'GitHub-schema introspect, repeated',
      target: `≤ ${TARGETS.repeatedIntrospectMs} ms`,
      value: ms(repeated(OURS)),
      met: repeated(OURS) <= TARGETS.repeatedIntrospectMs,
    });
  }
  const verdictLine = (verdict: Verdict) =>
    `${verdict.met ? 'met    ' : 'NOT MET'}  ${verdict.measure}: ${verdict.value} (target ${verdict.target})`;
  if (verdicts.length > 0) {
    sections.push({
      title: `Targets against ${callPeer?.name ?? firstPeerName}: met ${verdicts.filter((v) => v.met).length} of ${verdicts.length}`,
      lines: verdicts.map(verdictLine),
    });
  }
  sections.push({
    title: `Targets of an earlier round, against bare node and direct POSTs (reference): met ${earlier.filter((v) => v.met).length} of ${earlier.length}`,
    lines: earlier.map(verdictLine),
  });

  // Before and after: the baseline in the same rounds as this checkout's build.
  if (baseline) {
    const b = baseline.name;
    const peerName = callPeer?.name;
    const limit = 1 + BASELINE_TOLERANCE;
    const rows: string[][] = [];
    const row = (
      measure: string,
      of: (name: string) => number,
      shown: (value: number) => string,
      change: number,
      vsPeer: ((name: string) => number) | null,
      rule: 'lower' | 'higher' | null,
    ) => {
      const within =
        rule === null
          ? ''
          : (rule === 'lower' ? rounded(change) <= rounded(limit) : rounded(change) >= rounded(2 - limit))
            ? 'met'
            : 'NOT MET';
      rows.push([
        measure,
        shown(of(OURS)),
        shown(of(b)),
        ratio(change),
        ...(peerName === undefined
          ? []
          : [vsPeer ? ratio(vsPeer(OURS)) : '', vsPeer ? ratio(vsPeer(b)) : '']),
        within,
      ]);
    };
    const against = (of: (name: string) => number) =>
      peerName === undefined ? null : (n: string) => of(n) / of(peerName);
    const p50 = (n: string) => p(n, 0.5);
    const startRival = alike(named(OURS)!);
    row(
      'spawn → tools/list',
      toolsList,
      ms,
      listVs(OURS, b),
      startRival ? (n) => listVs(n, startRival.name) : null,
      null,
    );
    row('small-query p50', p50, ms, p50(OURS) / p50(b), against(p50), 'lower');
    row('small-query p99', (n) => p(n, 0.99), ms, p(OURS, 0.99) / p(b, 0.99), null, null);
    row(
      `throughput, ${options.concurrency} in flight`,
      rate,
      (value) => perSecond(value, 'calls'),
      rate(OURS) / rate(b),
      against(rate),
      'higher',
    );
    row('CPU per call under that load', cpuUs, microseconds, cpuUs(OURS) / cpuUs(b), null, null);
    const rss = (n: string) => memory(n).rssKb;
    row('RSS after the load', rss, megabytes, rss(OURS) / rss(b), against(rss), null);
    if (introspection) {
      row('GitHub-schema introspect, first', first, ms, first(OURS) / first(b), null, null);
      row('GitHub-schema introspect, repeated', repeated, ms, repeated(OURS) / repeated(b), null, null);
    }
    const pct = Math.round(BASELINE_TOLERANCE * 100);
    sections.push({
      title: `Before and after, in the same rounds, both launched with node: ${OURS} is this checkout, ${b} the baseline`,
      table: {
        header: [
          'measure',
          `today: ${OURS}`,
          `before: ${b}`,
          'today ÷ before',
          ...(peerName === undefined ? [] : [`today ÷ ${peerName}`, `before ÷ ${peerName}`]),
          `no more than ${pct}% worse`,
        ],
        rows,
      },
    });
  }

  // Where ours is behind: every figure in which it does worse than the peer launched alike.
  const behind: string[] = [];
  const compare = (
    measure: string,
    ours: string,
    rival: string,
    of: (name: string) => number,
    shown: (value: number) => string,
    higherIsBetter = false,
    pairedRatio?: number,
  ) => {
    const r = pairedRatio ?? of(ours) / of(rival);
    const worse = higherIsBetter ? rounded(r) < 1 : rounded(r) > 1;
    if (worse) behind.push(`${measure}: ${shown(of(ours))} against ${shown(of(rival))} (${ratio(r)})`);
  };
  for (const ours of subjects.filter((subject) => subject.kind === 'ours' && subject.name !== OURS_2026)) {
    const rival = alike(ours);
    if (!rival) continue;
    const how = `${ours.name} vs ${rival.name}, ${LAUNCHED[ours.launch]}`;
    compare(
      `spawn → initialize, ${how}`,
      ours.name,
      rival.name,
      initialize,
      ms,
      false,
      initializeVs(ours.name, rival.name),
    );
    compare(
      `spawn → tools/list, ${how}`,
      ours.name,
      rival.name,
      toolsList,
      ms,
      false,
      listVs(ours.name, rival.name),
    );
  }
  if (callPeer) {
    const how = (measure: string) => `${measure}, ${OURS} vs ${callPeer.name}`;
    const rival = callPeer.name;
    compare(how('small-query p50'), OURS, rival, (n) => p(n, 0.5), ms);
    compare(how('small-query p99'), OURS, rival, (n) => p(n, 0.99), ms);
    compare(how('throughput'), OURS, rival, rate, (v) => perSecond(v, 'calls'), true);
    compare(how('CPU per call'), OURS, rival, cpuUs, microseconds);
    compare(how('RSS after start-up'), OURS, rival, (n) => memory(n).startRssKb, megabytes);
    compare(
      how(`RSS after ${count(sequentialCalls)} calls`),
      OURS,
      rival,
      (n) => memory(n).sequentialRssKb,
      megabytes,
    );
    compare(how(`RSS after ${count(allCalls)} calls`), OURS, rival, (n) => memory(n).rssKb, megabytes);
    if (introspection && introspected.some((subject) => subject.name === rival)) {
      compare(how('GitHub-schema introspect, first'), OURS, rival, first, ms);
      compare(how('GitHub-schema introspect, repeated'), OURS, rival, repeated, ms);
      compare(how('RSS after GitHub introspects'), OURS, rival, introspectRss, megabytes);
    }
  }
  if (peers.length > 0) {
    sections.push({
      title: `Where ${OURS} is behind ${firstPeerName} in this run`,
      lines: behind.length > 0 ? behind : ['nowhere'],
    });
  }
  return { sections, verdicts: [...verdicts, ...earlier] };
}
