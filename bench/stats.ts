// Small statistics and number formats for the bench table.

/** The value below which a fraction q of the samples fall (nearest rank; q in 0..1). */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Milliseconds with as many decimals as are meaningful at that size. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (value < 10) return `${value.toFixed(2)} ms`;
  if (value < 100) return `${value.toFixed(1)} ms`;
  return `${Math.round(value)} ms`;
}

export function ratio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : '–';
}

export function perSecond(value: number, unit: string): string {
  return Number.isFinite(value) ? `${Math.round(value).toLocaleString('en-US')} ${unit}/s` : '–';
}

export function megabytes(kb: number): string {
  return Number.isFinite(kb) ? `${(kb / 1024).toFixed(1)} MB` : '–';
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** Rotates a list by n places: each round starts with another subject, so order effects cancel. */
export function rotate<T>(items: readonly T[], n: number): T[] {
  const k = items.length === 0 ? 0 : n % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** Runs `calls` calls one after another, pushing each one's ms onto `samples`. */
export async function timeSequential(
  run: () => Promise<unknown>,
  calls: number,
  samples: number[],
): Promise<void> {
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
}

/** Runs `calls` calls with `concurrency` in flight; returns the elapsed ms. */
export async function timeBurst(
  run: () => Promise<unknown>,
  calls: number,
  concurrency: number,
): Promise<number> {
  let issued = 0;
  const worker = async () => {
    while (issued < calls) {
      issued++;
      await run();
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, calls) }, worker));
  return performance.now() - t0;
}
