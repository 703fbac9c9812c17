import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Options } from '../types.js'
import * as Options_ from './options.js'

const anvil = {
  id: 31337,
  name: 'Anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
  blockExplorers: { default: { url: 'https://explorer.example' } },
  testnet: true,
}
const resolve = (options: Partial<Options>) => Options_.resolve({ projectId: 'p', networks: [anvil], ...options } as Options, 'html-doorway-0.1.0')

describe('resume (spec §5 result_uri, §7 social-redirect)', () => {
  const flow = 'a'.repeat(32)
  afterEach(() => vi.unstubAllGlobals())
  const page = (href: string) => {
    const history = { state: { router: 'kept' }, replaceState: vi.fn() }
    vi.stubGlobal('history', history)
    return { result: Options_.resume(new URL(href)), history }
  }

  test('behavior: the flow a redirect came back with goes to the frame, and the parameter leaves the address, the rest kept', () => {
    const { result, history } = page(`https://dapp.example/shop?item=2&result_uri=${flow}#top`)
    expect(result).toBe(flow)
    expect(history.replaceState).toHaveBeenCalledExactlyOnceWith({ router: 'kept' }, '', new URL('https://dapp.example/shop?item=2#top'))
  })

  test('behavior: a page without it is left alone', () => {
    const { result, history } = page('https://dapp.example/shop?item=2')
    expect(result).toBeUndefined()
    expect(history.replaceState).not.toHaveBeenCalled()
  })

  test('error: a value that is not a flow is removed too, and never reaches the frame', () => {
    const { result, history } = page(`https://dapp.example/?result_uri=${'x'.repeat(10_000)}`)
    expect(result).toBeUndefined()
    expect(history.replaceState).toHaveBeenCalledExactlyOnceWith({ router: 'kept' }, '', new URL('https://dapp.example/'))
  })
})

describe('resolve', () => {
  test('behavior: Telegram\'s web view is told to the frame (spec §5 filters its socials)', () => {
    expect(resolve({}).telegram).toBe(false)
    const top = globalThis as unknown as Record<string, unknown>
    top.TelegramWebviewProxy = {}
    try {
      expect(resolve({}).telegram).toBe(true)
    } finally {
      delete top.TelegramWebviewProxy
    }
  })

  test('behavior: applies the spec defaults (§1, §9)', () => {
    expect(resolve({})).toMatchInlineSnapshot(`
      {
        "accent": undefined,
        "allowUnsupportedChain": false,
        "basic": false,
        "customWallets": [],
        "defaultAccountTypes": {},
        "defaultNetwork": undefined,
        "embedded": false,
        "enableNetworkSwitch": true,
        "excludeWalletIds": [],
        "featuredWalletIds": [],
        "features": {
          "analytics": false,
          "collapseWallets": false,
          "connectMethodsOrder": [
            "email",
            "social",
            "wallet",
          ],
          "email": true,
          "history": false,
          "onramp": true,
          "receive": true,
          "send": true,
          "socials": [
            "google",
            "x",
            "discord",
            "farcaster",
            "github",
            "apple",
            "facebook",
          ],
          "swaps": true,
          "walletFeaturesOrder": [
            "onramp",
            "swaps",
            "receive",
            "send",
          ],
        },
        "includeWalletIds": [],
        "metadata": undefined,
        "networks": [
          {
            "caipNetworkId": "eip155:31337",
            "explorerUrl": "https://explorer.example",
            "name": "Anvil",
            "nativeCurrency": {
              "decimals": 18,
              "name": "Ether",
              "symbol": "ETH",
            },
            "rpcUrl": "http://127.0.0.1:8545",
            "testnet": true,
          },
        ],
        "privacyPolicyUrl": undefined,
        "projectId": "p",
        "resume": undefined,
        "sdkType": "appkit",
        "sdkVersion": "html-doorway-0.1.0",
        "siwx": undefined,
        "telegram": false,
        "termsConditionsUrl": undefined,
        "themeMode": "dark",
        "tokens": {},
      }
    `)
  })

  test('behavior: an option given as undefined takes its default', () => {
    expect(resolve({ themeMode: undefined, enableNetworkSwitch: undefined })).toMatchObject({ themeMode: 'dark', enableNetworkSwitch: true })
  })

  test('behavior: features merge over the defaults', () => {
    expect(resolve({ features: { email: false, history: true } }).features).toMatchObject({ email: false, history: true, swaps: true })
  })

  test('behavior: non-EVM networks by chainNamespace or caipNetworkId', () => {
    const sol = { id: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', name: 'Solana', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, chainNamespace: 'solana' as const }
    const btc = { ...sol, name: 'Bitcoin', caipNetworkId: 'bip122:000000000019d6689c085ae165831e93' as const }
    expect(resolve({ networks: [sol, btc] }).networks.map((n) => n.caipNetworkId)).toEqual([
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      'bip122:000000000019d6689c085ae165831e93',
    ])
  })

  test('behavior: a missing projectId is not thrown (the frame shows the configuration alert, spec §8)', () => {
    expect(resolve({ projectId: '' }).projectId).toBeUndefined()
  })

  test('behavior: sign-in is off without siwx; with it, the frame learns only which optional parts exist', () => {
    expect(resolve({}).siwx).toBeUndefined()
    const siwx = { createMessage: async () => ({}) as never, addSession: async () => {}, revokeSession: async () => {}, setSessions: async () => {}, getSessions: async () => [] }
    expect(resolve({ siwx }).siwx).toEqual({ siwe: false, signMessage: false, signOutOnDisconnect: false, required: false })
    expect(resolve({ siwx: { ...siwx, signOutOnDisconnect: true, signMessage: async () => '0x' } }).siwx).toEqual({
      siwe: false,
      signMessage: true,
      signOutOnDisconnect: true,
      required: false,
    })
    // siweConfig: shown as ConnectingSiwe; required and signing out on disconnect by default, as in AppKit.
    expect(resolve({ siweConfig: {} as never }).siwx).toEqual({ siwe: true, signMessage: false, signOutOnDisconnect: true, required: true })
    expect(resolve({ siweConfig: { required: false, signOutOnDisconnect: false } as never }).siwx).toMatchObject({ required: false, signOutOnDisconnect: false })
  })

  test.each<[string, Partial<Options> | unknown, string]>([
    ['siweConfig with siwx (spec §5)', { siweConfig: {}, siwx: {} } as never, 'Cannot set both `siweConfig` and `siwx` options'],
    ['no networks', { networks: [] }, 'Invalid option `networks`'],
    ['networks not an array', { networks: 'eip155:1' }, 'Invalid option `networks`'],
    ['a network without a name', { networks: [{ ...anvil, name: '' }] }, 'Invalid option `networks`'],
    ['a bad CAIP-2 id', { networks: [{ ...anvil, caipNetworkId: 'eip155:01' }] }, 'Invalid option `networks`'],
    ['an unknown namespace', { networks: [{ ...anvil, chainNamespace: 'cosmos' }] }, 'Invalid option `networks`'],
    ['an rpc url that is not http(s)', { networks: [{ ...anvil, rpcUrls: { default: { http: ['ftp://x'] } } }] }, 'Invalid option `networks`'],
    ['an unknown feature value', { features: { email: 'yes' } }, 'Invalid option `features`'],
    ['an unknown social provider', { features: { socials: ['myspace'] } }, 'Invalid option `features`'],
    ['an unknown feature key', { features: { teleport: true } }, 'Invalid option `features`'],
    ['a theme mode', { themeMode: 'sepia' }, 'Invalid option `themeMode`'],
    ['an accent that is not #rrggbb', { themeVariables: { accent: 'red' } }, 'Invalid option `accent`'],
    ['a javascript: terms url', { termsConditionsUrl: 'javascript:alert(1)' }, 'Invalid option `termsConditionsUrl`'],
    ['wallet ids that are not strings', { includeWalletIds: [1] }, 'Invalid option `includeWalletIds`'],
    ['metadata with extra fields', { metadata: { name: 'a', description: '', url: 'https://a.example', icons: [], x: 1 } }, 'Invalid option `metadata`'],
    ['a non-object', 'projectId', 'Invalid option `options`'],
  ])('error: %s', (_, options, message) => {
    const run = () => (typeof options === 'string' ? Options_.resolve(options as never, 'v') : resolve(options as Partial<Options>))
    expect(run).toThrowError(message)
  })
})
