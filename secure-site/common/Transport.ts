/**
 * Shares on the wire (docs/embedded-wallet.md §2): none crosses in clear, so a logging or
 * TLS-terminating proxy learns nothing. Going up, a share is sealed to the server's transport key
 * (pinned in the secure-site build); coming down, to the device's seal key (an ECDH P-256 key that
 * never leaves the device's IndexedDB). The associated data binds each box to what it is and to whom,
 * so a box cannot be replayed as another share or for another device.
 * `import * as Transport from '@doorway/secure-site/common/Transport'`.
 */
import * as Seal from './Seal.js'

/** The shares that travel: this device's A, and R1 (at creation, and to a recovering device). */
export type Share = 'deviceShare' | 'recovery1'

const encoder = new TextEncoder()

export const upAad = (share: Share, deviceId: string) => encoder.encode(`doorway/up|${share}|${deviceId}`)
export const downAad = (share: Share, userId: string, deviceId: string) => encoder.encode(`doorway/down|${share}|${userId}|${deviceId}`)

/** A share on its way to the server, sealed to its pinned transport key. */
export const up = (serverKey: Uint8Array, share: Share, deviceId: string, bytes: Uint8Array) => Seal.seal(serverKey, bytes, upAad(share, deviceId))
/** The server opens an upload with its transport key; altered, replayed or misdirected boxes throw. */
export const openUp = (transportKey: CryptoKey, share: Share, deviceId: string, sealed: Uint8Array) => Seal.open(transportKey, sealed, upAad(share, deviceId))
/** A share on its way to device `deviceId` of `userId`, sealed to its seal key. */
export const down = (sealKey: Uint8Array, share: Share, userId: string, deviceId: string, bytes: Uint8Array) => Seal.seal(sealKey, bytes, downAad(share, userId, deviceId))
export const openDown = (sealKey: CryptoKey, share: Share, userId: string, deviceId: string, sealed: Uint8Array) => Seal.open(sealKey, sealed, downAad(share, userId, deviceId))
