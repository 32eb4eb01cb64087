// How long shortening a large GraphQL response to --maxResultChars takes (src/graphql/result-shape.ts), on
// responses of about 1 MB: a long list, a connection of edges, one long string, and a list of dense text
// (emoji), which is shortened again to fit its estimated tokens. Runnable alone:
// `npx tsx bench/result-shaping.ts`; `npm run bench` prints it after its table.
import { fileURLToPath } from 'node:url';
import { fitResponse } from '../src/graphql/result-shape.ts';

const item = (i: number) => ({
  id: `item-${i}`,
  name: `Item number ${i}`,
  description: `A description of item ${i}, long enough to make a list of thousands weigh about a megabyte.`,
});

const CASES: ReadonlyArray<{ name: string; response: Record<string, unknown> }> = [
  {
    name: 'a list of 6,500 objects',
    response: { data: { items: Array.from({ length: 6_500 }, (_, i) => item(i)) } },
  },
  {
    name: 'a connection of 5,000 edges',
    response: {
      data: {
        items: {
          edges: Array.from({ length: 5_000 }, (_, i) => ({ cursor: `c${i}`, node: item(i) })),
          pageInfo: { endCursor: 'c4999', hasNextPage: true },
        },
      },
    },
  },
  { name: 'one string of 1,000,000 characters', response: { data: { blob: 'x'.repeat(1_000_000) } } },
  {
    name: 'a list of 6,500 objects of emoji',
    response: {
      data: { items: Array.from({ length: 6_500 }, (_, i) => ({ id: i, name: '😀🎉🚀✨'.repeat(15) })) },
    },
  },
];

/** Lines of figures: median and worst time to shorten each case to 40,000 characters. */
export function measureResultShaping(rounds = 15): string[] {
  const lines = ['Result shaping (--maxResultChars=40000), median and worst of ' + rounds + ' runs:'];
  for (const { name, response } of CASES) {
    const chars = JSON.stringify(response).length;
    const times: number[] = [];
    let kept = 0;
    for (let i = 0; i < rounds + 2; i++) {
      const started = performance.now();
      const fitted = fitResponse(response, 40_000)!;
      const ms = performance.now() - started;
      if (i >= 2) times.push(ms);
      kept = fitted.text.length;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    lines.push(
      `  ${name} (${chars.toLocaleString('en-US')} characters → ${kept.toLocaleString('en-US')}): ` +
        `${median.toFixed(1)} ms median, ${times.at(-1)!.toFixed(1)} ms worst`,
    );
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  process.stdout.write(`${measureResultShaping().join('\n')}\n`);
