// The demo host page: what a dapp writes. Loaded after the SDK's script build (window.Doorway).
const anvil = (id, port) => ({
  id,
  name: `Anvil ${id}`,
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [`http://127.0.0.1:${port}`] } },
  testnet: true,
})

// Try options from the address bar: ?features={"email":false}&themeMode=light&projectId=
const params = new URLSearchParams(location.search)
const overrides = {
  features: params.has('features') ? JSON.parse(params.get('features')) : {},
  ...(params.has('themeMode') && { themeMode: params.get('themeMode') }),
}

// ?chains=31337,31339 picks the dapp's networks (anvil ports follow the ids: 31337 → 8545).
const chainIds = (params.get('chains') ?? '31337,31338').split(',').map(Number)

// The local stack's other chains (issue 23): Solana over litesvm, Bitcoin regtest over the Esplora stand-in,
// and Polkadot (ids and WalletConnect signing only). ?namespaces=solana,bip122 picks them; none: EVM only.
const others = {
  solana: {
    id: 'CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3',
    chainNamespace: 'solana',
    name: 'Solana Local',
    nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
    rpcUrls: { default: { http: ['http://127.0.0.1:8899'] } },
    testnet: true,
  },
  bip122: {
    id: '0f9188f13cb7b2c71f2a335e3a4fc328',
    chainNamespace: 'bip122',
    name: 'Bitcoin Regtest',
    nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
    // The Esplora API the modal follows payments on (the devnet's stand-in).
    rpcUrls: { default: { http: ['http://127.0.0.1:8794'] } },
    testnet: true,
  },
  polkadot: {
    id: '91b171bb158e2d3848fa23a9f1c25182',
    chainNamespace: 'polkadot',
    name: 'Polkadot',
    nativeCurrency: { name: 'Polkadot', symbol: 'DOT', decimals: 10 },
  },
}
const namespaces = (params.get('namespaces') ?? 'solana,bip122,polkadot').split(',').filter((ns) => others[ns])

const modal = Doorway.createModal({
  projectId: params.has('projectId') ? params.get('projectId') : 'doorway-demo',
  themeMode: overrides.themeMode,
  networks: [...chainIds.map((id) => anvil(id, 8545 + id - 31337)), ...namespaces.map((ns) => others[ns])],
  metadata: {
    name: 'Doorway demo',
    description: 'The Doorway local demo',
    url: location.origin,
    icons: [],
  },
  features: { history: true, ...overrides.features },
  termsConditionsUrl: `${location.origin}/terms`,
  privacyPolicyUrl: `${location.origin}/privacy`,
  // ?options={"enableNetworkSwitch":false} tries any other option.
  ...(params.has('options') && JSON.parse(params.get('options'))),
})
// Handy in devtools, and for the e2e tests that play the dapp.
window.modal = modal

const log = document.getElementById('log')
function record(name, data) {
  const item = document.createElement('li')
  item.textContent = `${name} ${JSON.stringify(data)}`
  log.append(item)
}
for (const event of ['open', 'close', 'connect', 'disconnect', 'accountChanged', 'chainChanged'])
  modal.subscribe(event, (data) => record(event, data))

// The dapp's side: what it reads through modal.getProvider(), a standard EIP-1193 provider.
const provider = modal.getProvider()
const show = (id, text) => (document.getElementById(id).textContent = text)
const sendButton = document.getElementById('send')
const openSendButton = document.getElementById('open-send')
const signButton = document.getElementById('sign')
const batchButton = document.getElementById('batch')
const fundButton = document.getElementById('fund')

async function refresh() {
  const { status, address, chainId, profileName } = modal.getState()
  show('status', status)
  show('address', address ?? '—')
  // The account's name (e.g. alice.doorway.id), once it has one.
  show('name', profileName ?? '—')
  show('chain', chainId ?? '—')
  sendButton.disabled = openSendButton.disabled = signButton.disabled = batchButton.disabled = status !== 'connected'
  fundButton.disabled = status !== 'connected' || !devnetRpc(chainId)
  // The provider speaks EVM only: another namespace's balance shows in the modal.
  if (status !== 'connected' || !chainId?.startsWith('eip155:')) return show('balance', '—')
  try {
    const wei = BigInt(await provider.request({ method: 'eth_getBalance', params: [address, 'latest'] }))
    show('balance', `${formatEther(wei)} ETH`)
  } catch (error) {
    show('balance', `unavailable (${error.message})`)
  }
}
modal.subscribe('state', refresh)
provider.on('chainChanged', refresh)

function formatEther(wei) {
  const digits = wei.toString().padStart(19, '0')
  return `${digits.slice(0, -18)}.${digits.slice(-18, -12)}`
}

sendButton.addEventListener('click', async () => {
  const { address } = modal.getState()
  show('send-result', 'Waiting for the wallet…')
  try {
    const hash = await provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: address, to: address, value: '0x38d7ea4c68000' }], // 0.001 ETH
    })
    show('send-result', `Sent: ${hash}`)
    record('sent', { hash })
    await refresh()
  } catch (error) {
    show('send-result', `Not sent: ${error.message} (code ${error.code})`)
  }
})

signButton.addEventListener('click', async () => {
  const { address } = modal.getState()
  const message = `Hello from the Doorway demo at ${new Date().toISOString()}`
  const hex = `0x${Array.from(new TextEncoder().encode(message), (b) => b.toString(16).padStart(2, '0')).join('')}`
  show('send-result', 'Waiting for the signature…')
  try {
    const signature = await provider.request({ method: 'personal_sign', params: [hex, address] })
    show('send-result', `Signed: ${signature}`)
    record('signed', { message, signature })
  } catch (error) {
    show('send-result', `Not signed: ${error.message} (code ${error.code})`)
  }
})

// EIP-5792: the wallet's capabilities first (a wallet without atomic batches says so), then two calls to
// yourself in one operation, then its status until it is confirmed or failed.
batchButton.addEventListener('click', async () => {
  const { address, chainId } = modal.getState()
  const hexChain = `0x${Number(chainId.split(':')[1]).toString(16)}`
  show('send-result', 'Waiting for the wallet…')
  try {
    const capabilities = await provider.request({ method: 'wallet_getCapabilities', params: [address, [hexChain]] })
    if (capabilities[hexChain]?.atomic?.status !== 'supported') return show('send-result', 'This account cannot send atomic batches (EIP-5792)')
    const calls = [{ to: address, value: '0x0' }, { to: address, value: '0x0', data: '0x' }]
    const { id } = await provider.request({ method: 'wallet_sendCalls', params: [{ version: '2.0.0', chainId: hexChain, from: address, atomicRequired: true, calls }] })
    show('send-result', `Batch sent: ${id}`)
    for (let status = 100; status === 100; ) {
      await new Promise((resolve) => setTimeout(resolve, 500))
      const answer = await provider.request({ method: 'wallet_getCallsStatus', params: [id] })
      status = answer.status
      if (status === 200) show('send-result', `Batch confirmed: ${answer.receipts[0].transactionHash}`)
      else if (status !== 100) show('send-result', `Batch failed (status ${status})`)
    }
    record('batch', { id })
  } catch (error) {
    show('send-result', `Batch not sent: ${error.message} (code ${error.code})`)
  }
})

// The local anvil chain's RPC for the connected chain, or undefined off the devnet (no faucet there).
function devnetRpc(caipChainId) {
  const id = Number(String(caipChainId ?? '').split(':')[1])
  const url = chainIds.includes(id) ? anvil(id, 8545 + id - 31337).rpcUrls.default.http[0] : undefined
  return url && new URL(url).hostname === '127.0.0.1' ? url : undefined
}

// anvil_setBalance, a devnet-only method: adds 1 ETH to the connected address.
fundButton.addEventListener('click', async () => {
  const { address, chainId } = modal.getState()
  const rpc = (method, params) =>
    fetch(devnetRpc(chainId), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
      .then((response) => response.json())
      .then((json) => (json.error ? Promise.reject(new Error(json.error.message)) : json.result))
  try {
    const balance = BigInt(await rpc('eth_getBalance', [address, 'latest']))
    await rpc('anvil_setBalance', [address, `0x${(balance + 10n ** 18n).toString(16)}`])
    show('send-result', 'Funded 1 ETH on the devnet')
    await refresh()
  } catch (error) {
    show('send-result', `Not funded: ${error.message}`)
  }
})

// open() settles with what happened in that opening: connected, sent or closed.
async function openModal(options) {
  try {
    const result = await modal.open(options)
    record('open() resolved', result)
    if (result.status === 'sent') await refresh()
  } catch (error) {
    record('open() failed', { message: error.message })
  }
}
document.getElementById('connect').addEventListener('click', () => openModal())
// 0.01 of the native token (no assetAddress) to anvil account 2.
openSendButton.addEventListener('click', () =>
  openModal({ view: 'Send', arguments: { amount: '0.01', to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' } }),
)
