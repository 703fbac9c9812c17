/**
 * The server's side of the custody split (notes/embedded-wallet.md §4.2): A_i and R1 go into the
 * database only under KEK_A, bound to their row (A_i to user‖device, R1 to the user); R2 arrives
 * sealed to the vault and is stored as it came. `import * as Custody from './Custody.js'`.
 */
import * as Envelope from './Envelope.js'

/** A Shamir share of the wallet's 16-byte entropy: the x-coordinate byte and 16 bytes (secure-site Shares.ts). */
export const shareBytes = 17
/** R2 sealed to the vault (secure-site Seal.ts): version, ephemeral point, iv, the share, the GCM tag. */
export const sealedShareBytes = 1 + 65 + 12 + shareBytes + 16
export const sealVersion = 1

const deviceAad = (userId: string, deviceId: string) => `${userId}|${deviceId}`

export const sealDeviceShare = (kek: CryptoKey, userId: string, deviceId: string, share: Uint8Array) => Envelope.encrypt(kek, share, deviceAad(userId, deviceId))
export const openDeviceShare = (kek: CryptoKey, userId: string, deviceId: string, stored: Uint8Array) => Envelope.decrypt(kek, stored, deviceAad(userId, deviceId))
export const sealRecovery1 = (kek: CryptoKey, userId: string, share: Uint8Array) => Envelope.encrypt(kek, share, userId)
export const openRecovery1 = (kek: CryptoKey, userId: string, stored: Uint8Array) => Envelope.decrypt(kek, stored, userId)
