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

const modal = Doorway.createModal({
  projectId: params.has('projectId') ? params.get('projectId') : 'doorway-demo',
  themeMode: overrides.themeMode,
  networks: [anvil(31337, 8545), anvil(31338, 8546)],
  metadata: {
    name: 'Doorway demo',
    description: 'The Doorway local demo',
    url: location.origin,
    icons: [],
  },
  features: { history: true, ...overrides.features },
  termsConditionsUrl: `${location.origin}/terms`,
  privacyPolicyUrl: `${location.origin}/privacy`,
})
// Handy in devtools, and for the e2e tests that play the dapp.
window.modal = modal

const log = document.getElementById('log')
function record(name, data) {
  const item = document.createElement('li')
  item.textContent = `${name} ${JSON.stringify(data)}`
  log.append(item)
}
for (const event of ['open', 'close']) modal.subscribe(event, (data) => record(event, data))

document.getElementById('connect').addEventListener('click', async () => {
  try {
    record('open() resolved', await modal.open())
  } catch (error) {
    record('open() failed', { message: error.message })
  }
})
