/** Swap tokens and quotes as the api answers them (issue 11), shared by the Swap tests. */
import type { Quote, SwapToken } from '../../api/client.js'

export const icon = 'http://api.test/i'
export const dusdContract = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
export const ethToken: SwapToken = { name: 'Ether', symbol: 'ETH', address: 'eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', decimals: 18, logoUri: icon, eip2612: false }
export const dusdToken: SwapToken = { name: 'Doorway USD', symbol: 'DUSD', address: `eip155:31337:${dusdContract}`, decimals: 18, logoUri: icon, eip2612: false }
export const wbtcToken: SwapToken = { name: 'Wrapped Bitcoin', symbol: 'WBTC', address: 'eip155:31337:0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', decimals: 8, logoUri: icon, eip2612: false }

/** 1 ETH → 2,990.12 DUSD, 0.3 % fee, 0.25 % impact, 120k gas at 2 gwei. */
export function quote(overrides: Partial<Quote> = {}): Quote {
  return {
    id: null,
    fromAccount: ethToken.address,
    toAccount: dusdToken.address,
    fromAmount: String(10n ** 18n),
    toAmount: String(299012n * 10n ** 16n),
    route: [ethToken.address, dusdToken.address],
    priceImpact: 0.25,
    fee: { percent: 0.3, amount: String(3n * 10n ** 15n), token: ethToken.address },
    networkFee: { gas: '120000', gasPrice: '2000000000', amount: String(120_000n * 2_000_000_000n) },
    ...overrides,
  }
}
