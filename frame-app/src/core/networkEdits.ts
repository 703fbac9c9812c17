/**
 * The dapp changes its networks at runtime (spec §4 "Account type and adapters"; the SDK's
 * addNetwork, removeNetwork, addAdapter, removeAdapter). The rules and their spec §8 errors live here,
 * not in the 7 KB SDK. An adapter is a namespace the dapp supports; the dapp's first networks name them.
 */
import type * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import { errors, format } from '@doorway/shared/Texts'
import { atom } from 'jotai'
import { configAtom } from './config.js'
import { accountsAtom, namespaceOf } from './connection.js'

export type Networks = { networks: readonly Protocol.Network[]; adapters: readonly Caip.Namespace[] }

/** The dapp's adapters: set by addAdapter/removeAdapter, else the namespaces of its networks. */
const adaptersOverrideAtom = atom<readonly Caip.Namespace[] | null>(null)
export const adaptersAtom = atom((get) => get(adaptersOverrideAtom) ?? namespacesOf(get(configAtom)?.networks ?? []))

/** Applies one edit; the connected namespaces decide whether removing an adapter is ignored. */
export function apply(state: Networks, edit: Protocol.EditNetworks, connected: readonly Caip.Namespace[]): Networks {
  const { networks, adapters } = state
  const has = adapters.includes(edit.namespace)
  const ofNamespace = (ns: Caip.Namespace) => networks.filter((n) => namespaceOf(n.caipNetworkId) === ns)
  switch (edit.op) {
    case 'addNetwork': {
      if (!has) throw missingAdapter(edit.namespace)
      assertNamespace([edit.network], edit.namespace)
      return { adapters, networks: [...networks.filter((n) => n.caipNetworkId !== edit.network.caipNetworkId), edit.network] }
    }
    case 'removeNetwork': {
      if (!has) throw missingAdapter(edit.namespace)
      const own = ofNamespace(edit.namespace)
      const target = own.find((n) => n.caipNetworkId === String(edit.id) || n.caipNetworkId === `${edit.namespace}:${edit.id}`)
      if (!target) throw new Errors.DoorwayError(format(errors.networkWithIdNotFound, { id: String(edit.id) }))
      // spec §4: removing a network fails if it is the last one for its namespace
      if (own.length === 1) throw new Errors.DoorwayError(errors.cannotRemoveLastNetwork)
      return { adapters, networks: networks.filter((n) => n !== target) }
    }
    case 'addAdapter': {
      if (edit.networks.length === 0) throw new Errors.DoorwayError(errors.caipNetworkNotFound)
      assertNamespace(edit.networks, edit.namespace)
      const added = new Set(edit.networks.map((n) => n.caipNetworkId))
      return {
        adapters: has ? adapters : [...adapters, edit.namespace],
        networks: [...networks.filter((n) => !added.has(n.caipNetworkId)), ...edit.networks],
      }
    }
    case 'removeAdapter': {
      if (!has) throw new Errors.DoorwayError(errors.adapterNotFound)
      // spec §4: removing an adapter is ignored while connected
      if (connected.includes(edit.namespace)) return state
      return { adapters: adapters.filter((a) => a !== edit.namespace), networks: networks.filter((n) => namespaceOf(n.caipNetworkId) !== edit.namespace) }
    }
  }
}

/** The edit applied to the frame's config; the views follow at once. */
export const editNetworksAtom = atom(null, (get, set, edit: Protocol.EditNetworks) => {
  const config = get(configAtom)
  if (!config) throw Errors.notInitialized()
  const connected = Object.keys(get(accountsAtom)) as Caip.Namespace[]
  const next = apply({ networks: config.networks, adapters: get(adaptersAtom) }, edit, connected)
  const defaultNetwork = next.networks.some((n) => n.caipNetworkId === config.defaultNetwork) ? config.defaultNetwork : undefined
  set(configAtom, { ...config, networks: [...next.networks], defaultNetwork })
  set(adaptersOverrideAtom, next.adapters)
})

function namespacesOf(networks: readonly Protocol.Network[]): Caip.Namespace[] {
  return [...new Set(networks.map((n) => namespaceOf(n.caipNetworkId)))]
}

const missingAdapter = (ns: Caip.Namespace) => new Errors.DoorwayError(format(errors.adapterForNamespaceNotFound, { ns }))

function assertNamespace(networks: readonly Protocol.Network[], namespace: Caip.Namespace) {
  const other = networks.find((n) => namespaceOf(n.caipNetworkId) !== namespace)
  if (other) throw new Errors.CaipError('chainId', other.caipNetworkId)
}
