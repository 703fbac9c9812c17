/**
 * The embedded wallet's smart account on one chain, a lazy chunk (viem's bundler and paymaster clients):
 * built and sent here, signed in the secure-site between the two (smartRequests.ts). Nothing here holds a key.
 */
export * from '@doorway/shared/SmartAccountClient'
