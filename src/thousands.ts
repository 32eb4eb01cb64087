/**
 * 1155402 → "1,155,402", as toLocaleString('en-US') writes it. Not toLocaleString itself: its first call in a
 * process loads ICU's locale data, which a start-up or a first answer would then wait for.
 */
export function thousands(n: number): string {
  const [whole, fraction] = String(n).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
