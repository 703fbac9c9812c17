/**
 * The SDK size budget (STYLE.md: guard rails in CI). Measures the gzip size of the script build and of
 * the ESM entry minified the way a consumer's bundler would, prints a table and exits 1 above budget.
 * `npm run size`; the sdk's build runs it too, so a build above budget fails.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { transform } from 'esbuild'

// docs/architecture.md §9a: SDK ≤ 7 KB gzip (was 6), for sign-in callbacks, open() arguments and a clean destroy()
export const budget = 7168
/** Issue 23: the Wallet Standard discovery and relay, a host chunk fetched only for a dapp with a Solana network. */
export const standardBudget = 2048
/** Issue 23: the Doorway wallet, the modal as a Wallet Standard wallet for Solana dapps, which the host chunk fetches. */
export const walletBudget = 1536

export type Figure = { name: string; file: string; gzip: number }

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

export const gzipSize = (data: string | Uint8Array) => gzipSync(data, { level: 9 }).length

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`

/** Gzip sizes of the built SDK: run after `npm run build -w sdk`. */
export async function measure(): Promise<Figure[]> {
  const read = (file: string) => readFileSync(join(root, file), 'utf8')
  // Vite's lib mode keeps ES output readable; a dapp's bundler minifies it, so measure what ships.
  const esm = await transform(read('sdk/dist/doorway.mjs'), { minify: true, format: 'esm' })
  return [
    { name: 'script build', file: 'sdk/dist/doorway.js', gzip: gzipSize(read('sdk/dist/doorway.js')) },
    { name: 'ESM entry, minified', file: 'sdk/dist/doorway.mjs', gzip: gzipSize(esm.code) },
  ]
}

/** One message per figure over budget, naming the file and the overage; empty when all fit. */
export function check(figures: readonly Figure[], limit: number): string[] {
  return figures
    .filter((figure) => figure.gzip > limit)
    .map((f) => `${f.file} (${f.name}) is ${f.gzip} B gzip, ${f.gzip - limit} B over the ${limit} B budget`)
}

export function table(figures: readonly Figure[], limit: number): string {
  const rows = figures.map((f) => `  ${f.name.padEnd(22)}${f.file.padEnd(24)}${kb(f.gzip).padStart(10)}`)
  return [`SDK size (gzip -9), budget ${kb(limit)} each`, ...rows].join('\n')
}

/** The Wallet Standard host chunk beside the SDK (both builds load the same file). */
export function measureStandard(): Figure {
  const file = 'sdk/dist/doorway-standard.js'
  return { name: 'Solana host chunk', file, gzip: gzipSize(readFileSync(join(root, file))) }
}

/** The Doorway wallet chunk, which the host chunk fetches from beside itself. */
export function measureWallet(): Figure {
  const file = 'sdk/dist/doorway-wallet.js'
  return { name: 'Doorway wallet chunk', file, gzip: gzipSize(readFileSync(join(root, file))) }
}

async function main() {
  const figures = await measure()
  const standard = measureStandard()
  const wallet = measureWallet()
  console.log(table(figures, budget))
  console.log(table([standard], standardBudget))
  console.log(table([wallet], walletBudget))
  const problems = [...check(figures, budget), ...check([standard], standardBudget), ...check([wallet], walletBudget)]
  for (const problem of problems) console.error(`Size budget exceeded: ${problem}`)
  if (problems.length) process.exit(1)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
