import { createHash } from 'node:crypto';

// The Lua scripts of the Redis store (redis.ts): each runs alone in Redis, so that what it checks and what it
// changes happen as one step, whichever replica sends it and whatever else runs.

/**
 * Takes a question and routes its answer, atomically (a script runs alone: no other command, and so no other
 * answer, runs between its steps). KEYS[1] the question (`q:<id>`: the holding replica's id, a space, the asker's
 * digest), KEYS[2] its answered-mark (`a:<id>`); ARGV[1] the answering asker's digest, ARGV[2] this replica's id,
 * ARGV[3] the prefix of replicas' channels, ARGV[4] the message to publish.
 *  - no question: the mark tells 'answered', 'asker-gone' (the first answer found no one), or 'unknown';
 *  - another asker: 'not-yours', and nothing changes;
 *  - else the question is taken (deleted: no later answer finds it) and marked for as long as it would have
 *    stayed open; held here: 'local' (delivered in-process); elsewhere: PUBLISHed to its replica, whose count of
 *    receivers says whether it is still there ('delivered') or gone ('asker-gone', and so marked).
 */
const ANSWER_SCRIPT = `
local held = redis.call('GET', KEYS[1])
local space = held and string.find(held, ' ', 1, true)
if not space then
  local mark = redis.call('GET', KEYS[2])
  if mark == 'gone' then return 'asker-gone' end
  if mark then return 'answered' end
  return 'unknown'
end
if string.sub(held, space + 1) ~= ARGV[1] then return 'not-yours' end
local replica = string.sub(held, 1, space - 1)
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 1000 then ttl = 1000 end
redis.call('DEL', KEYS[1])
if replica == ARGV[2] then
  redis.call('SET', KEYS[2], 'answered', 'PX', ttl)
  return 'local'
end
if redis.call('PUBLISH', ARGV[3] .. replica, ARGV[4]) == 0 then
  redis.call('SET', KEYS[2], 'gone', 'PX', ttl)
  return 'asker-gone'
end
redis.call('SET', KEYS[2], 'answered', 'PX', ttl)
return 'delivered'
`;
/**
 * The store's epoch (KEYS[1]): written once, at first use, with a fresh id (ARGV[1]), and read. A Redis that
 * lost its data (restarted without persistence) has none, and the next replica to ask writes another.
 */
const EPOCH_SCRIPT = `
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
`;

/**
 * A single-use mark (KEYS[2]) taken under an epoch (ARGV[1]): 'stale' when the store's epoch (KEYS[1]) is another
 * or gone (what the mark guards was minted before the store lost its marks), else 'first' if it was free (now
 * marked for ARGV[2] seconds) or 'used'. In one script, so that no restart falls between the check and the mark.
 */
const CLAIM_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'stale' end
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[2]) then return 'first' end
return 'used'
`;

/** A Lua script and its SHA-1, for EVALSHA. */
export interface Script {
  readonly text: string;
  readonly sha: string;
}
const script = (text: string): Script => ({ text, sha: createHash('sha1').update(text).digest('hex') });
export const ANSWER = script(ANSWER_SCRIPT);
export const EPOCH = script(EPOCH_SCRIPT);
export const CLAIM = script(CLAIM_SCRIPT);
