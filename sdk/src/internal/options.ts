/** Turns the dapp's options into the frame's Config, with the spec's defaults (spec §1, §9). */
import * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import * as Ids from '@doorway/shared/Ids'
import * as Protocol from '@doorway/shared/Protocol'
import * as S from '@doorway/shared/Schema'
import type { Options, NetworkOption } from '../types.js'

export function resolve(options: Options, sdkVersion: string): Protocol.Config {
  if (!S.isPlainObject(options)) throw Errors.invalidOption('options')
  // spec §5: siweConfig and siwx are mutually exclusive.
  if (options.siweConfig && options.siwx) throw Errors.siweAndSiwx()
  const { siwx, siweConfig: siwe } = options
  const merged: Record<string, unknown> = {
    ...options,
    projectId: options.projectId || undefined,
    sdkVersion: options.sdkVersion ?? sdkVersion,
    networks: Array.isArray(options.networks) ? options.networks.map((n: NetworkOption) => network(n)) : options.networks,
    defaultNetwork: options.defaultNetwork && network(options.defaultNetwork).caipNetworkId,
    // Anything but an object spreads into keys (a string's characters, an array's indexes) that the schema refuses.
    features: { ...Constants.defaultFeatures, ...options.features },
    accent: options.themeVariables?.accent,
    embedded: !!options.embedded,
    // spec §5: Telegram's web view marks the top window, which only this page can see (as Telegram's own SDK detects it).
    telegram: ['Telegram', 'TelegramWebviewProxy', 'TelegramWebviewProxyProto'].some((key) => key in globalThis),
    // Only which parts exist crosses; siweConfig's defaults are AppKit's (required, sign out on disconnect).
    siwx: siwx
      ? { siwe: false, signMessage: !!siwx.signMessage, signOutOnDisconnect: !!siwx.signOutOnDisconnect, required: false }
      : siwe && { siwe: true, signMessage: false, signOutOnDisconnect: siwe.signOutOnDisconnect ?? true, required: siwe.required ?? true },
  }
  // Only the keys of the schema cross to the frame, each checked: a bad one is named in the error.
  const config: Record<string, unknown> = {}
  for (const [key, check] of Object.entries(Protocol.configShape)) {
    // An option given as undefined takes its default, as if it were left out.
    const value = merged[key] ?? defaults[key as keyof typeof defaults]
    if (!check(value)) throw Errors.invalidOption(key)
    config[key] = value
  }
  if (!(config.networks as unknown[]).length) throw Errors.invalidOption('networks')
  return config as Protocol.Config
}

/**
 * A social sign-in's redirect comes back to this page with its flow in `result_uri` (spec §7
 * social-redirect; docs/embedded-wallet.md §5): the frame redeems it. Used once: spec §5 removes it from
 * the address, so a reload or a shared link does not carry it.
 */
export function resume(url: URL) {
  const query = url.searchParams
  const flow = query.get('result_uri')
  if (flow) {
    query.delete('result_uri')
    history.replaceState(history.state, '', url)
  }
  // Only a flow's id goes on: any other value (a link someone made) is dropped, never an error of createModal.
  return Ids.isId(flow) ? flow : undefined
}

const defaults = {
  sdkType: 'appkit',
  themeMode: 'dark',
  includeWalletIds: [],
  excludeWalletIds: [],
  featuredWalletIds: [],
  customWallets: [],
  tokens: {},
  defaultAccountTypes: {},
  enableNetworkSwitch: true,
  allowUnsupportedChain: false,
  basic: false,
}

/**
 * Accepts viem-style chain objects and CAIP ready ones alike; `namespace` is the one a network without
 * `chainNamespace` or `caipNetworkId` belongs to (`modal.addNetwork(namespace, network)`).
 */
export function network(input: NetworkOption, namespace: Caip.Namespace = 'eip155'): Protocol.Network {
  if (!S.isPlainObject(input)) throw Errors.invalidOption('networks')
  const caipNetworkId = input.caipNetworkId ?? `${input.chainNamespace ?? namespace}:${input.id}`
  if (!Caip.isChainId(caipNetworkId)) throw Errors.invalidOption('networks')
  // An absent URL is undefined, which the schema takes as left out.
  return {
    caipNetworkId,
    name: input.name,
    nativeCurrency: input.nativeCurrency,
    rpcUrl: input.rpcUrls?.default?.http?.[0],
    explorerUrl: input.blockExplorers?.default?.url,
    testnet: !!input.testnet,
  }
}
