/**
 * Try the QR flow locally: `npx tsx devnet/src/testWallet.cli.ts <wc-uri> [--reject] [--account N]
 * [--relay ws://127.0.0.1:8790]` pairs the test wallet with the URI a dapp shows, answers the proposal and
 * then the dapp's requests, printing each. While it runs, type `chain <id>`, `account <n>`,
 * `disconnect` or `quit`. Needs the relay and the anvil chains of `npm start`.
 */
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { chains, urls } from './stack.js'
import * as TestWallet from './testWallet.js'

const usage = 'usage: tsx devnet/src/testWallet.cli.ts <wc:…uri> [--reject] [--account N] [--relay ws://…]'
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { reject: { type: 'boolean' }, account: { type: 'string' }, relay: { type: 'string' } },
})
const uri = positionals[0]
if (!uri?.startsWith('wc:')) {
  console.error(usage)
  process.exit(2)
}

const relayUrl = values.relay ?? process.env.DOORWAY_RELAY_URL ?? urls.relay
const say = (line: string) => console.log(`[test wallet] ${line}`)
const wallet = await TestWallet.create({
  relayUrl,
  chains,
  accountIndex: Number(values.account ?? 0),
  policy: values.reject ? 'reject' : 'approve',
  log: say,
})
say(`${wallet.address()} on chain ${wallet.chainId()}, relay ${relayUrl}`)

async function quit(code = 0) {
  await wallet.stop()
  process.exit(code)
}

const session = await wallet.pair(uri).catch((error: Error) => {
  say(error.message)
  return quit(1)
})
if (!session) await quit()
say('answering requests; type `chain <id>`, `account <n>`, `disconnect` or `quit`')

const commands: Record<string, (arg: string) => Promise<unknown>> = {
  chain: (arg) => wallet.switchChain(Number(arg)),
  account: (arg) => wallet.changeAccount(Number(arg)),
  disconnect: () => wallet.disconnect(),
  quit: () => quit(),
}
createInterface({ input: process.stdin }).on('line', (line) => {
  const [name = '', arg = ''] = line.trim().split(/\s+/)
  const command = commands[name]
  if (!command) return say(`unknown command ${JSON.stringify(name)}`)
  command(arg).catch((error: Error) => say(`${name} failed: ${error.message}`))
})
process.once('SIGINT', () => void quit())
