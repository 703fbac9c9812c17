/** Token balances as the api answers them (spec §3), shared by the Send tests. */
import type { Balance } from '../../api/client.js'

export const icon = 'http://api.test/i'
export const eth: Balance = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:31337', price: 3000, value: 6000, quantity: { decimals: '18', numeric: '2' }, iconUrl: icon }
export const usdcContract = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
export const usdc: Balance = {
  name: 'USD Coin',
  symbol: 'USDC',
  chainId: 'eip155:31337',
  address: `eip155:31337:${usdcContract}`,
  price: 1,
  value: 150.5,
  quantity: { decimals: '6', numeric: '150.5' },
  iconUrl: icon,
}
// spec §9: 0 decimals, never sendable
export const points: Balance = {
  name: 'Points',
  symbol: 'PTS',
  chainId: 'eip155:31337',
  address: 'eip155:31337:0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
  price: 0.1,
  value: 5,
  quantity: { decimals: '0', numeric: '50' },
  iconUrl: icon,
}
