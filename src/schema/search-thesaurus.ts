import { stem } from './search-words.js';

// Words that mean the same thing in an API, whatever the API: a user says "picture" where a schema says
// avatar, "remove" where it says delete, "employer" where it says company. A schema cannot say which of its
// words a user would call otherwise (GitHub's avatarUrl is "A URL pointing to the user's public avatar"), so
// these are written down: the everyday words of APIs in general (records, people, commerce, content,
// software), never one API's names. A word matches the others of its groups, where the schema has them, for
// less than a word of its own stem (search-rank.ts). Groups are narrow on purpose: "edit" is not "delete", and
// a word that means many things here ("get", "set", "open", "give") is in none.

const GROUPS: readonly string[] = [
  // Doing
  'create add new make insert',
  'delete remove destroy erase discard',
  'update edit change modify alter',
  'rename retitle',
  'fetch retrieve lookup find',
  'search find query filter',
  'cancel abort revoke withdraw',
  'approve accept confirm',
  'reject decline deny refuse dismiss',
  'hide minimize collapse conceal',
  'close resolve finish complete',
  'restore recover undelete reinstate',
  'revert undo rollback',
  'archive retire shelve',
  'enable activate',
  'disable deactivate suspend',
  'stop pause halt',
  'assign allocate delegate',
  'invite add',
  'follow subscribe watch',
  'unfollow unsubscribe unwatch mute',
  'like favorite favourite star upvote bookmark',
  'react reaction emoji',
  'pin feature stick',
  'move transfer relocate migrate',
  'copy duplicate clone fork',
  'merge combine',
  'upload attach',
  'download export',
  'publish release deploy launch',
  'ship fulfil fulfill dispatch deliver',
  'pay charge capture bill',
  'buy purchase order checkout',
  'refund reimburse chargeback',
  'lock freeze restrict',
  'unlock unfreeze unrestrict',
  'block ban blacklist',
  'unblock unban',
  'tag label categorize classify',
  'comment reply respond remark',
  'review rate rating feedback',
  'schedule plan book reserve',
  'rerun retry restart redo',
  'install setup',
  // Things
  'picture image photo avatar icon logo thumbnail',
  'user person account member people someone',
  'owner creator author maker',
  'customer buyer client shopper purchaser',
  'seller vendor merchant supplier',
  'product item goods merchandise',
  'price cost fee',
  'address location',
  'company employer organization organisation org business',
  'website homepage site url link',
  'description summary about bio blurb',
  'title headline subject',
  'email mail',
  'phone telephone mobile',
  'file document attachment asset',
  'folder directory',
  'team group squad',
  'role permission access privilege',
  'draft unfinished wip',
  'private hidden secret',
  'public visible',
  'status state condition',
  'history log timeline activity',
  'notification alert',
  'settings preferences configuration config options',
  'key token credential',
  'stock inventory quantity',
  'warehouse depot',
  'shipping delivery shipment fulfilment fulfillment',
  'payment transaction',
  'invoice bill receipt',
  'cart basket',
  'discount voucher coupon promo promotion',
  'category collection section',
  'version release',
  'bug issue ticket defect',
  'vulnerability advisory cve',
  'donation donate sponsor sponsorship funding',
  'board project kanban',
  'card task',
  'forum discussion conversation thread',
  'answer solution',
  'workflow pipeline',
  'test check',
  'size disk storage bytes',
  'language locale',
  'birthday birthdate dob',
  'country nation',
];

/** Each word's stem → the stems of the other words of its groups. */
const ALIKE: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const alike = new Map<string, Set<string>>();
  for (const group of GROUPS) {
    const stems = [...new Set(group.split(' ').map((word) => stem(word)))];
    for (const one of stems) {
      const others = alike.get(one) ?? new Set<string>();
      for (const other of stems) if (other !== one) others.add(other);
      alike.set(one, others);
    }
  }
  return alike;
})();

const NONE: ReadonlySet<string> = new Set();

/** The stems that mean what a search word's stem means, in APIs in general. */
export function alikeStems(wordStem: string): ReadonlySet<string> {
  return ALIKE.get(wordStem) ?? NONE;
}
