// A React dapp whose wagmi config drives the modal's EIP-1193 provider: wagmi's connect() asks the
// provider for accounts, the modal opens by itself, and wagmi resolves when the person connects.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { defineChain } from 'viem'
import { createConfig, http, WagmiProvider } from 'wagmi'
import { injected } from 'wagmi/connectors'
import { App } from './App.js'
import { siwx } from './signIn.js'

declare global {
  // The SDK's script build, loaded by index.html before this bundle.
  var Doorway: typeof import('@doorway/sdk')
}

const anvil = (id: number, port: number) =>
  defineChain({
    id,
    name: `Anvil ${id}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [`http://127.0.0.1:${port}`] } },
    testnet: true,
  })
const chains = [anvil(31337, 8545), anvil(31338, 8546)] as const

// The local Solana chain too (issue 23): a Solana wallet signs in with Sign In With Solana, which the
// same server verifies. `?network=solana` makes it the network the modal starts on.
const solanaLocal = {
  id: 'CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3',
  chainNamespace: 'solana',
  name: 'Solana Local',
  nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8899'] } },
  testnet: true,
} as const
// Polkadot (ids and WalletConnect signing only: no chain runs locally); `?network=polkadot` starts there.
const polkadot = {
  id: '91b171bb158e2d3848fa23a9f1c25182',
  chainNamespace: 'polkadot',
  name: 'Polkadot',
  nativeCurrency: { name: 'Polkadot', symbol: 'DOT', decimals: 10 },
} as const
const startOn = new URLSearchParams(location.search).get('network')

// Sign-in on connect (CAIP-122): the modal asks for a signature once the wallet connects (signIn.ts).
const modal = Doorway.createModal({
  projectId: 'doorway-wagmi-example',
  networks: [...chains, solanaLocal, polkadot],
  ...(startOn === 'solana' && { defaultNetwork: solanaLocal }),
  ...(startOn === 'polkadot' && { defaultNetwork: polkadot }),
  siwx,
  // Smart sessions (issue 25): the Session example asks for one; the modal's Account lists them.
  features: { smartSessions: true },
})

const config = createConfig({
  chains,
  // Only the modal's connector: the dev wallet's own EIP-6963 announcement is for the modal to list.
  multiInjectedProviderDiscovery: false,
  connectors: [
    injected({
      // The SDK's Provider type is a plain EIP-1193 shape; viem's type spells out every method.
      target: () => ({ id: 'doorway', name: 'Doorway', provider: modal.getProvider() }),
    }),
  ],
  transports: { 31337: http('http://127.0.0.1:8545'), 31338: http('http://127.0.0.1:8546') },
})

declare module 'wagmi' {
  interface Register {
    config: typeof config
  }
}

const queryClient = new QueryClient()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <App modal={modal} />
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
)
