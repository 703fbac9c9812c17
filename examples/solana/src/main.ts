// A Solana dapp as many are written: @wallet-standard/app finds the page's wallets and
// @solana/wallet-adapter's StandardWalletAdapter drives each (what @solana/wallet-adapter-react does for
// every Wallet Standard wallet). The Doorway modal is one of them, found with no glue (issue 23).
import { StandardWalletAdapter } from '@solana/wallet-standard-wallet-adapter-base'
import { Connection, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { getWallets } from '@wallet-standard/app'
import type { Wallet } from '@wallet-standard/base'
import { ed25519 } from '@noble/curves/ed25519'

declare const __SOLANA_RPC__: string
declare global {
  // The SDK's script build, loaded by index.html before this bundle.
  var Doorway: typeof import('@doorway/sdk')
}

const connection = new Connection(__SOLANA_RPC__, 'confirmed')
const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const status = (text: string) => (element('status').textContent = text)

// The modal with the local Solana chain; the dapp never calls it again: the adapter opens it.
Doorway.createModal({
  projectId: 'doorway-solana-example',
  networks: [
    {
      id: 'CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3',
      chainNamespace: 'solana',
      name: 'Solana Local',
      nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
      rpcUrls: { default: { http: [__SOLANA_RPC__] } },
      testnet: true,
    },
  ],
})

let adapter: StandardWalletAdapter | undefined

// @solana/wallet-adapter-base's isWalletAdapterCompatibleStandardWallet, which wallet-adapter-react applies to every wallet.
const compatible = ({ features }: Wallet) =>
  'standard:connect' in features && 'standard:events' in features && ('solana:signAndSendTransaction' in features || 'solana:signTransaction' in features)

function listWallets() {
  const wallets = getWallets().get().filter(compatible)
  element('wallets').replaceChildren(
    ...wallets.map((wallet) => {
      const button = Object.assign(document.createElement('button'), { type: 'button', textContent: `Connect ${wallet.name}` })
      button.addEventListener('click', () => void connect(new StandardWalletAdapter({ wallet: wallet as never })))
      const item = document.createElement('li')
      item.append(button)
      return item
    }),
  )
}

async function connect(next: StandardWalletAdapter) {
  status(`Connecting ${next.name}…`)
  try {
    await next.connect()
  } catch (error) {
    return status(`Not connected: ${(error as Error).message}`)
  }
  adapter = next
  next.on('disconnect', show)
  next.on('connect', show)
  status(`Connected with ${next.name}`)
  await show()
}

async function show() {
  const key = adapter?.publicKey
  element('account').hidden = !key
  if (!key) return
  element('address').textContent = key.toBase58()
  const lamports = await connection.getBalance(key)
  element('balance').textContent = `${lamports / LAMPORTS_PER_SOL} SOL`
}

async function signMessage() {
  if (!adapter?.publicKey || !adapter.signMessage) return
  const message = new TextEncoder().encode(`Hello from the Solana example, ${new Date().toISOString()}`)
  try {
    const signature = await adapter.signMessage(message)
    const valid = ed25519.verify(signature, message, adapter.publicKey.toBytes())
    status(valid ? 'Signature verified' : 'The signature does not verify')
  } catch (error) {
    status(`Not signed: ${(error as Error).message}`)
  }
}

async function send(form: HTMLFormElement) {
  if (!adapter?.publicKey) return
  const data = new FormData(form)
  try {
    const to = new PublicKey(String(data.get('to')).trim())
    const lamports = Math.round(Number(data.get('amount')) * LAMPORTS_PER_SOL)
    if (!(lamports > 0)) throw new Error('Enter an amount above zero')
    const transaction = new Transaction().add(SystemProgram.transfer({ fromPubkey: adapter.publicKey, toPubkey: to, lamports }))
    status('Waiting for the wallet…')
    // No signAndSend on Doorway: the adapter signs through it and sends through this dapp's own RPC.
    const signature = await adapter.sendTransaction(transaction, connection)
    status(`Sent ${signature}; confirming…`)
    await confirmed(signature)
    status(`Confirmed ${signature}`)
    await show()
  } catch (error) {
    status(`Not sent: ${(error as Error).message}`)
  }
}

// Polls the signature's status: the local node answers it at once once the transaction is in.
async function confirmed(signature: string) {
  for (let attempt = 0; attempt < 60; attempt++) {
    const { value } = await connection.getSignatureStatuses([signature])
    if (value[0]?.err) throw new Error('The transaction failed')
    if (value[0]?.confirmationStatus === 'confirmed' || value[0]?.confirmationStatus === 'finalized') return
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error('Not confirmed in 30 s')
}

listWallets()
getWallets().on('register', listWallets)
getWallets().on('unregister', listWallets)
element('sign').addEventListener('click', () => void signMessage())
element('disconnect').addEventListener('click', () => void adapter?.disconnect().then(show))
element<HTMLFormElement>('send').addEventListener('submit', (event) => {
  event.preventDefault()
  void send(event.currentTarget as HTMLFormElement)
})
