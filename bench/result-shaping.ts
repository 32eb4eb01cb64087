// How long shortening a large GraphQL response to --maxResultChars takes (src/graphql/result-shape.ts), and how
// long it holds the event loop at a time: on responses of about 1 MB of ordinary shapes (a long list, a
// connection of edges, one long string, a list of dense text (emoji), which is shortened again to fit its
// estimated tokens), on a hostile answer (lists nested 990 deep with 400 siblings at each level,
// 794 KB), and on hostile answers of about 1 MiB of every shape of test/fixtures/hostile-responses.ts.
// Runnable alone: `npx tsx bench/result-shaping.ts`; `npm run bench` prints it after its table.
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { fitResponse } from '../src/graphql/result-shape.ts';
import { HOSTILE_SHAPES, hostileResponse } from '../test/fixtures/hostile-responses.ts';

const MAX_RESULT_CHARS = 40_000;

const item = (i: number) => ({
  id: `item-${i}`,
  name: `Item number ${i}`,
  description: `A description of item ${i}, long enough to make a list of thousands weigh about a megabyte.`,
});

/** A hostile answer: each level a list of the next level and 400 zeros, 990 levels deep. */
function deeplyNestedAnswer(): Record<string, unknown> {
  let list: unknown[] = [];
  for (let level = 0; level < 990; level++) list = [list, ...Array.from({ length: 400 }, () => 0)];
  return { data: { a: list } };
}

const CASES: ReadonlyArray<{ name: string; response: () => Record<string, unknown> }> = [
  {
    name: 'a list of 6,500 objects',
    response: () => ({ data: { items: Array.from({ length: 6_500 }, (_, i) => item(i)) } }),
  },
  {
    name: 'a connection of 5,000 edges',
    response: () => ({
      data: {
        items: {
          edges: Array.from({ length: 5_000 }, (_, i) => ({ cursor: `c${i}`, node: item(i) })),
          pageInfo: { endCursor: 'c4999', hasNextPage: true },
        },
      },
    }),
  },
  { name: 'one string of 1,000,000 characters', response: () => ({ data: { blob: 'x'.repeat(1_000_000) } }) },
  {
    name: 'a list of 6,500 objects of emoji',
    response: () => ({
      data: { items: Array.from({ length: 6_500 }, (_, i) => ({ id: i, name: '😀🎉🚀✨'.repeat(15) })) },
    }),
  },
  { name: 'lists nested 990 deep, 400 siblings each', response: deeplyNestedAnswer },
  ...HOSTILE_SHAPES.map((shape) => ({
    name: `hostile: ${shape}`,
    response: () => hostileResponse(shape, 1_040_000, { depth: 990, keyChars: 12, seed: 24 }),
  })),
];

/**
 * Lines of figures: for each case, the median and worst time to shorten it to 40,000 characters, and the
 * longest the event loop was held at a time meanwhile (LoopProbe), in the median and the worst run.
 */
export async function measureResultShaping(rounds = 15): Promise<string[]> {
  const lines = [
    `Result shaping (--maxResultChars=${MAX_RESULT_CHARS}): time, and the longest event-loop delay meanwhile, median and worst of ${rounds} runs:`,
  ];
  for (const { name, response: make } of CASES) {
    const response = make();
    const text = JSON.stringify(response);
    const times: number[] = [];
    const delays: number[] = [];
    let kept = 0;
    for (let i = 0; i < rounds + 2; i++) {
      const probe = new LoopProbe();
      await sleep(5);
      probe.reset();
      const started = performance.now();
      const fitted = (await fitResponse(response, MAX_RESULT_CHARS, text))!;
      const ms = performance.now() - started;
      // The probe fires once more, counting the last stretch of work (all of it, for a case done in one).
      await sleep(5);
      probe.stop();
      if (i >= 2) {
        times.push(ms);
        delays.push(probe.longest);
      }
      kept = fitted.text.length;
    }
    lines.push(
      `  ${name} (${text.length.toLocaleString('en-US')} characters → ${kept.toLocaleString('en-US')}): ` +
        `${spread(times)}; event loop held at most ${spread(delays)}`,
    );
  }
  return lines;
}

/**
 * The longest gap between the turns of a 1 ms interval timer: how long the event loop was held at a time.
 * (monitorEventLoopDelay, tried first, reported about 1 ms for a 20 ms block that starts just after reset().)
 */
class LoopProbe {
  longest = 0;
  #last = performance.now();
  readonly #timer = setInterval(() => {
    const now = performance.now();
    this.longest = Math.max(this.longest, now - this.#last);
    this.#last = now;
  }, 1);

  reset(): void {
    this.longest = 0;
    this.#last = performance.now();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

function spread(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms median, ${sorted.at(-1)!.toFixed(1)} ms worst`;
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  process.stdout.write(`${(await measureResultShaping()).join('\n')}\n`);
