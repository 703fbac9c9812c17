/**
 * The embedded wallet's account type (spec §3 preferredAccountType and smartAccountDeployed, §4 "the
 * preferred account type switches once per connect", issue 25): the EOA key's own address, or the smart
 * account that key owns. Decided at each connect from the person's choice on this device, else the
 * dapp's `defaultAccountTypes.eip155`; the Account view switches it, which reconnects the wallet with the
 * other address at once and is kept for the next connect. A chain without smart accounts in the api's
 * configuration, or an api that does not answer, connects the EOA and says why.
 */
import * as Caip from '@doorway/shared/Caip'
import * as SmartAccount from '@doorway/shared/SmartAccount'
import { format } from '@doorway/shared/Texts'
import { embeddedText } from '@doorway/shared/texts/embedded'
import { atom, type Getter } from 'jotai'
import { ApiError } from '../../api/client.js'
import { apiAtom } from '../../core/api.js'
import { configAtom } from '../../core/config.js'
import * as Storage from '../../core/storage.js'
import type * as SmartAccountChunk from './smartAccount.js'
import type { Smart } from './smartRequests.js'

export type AccountType = 'eoa' | 'smartAccount'

const storageKey = 'accountType'
const isAccountType = (x: unknown): x is AccountType => x === 'eoa' || x === 'smartAccount'

/** The person's own choice on this device, once they made one in the Account view. */
const chosenAtom = atom<AccountType | undefined>(Storage.read(storageKey, isAccountType))

/** What the next connect uses (spec §3 preferredAccountType): the person's choice, else the dapp's default, else the EOA. */
export const preferredAccountTypeAtom = atom(
  (get): AccountType => get(chosenAtom) ?? (get(configAtom)?.defaultAccountTypes?.eip155 === 'smartAccount' ? 'smartAccount' : 'eoa'),
  (_get, set, type: AccountType) => {
    Storage.write(storageKey, type)
    set(chosenAtom, type)
  },
)

/** Why the smart account the person prefers is not the connected one (the Account view says it), if it is not. */
export const smartUnavailableAtom = atom<string | undefined>(undefined)

/**
 * The smart account `owner` has for this connect, or undefined for the EOA: asked of the api on the
 * connect-time chain (GET /v1/smart-accounts/{chainId}); later chains are asked when first used.
 */
export async function smartFor(get: Getter, owner: `0x${string}`, chainId: Caip.ChainId): Promise<{ smart?: Smart; unavailable?: string }> {
  if (get(preferredAccountTypeAtom) !== 'smartAccount' || !chainId.startsWith('eip155:')) return {}
  const networks = new Map<Caip.ChainId, Promise<SmartAccountChunk.Network>>()
  const network = (id: Caip.ChainId) => {
    let answer = networks.get(id)
    if (!answer) {
      networks.set(id, (answer = ask(get, id)))
      // A refusal is not kept: the next use asks again (the api may be back).
      answer.catch(() => networks.delete(id))
    }
    return answer
  }
  let first: SmartAccountChunk.Network
  try {
    first = await network(chainId)
  } catch (error) {
    return { unavailable: error instanceof Error ? error.message : String(error) }
  }
  const address = SmartAccount.counterfactual(owner, first.environment).address
  const accounts = new Map<Caip.ChainId, Promise<SmartAccountChunk.Account>>()
  const smart: Smart = {
    address,
    sponsored: first.paymasterUrl !== undefined,
    async on(id) {
      const on = await network(id)
      const named = get(configAtom)?.networks.find((n) => n.caipNetworkId === id)
      const unavailable = () => new Error(format(embeddedText.smartAccountUnavailable, { network: named?.name ?? id }))
      let account = accounts.get(id)
      if (!account) {
        const rpcUrl = named?.rpcUrl
        if (!rpcUrl) throw unavailable()
        const chunk = await import('./smartAccount.js')
        accounts.set(id, (account = chunk.create({ owner, chainId: Number(Caip.parseChainId(id).reference), rpcUrl, network: on })))
      }
      const built = await account
      // One address for the person: a chain whose framework gives another is not this account's.
      if (built.address !== address) throw unavailable()
      return { account: built, network: on }
    },
  }
  return { smart }
}

async function ask(get: Getter, chainId: Caip.ChainId): Promise<SmartAccountChunk.Network> {
  const name = get(configAtom)?.networks.find((n) => n.caipNetworkId === chainId)?.name ?? chainId
  try {
    const answer = await get(apiAtom).smartAccounts(chainId)
    const { EntryPoint, DelegationManager, SimpleFactory, implementations } = answer.environment
    // Only what the account needs crosses to the secure-site, which checks exactly these fields.
    const environment: SmartAccount.Environment = { EntryPoint, DelegationManager, SimpleFactory, implementations: { HybridDeleGatorImpl: implementations.HybridDeleGatorImpl } }
    return { bundlerUrl: answer.bundlerUrl, paymasterUrl: answer.paymasterUrl, environment, enforcers: answer.environment.caveatEnforcers }
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new Error(format(embeddedText.smartAccountUnavailable, { network: name }), { cause: error })
    throw new Error(format(embeddedText.smartAccountUnreachable, { network: name }), { cause: error })
  }
}
