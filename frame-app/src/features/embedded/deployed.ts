/**
 * spec §3 smartAccountDeployed for the host's state (issue 25): a module of its own, light, because the
 * frame's initial chunk reads it (host/modalState.ts); the rest of the account type (accountType.ts) loads
 * with the embedded wallet.
 */
import { atom } from 'jotai'
import { unwrap } from 'jotai/utils'
import { accountsAtom } from '../../core/connection.js'
import { openAtom } from '../../core/modal.js'

/** Counts the smart account's operations that landed on chain (the first one deploys the account). */
export const operationLandedAtom = atom(0)

/** The last answer of the chain, for the account and chain it was asked for. */
const answerAtom = unwrap(
  atom(async (get): Promise<{ key: string; deployed: boolean } | undefined> => {
    get(operationLandedAtom)
    // Asked again as the modal opens or closes: a session key's spend deploys the account without the modal.
    get(openAtom)
    const account = get(accountsAtom).eip155
    if (account?.connector.accountType !== 'smartAccount') return undefined
    try {
      const code = await account.connector.request({ method: 'eth_getCode', params: [account.address, 'latest'] })
      return { key: keyOf(account), deployed: typeof code === 'string' && code !== '0x' }
    } catch {
      return undefined
    }
  }),
  (previous) => previous,
)

const keyOf = ({ address, chainId }: { address: string; chainId: string }) => `${chainId}:${address.toLowerCase()}`

/**
 * spec §3 smartAccountDeployed: whether the connected smart account has code on its current chain, asked
 * of the chain at connect, on a chain switch, as the modal opens or closes and after each operation lands (the
 * last answer stands while it is asked again); undefined for any other account, or until the chain answers for this one.
 */
export const smartAccountDeployedAtom = atom((get): boolean | undefined => {
  const account = get(accountsAtom).eip155
  const answer = get(answerAtom)
  return account?.connector.accountType === 'smartAccount' && answer?.key === keyOf(account) ? answer.deployed : undefined
})
