// The onramp's views (issue 12): one lazy chunk, loaded only when features.onramp is on (spec §1).
export { OnRamp } from './OnRamp.js'
export { OnRampProgress } from './OnRampProgress.js'
