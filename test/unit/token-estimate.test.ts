// The token estimate against a real tokenizer (o200k, gpt-tokenizer) on JSON of many kinds of text: high
// enough for dense text that a result within the estimate stays within a model's limit, and not so high for
// ordinary text that results are shortened for nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateTokens, MAX_TOKENS_PER_CHAR } from '../../src/graphql/token-estimate.ts';
import { seeded } from '../fixtures/seeded.ts';

const random = seeded(17);
const pick = (n: number) => Math.floor(random() * n);
const chars = (length: number, from: number, span: number) =>
  Array.from({ length }, () => String.fromCodePoint(from + pick(span))).join('');
const ofAlphabet = (length: number, alphabet: string) =>
  Array.from({ length }, () => alphabet[pick(alphabet.length)]).join('');
const hex = (length: number) => ofAlphabet(length, '0123456789abcdef');
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const rows = (count: number, row: (i: number) => unknown) =>
  JSON.stringify(Array.from({ length: count }, (_, i) => row(i)));

const WORDS =
  'the quick brown fox jumps over a lazy dog while reading schemas and books about science history'.split(
    ' ',
  );

/** The kinds of text, each as JSON of a few hundred rows, with the bounds its estimate must keep. */
const KINDS: Array<{ name: string; json: string; atLeast: number; atMost: number }> = [
  // Ordinary results: not shortened for nothing (40,000 characters must stay within 20,000 estimated tokens).
  {
    name: 'English JSON',
    json: rows(400, (i) => ({
      id: `b${i}`,
      title: Array.from({ length: 4 }, () => WORDS[pick(WORDS.length)]).join(' '),
      rating: pick(5),
      author: { name: 'Ursula K. Le Guin', born: 1929 },
    })),
    atLeast: 1,
    atMost: 1.5,
  },
  {
    name: 'an API of URLs, dates and ids',
    json: rows(200, (i) => ({
      node_id: ofAlphabet(16, BASE64),
      html_url: `https://github.com/octocat${i}/Hello-World/pull/${i}`,
      title: 'Fix the parser when a fragment spreads itself',
      created_at: new Date(1_700_000_000_000 + i * 86_400_000).toISOString(),
      labels: [{ name: 'bug', color: hex(6) }],
    })),
    atLeast: 1,
    atMost: 1.5,
  },
  // Dense text: the estimate may not be (much) below the real count.
  { name: 'emoji', json: rows(400, () => ({ e: chars(20, 0x1f600, 80) })), atLeast: 1, atMost: 2 },
  { name: 'random ASCII', json: rows(400, () => ({ s: chars(60, 33, 94) })), atLeast: 1, atMost: 2 },
  { name: 'base64', json: rows(400, () => ({ s: ofAlphabet(80, BASE64) })), atLeast: 0.95, atMost: 2 },
  { name: 'hex', json: rows(400, () => ({ s: hex(64) })), atLeast: 1, atMost: 2 },
  {
    name: 'UUIDs',
    json: rows(400, () => ({ id: [hex(8), hex(4), hex(4), hex(4), hex(12)].join('-') })),
    atLeast: 1,
    atMost: 2,
  },
  {
    name: 'numbers',
    json: rows(400, () => ({ n: Array.from({ length: 10 }, () => random()) })),
    atLeast: 1,
    atMost: 2,
  },
  {
    name: 'random letters',
    json: rows(400, () => ({ s: ofAlphabet(40, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ') })),
    atLeast: 1,
    atMost: 2,
  },
  { name: 'random lowercase', json: rows(400, () => ({ s: chars(40, 97, 26) })), atLeast: 0.9, atMost: 2 },
  {
    name: 'symbols and arrows',
    json: rows(400, () => ({ s: chars(30, 0x2190, 0x600) })),
    atLeast: 0.95,
    atMost: 2,
  },
  // Natural text of other scripts: estimated high, so that it keeps at least half of what it could.
  {
    name: 'Chinese',
    json: rows(300, () => ({ t: '北京是中华人民共和国的首都，也是全国的政治、文化和国际交往中心。' })),
    atLeast: 1,
    atMost: 2.2,
  },
  {
    name: 'Japanese',
    json: rows(300, () => ({ t: 'すばやい茶色のキツネがのろまな犬を飛び越えます。東京は日本の首都です。' })),
    atLeast: 1,
    atMost: 2,
  },
  {
    name: 'Korean',
    json: rows(300, () => ({
      t: '빠른 갈색 여우가 게으른 개를 뛰어넘습니다. 서울은 대한민국의 수도입니다.',
    })),
    atLeast: 1,
    atMost: 2,
  },
  {
    name: 'Russian',
    json: rows(400, () => ({ t: 'Быстрая коричневая лиса прыгает через ленивую собаку' })),
    atLeast: 1,
    atMost: 2,
  },
  {
    name: 'Arabic',
    json: rows(400, () => ({ t: 'الثعلب البني السريع يقفز فوق الكلب الكسول' })),
    atLeast: 1,
    atMost: 2,
  },
  {
    name: 'Hindi',
    json: rows(400, () => ({ t: 'तेज़ भूरी लोमड़ी आलसी कुत्ते के ऊपर कूदती है' })),
    atLeast: 1,
    atMost: 2,
  },
  { name: 'Thai', json: rows(400, () => ({ t: 'สุนัขจิ้งจอกสีน้ำตาลกระโดดข้ามสุนัขขี้เกียจ' })), atLeast: 1, atMost: 2 },
];

describe('estimateTokens', () => {
  for (const { name, json, atLeast, atMost } of KINDS) {
    test(`estimates ${name} between ${atLeast}× and ${atMost}× its o200k tokens`, (t) => {
      const real = encode(json).length;
      const ratio = estimateTokens(json) / real;
      t.diagnostic(`${json.length} characters, ${real} tokens, estimate ${ratio.toFixed(2)}×`);
      assert.ok(ratio >= atLeast && ratio <= atMost, `estimate ${ratio.toFixed(2)}× the real count`);
    });
  }

  test('counts nothing for nothing, and at most MAX_TOKENS_PER_CHAR per character', () => {
    assert.equal(estimateTokens(''), 0);
    for (const { json } of KINDS) assert.ok(estimateTokens(json) <= json.length * MAX_TOKENS_PER_CHAR);
  });
});
