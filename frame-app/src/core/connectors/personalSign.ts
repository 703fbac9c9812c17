/**
 * EIP-191 personal_sign of a text by the connected account, whatever its connector: the text goes as
 * the hex of its UTF-8 bytes, and only a hex signature is taken as the answer. The sign-in
 * (features/siwx/siwxFlow.ts) and the name registration (features/names/nameForm.ts) both sign this way.
 */
import { stringToHex } from 'viem'
import type { Connector } from './Connector.js'

export async function personalSign(account: { connector: Connector; address: string }, text: string): Promise<`0x${string}`> {
  const signature = await account.connector.request({ method: 'personal_sign', params: [stringToHex(text), account.address] })
  if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]+$/.test(signature)) throw new Error('The wallet answered without a signature')
  return signature as `0x${string}`
}
