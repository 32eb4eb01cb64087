// Who is shown MCP Apps: the declaration a client makes (src/apps/declared.ts), and remote mode's session id,
// which carries it to whichever replica serves the client's next request (src/transports/session.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { declaresApps } from '../../src/apps/declared.ts';
import { Sessions } from '../../src/transports/session.ts';

const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

describe('declaresApps', () => {
  test('a client declares MCP Apps with the extension and the MCP App HTML type among its mimeTypes', () => {
    assert.equal(declaresApps(APPS), true);
    const more = { mimeTypes: ['text/uri-list', 'text/html;profile=mcp-app'] };
    assert.equal(declaresApps({ elicitation: {}, extensions: { 'io.modelcontextprotocol/ui': more } }), true);
  });

  test('MUST NOT count anything else as MCP Apps', () => {
    for (const capabilities of [
      undefined,
      null,
      'apps',
      {},
      { elicitation: {} },
      { extensions: {} },
      { extensions: { 'io.modelcontextprotocol/ui': {} } },
      { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } } },
      { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: 'text/html;profile=mcp-app' } } },
      { extensions: { 'io.modelcontextprotocol/apps': { mimeTypes: ['text/html;profile=mcp-app'] } } },
      { experimental: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } },
    ]) {
      assert.equal(declaresApps(capabilities), false, JSON.stringify(capabilities));
    }
  });
});

describe('a session id carries MCP Apps', () => {
  const sessions = new Sessions('a-state-key-of-32-characters-or-more');

  test('it holds whether the client declared MCP Apps at initialize, beside elicitation, at any replica', () => {
    const replica = new Sessions('a-state-key-of-32-characters-or-more');
    const apps = replica.read(sessions.mint(APPS));
    const both = replica.read(sessions.mint({ ...APPS, elicitation: {} }));
    const plain = replica.read(sessions.mint({ elicitation: {} }));
    assert.ok(apps.kind === 'session' && both.kind === 'session' && plain.kind === 'session');
    assert.deepEqual([apps.session.apps, apps.session.elicitation], [true, false]);
    assert.deepEqual([both.session.apps, both.session.elicitation], [true, true]);
    assert.deepEqual([plain.session.apps, plain.session.elicitation], [false, true]);
  });

  test('a client that declares no MCP Apps gets a session id of the same shape as before MCP Apps', () => {
    const [, body] = sessions.mint({ elicitation: {} }).split('.');
    assert.deepEqual(Object.keys(JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'))), ['e', 'n']);
  });

  test('MUST NOT read MCP Apps into an altered session id', () => {
    const [prefix, body, mac] = sessions.mint({}).split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...payload, a: 1 })).toString('base64url');
    assert.equal(sessions.read(`${prefix}.${forged}.${mac}`).kind, 'foreign');
  });
});
