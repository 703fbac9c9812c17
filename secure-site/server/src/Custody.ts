/**
 * The server's side of the custody split (docs/embedded-wallet.md §2): A_i and R1 go into the
 * database only under KEK_A, bound to their row (A_i to user‖device, R1 to the user); R2 arrives
 * sealed to the vault and is stored as it came. `import * as Custody from './Custody.js'`.
 */
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import * as Envelope from './Envelope.js'

/** A Shamir share of the wallet's 16-byte entropy, as the route table sizes it. */
export const shareBytes = SecureSite.shareBytes
/** R2 sealed to the vault (secure-site/common/Seal.ts): version, ephemeral point, iv, the share, the GCM tag. */
export const sealedShareBytes = SecureSite.sealedShareBytes
export const sealVersion = 1

const deviceAad = (userId: string, deviceId: string) => `${userId}|${deviceId}`

export const sealDeviceShare = (kek: CryptoKey, userId: string, deviceId: string, share: Uint8Array) => Envelope.encrypt(kek, share, deviceAad(userId, deviceId))
export const openDeviceShare = (kek: CryptoKey, userId: string, deviceId: string, stored: Uint8Array) => Envelope.decrypt(kek, stored, deviceAad(userId, deviceId))
export const sealRecovery1 = (kek: CryptoKey, userId: string, share: Uint8Array) => Envelope.encrypt(kek, share, userId)
export const openRecovery1 = (kek: CryptoKey, userId: string, stored: Uint8Array) => Envelope.decrypt(kek, stored, userId)
