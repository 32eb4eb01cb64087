// A/B of two builds' CPU per call (alternating rounds), with an optional CPU profile of each.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { serveGraphQL } from '/work/main/demo/graphql-server.ts';
import { createLibraryApi } from '/work/main/demo/library-api.ts';
const node = process.argv[2]!;
const prof = process.argv[3];
const builds = { base: '/tmp/ab/base/dist/cli.cjs', ours: '/tmp/ab/ours/dist/cli.cjs' };
const lib = createLibraryApi();
const api = await serveGraphQL(lib.schema, lib.rootValue);
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8'); const x = f.slice(f.lastIndexOf(')') + 2).split(' '); return (Number(x[11]) + Number(x[12])) * 10; };
const sessions: Record<string, { client: Client; pid: number; per: number[] }> = {};
for (const [name, cli] of Object.entries(builds)) {
  const t = new StdioClientTransport({ command: node, args: [...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}/${name}`] : []), cli, `--endpoint=${api.url}`], env: { PATH: process.env.PATH! }, stderr: 'ignore' });
  const client = new Client({ name: 'ab', version: '1' });
  await client.connect(t);
  sessions[name] = { client, pid: t.pid!, per: [] };
}
const burst = async (c: Client, n: number) => { let i = 0; await Promise.all(Array.from({ length: 32 }, async () => { while (i++ < n) await c.callTool({ name: 'graphql_query', arguments: { query: '{ books { title } }' } }); })); api.requests.length = 0; };
for (const s of Object.values(sessions)) await burst(s.client, 2000);
const rounds = Number(process.argv[4] ?? 10);
for (let r = 0; r < rounds; r++) {
  for (const name of (r % 2 ? ['ours', 'base'] : ['base', 'ours'])) {
    const s = sessions[name]!; const b = cpu(s.pid); await burst(s.client, 3000); s.per.push(((cpu(s.pid) - b) * 1000) / 3000);
  }
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const ratios = sessions.ours!.per.map((v, i) => v / sessions.base!.per[i]!);
console.log('base', med(sessions.base!.per).toFixed(0), 'ours', med(sessions.ours!.per).toFixed(0), 'median ratio', med(ratios).toFixed(3));
console.log('base rounds', sessions.base!.per.map((v) => v.toFixed(0)).join(' '));
console.log('ours rounds', sessions.ours!.per.map((v) => v.toFixed(0)).join(' '));
for (const s of Object.values(sessions)) await s.client.close();
await new Promise((r) => setTimeout(r, 1500));
await api.close();
