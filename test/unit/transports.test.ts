// The pieces of remote mode's front that need no server: signed session ids (session.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { askerOf, canElicit, Sessions } from '../../src/transports/session.ts';

describe('Sessions', () => {
  const sessions = new Sessions('a-state-key-of-32-characters-or-more');

  test('a session id holds whether the client declared elicitation, and reads back at any replica with the key', () => {
    const other = new Sessions('a-state-key-of-32-characters-or-more');
    const asking = other.read(sessions.mint({ elicitation: {} }));
    const silent = other.read(sessions.mint({}));
    assert.equal(asking.kind === 'session' && asking.session.elicitation, true);
    assert.equal(silent.kind === 'session' && silent.session.elicitation, false);
  });

  test('each initialize gets a session of its own', () => {
    const a = sessions.read(sessions.mint({}));
    const b = sessions.read(sessions.mint({}));
    assert.ok(a.kind === 'session' && b.kind === 'session');
    assert.notEqual(a.session.nonce, b.session.nonce);
  });

  test('MUST NOT read a session id signed with another key, or altered, as one of its own', () => {
    const minted = new Sessions('another-state-key-of-32-characters-x').mint({ elicitation: {} });
    assert.equal(sessions.read(minted).kind, 'foreign');
    const [prefix, , mac] = sessions.mint({}).split('.');
    const forged = `${prefix}.${Buffer.from('{"e":1,"n":"x"}').toString('base64url')}.${mac}`;
    assert.equal(sessions.read(forged).kind, 'foreign');
    assert.equal(sessions.read('not a session').kind, 'foreign');
    assert.equal(sessions.read(undefined).kind, 'none');
  });

  test('a URL-only elicitation cannot show a question; an empty object is form mode', () => {
    assert.equal(canElicit({ elicitation: {} }), true);
    assert.equal(canElicit({ elicitation: { form: {}, url: {} } }), true);
    assert.equal(canElicit({ elicitation: { url: {} } }), false);
    assert.equal(canElicit({}), false);
  });

  test('who may answer differs by user and by session', () => {
    const [a, b] = [sessions.read(sessions.mint({})), sessions.read(sessions.mint({}))];
    assert.ok(a.kind === 'session' && b.kind === 'session');
    assert.notEqual(askerOf('alice', a.session), askerOf('bob', a.session));
    assert.notEqual(askerOf('alice', a.session), askerOf('alice', b.session));
  });
});
