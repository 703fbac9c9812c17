// The Swap flow's views: one lazy chunk, loaded only when features.swaps is on (spec §1).
export { Swap } from './Swap.js'
export { SwapPreview } from './SwapPreview.js'
export { SwapResult } from './SwapResult.js'
export { SwapSelectToken } from './SwapSelectToken.js'
