// Small pieces of the text every message is made of.

/** 1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 21st: where an entry sits, for messages that cannot quote it. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * 1155402 → "1,155,402", as toLocaleString('en-US') writes it. Not toLocaleString itself: its first call in a
 * process loads ICU's locale data, which a start-up or a first answer would then wait for.
 */
export function thousands(n: number): string {
  const [whole, fraction] = String(n).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** What a hidden secret is replaced by, wherever the server shows text that held one. */
export const REDACTED = '[redacted]';
