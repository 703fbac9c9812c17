/** What the api benches share: a request run `concurrency` at a time until `requests` are done, its p50/p95, and free ports. */

/**
 * Runs `request(i)` for i = 0 … requests − 1, `concurrency` at a time, and times each; a request that
 * throws fails the run.
 */
export async function latency(request: (i: number) => Promise<void>, options: latency.Options): Promise<{ p50Ms: number; p95Ms: number }> {
  const samples: number[] = []
  let issued = 0
  const worker = async () => {
    while (issued < options.requests) {
      const i = issued++
      const started = performance.now()
      await request(i)
      samples.push(performance.now() - started)
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  return { p50Ms: quantile(samples, 0.5), p95Ms: quantile(samples, 0.95) }
}
export declare namespace latency {
  type Options = { requests: number; concurrency: number }
}

/** Linear interpolation between the closest ranks, to 0.1. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (sorted.length - 1) * q
  const low = sorted[Math.floor(at)] ?? Number.NaN
  const high = sorted[Math.ceil(at)] ?? low
  return Math.round((low + (high - low) * (at - Math.floor(at))) * 10) / 10
}

export { freePort } from '@doorway/storage/TestPostgres'
