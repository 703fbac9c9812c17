/**
 * What the devices and activity screen asks of the server (docs/embedded-wallet.md §10): the user's
 * devices, the audit log checked here against the vault's signed head (common/AuditChain.ts, with the
 * vault's key the build pins), and removing another device after fresh auth or a code mailed for it.
 * Loaded with the screen only. `import * as Manage from './Manage.js'` → `Manage.manager(wallet)`.
 */
import * as AuditChain from '@doorway/secure-site/common/AuditChain'
import type * as Contract from '@doorway/shared/Contract'
import * as Errors from '@doorway/shared/Errors'
import { secureText } from '@doorway/shared/texts/email'
import * as Device from '../wallet/Device.js'
import type * as Server from '../wallet/Server.js'
import * as Wallet from '../wallet/Wallet.js'

export type DeviceSummary = Contract.Result<Server.Route<'GET /v1/devices'>>['devices'][number]

export type Overview = {
  /** The wallet's email, where codes go. */
  email: string
  /** Newest first, as the server lists them. */
  devices: DeviceSummary[]
  /** Oldest first, as the chain runs. */
  entries: AuditChain.Listed[]
  verdict: AuditChain.Verdict
}

/** The screen's side of the wallet: what Security.show is given (a fake in its tests). */
export type Manager = {
  overview(signal?: AbortSignal): Promise<Overview>
  /** A sign-in of the last 5 minutes is fresh enough (`sent: false`); otherwise a code is mailed to `email`. */
  removeCode(host: string, signal?: AbortSignal): Promise<{ email: string; sent: boolean }>
  /** Removes the device, with the code `removeCode` mailed, or none when it was fresh. */
  remove(deviceId: string, code: string | undefined, signal?: AbortSignal): Promise<void>
}

/**
 * The manager of this page's wallet; it keeps the code request `removeCode` made until `remove` uses it.
 * `attested`: the host the screen names was attested by the browser (else the code mail marks it reported).
 */
export function manager(wallet: Wallet.Wallet, attested: boolean): Manager {
  let challengeId: string | undefined
  return {
    overview: (signal) => overview(wallet, signal),
    async removeCode(host, signal) {
      const { email } = await signedIn(wallet)
      const started = await send(wallet, 'POST /v1/devices/revoke/code', { host, attested }, signal)
      challengeId = 'challengeId' in started ? started.challengeId : undefined
      return { email, sent: challengeId !== undefined }
    },
    async remove(deviceId, code, signal) {
      if (code !== undefined && !challengeId) throw new Errors.DoorwayError(secureText.expired)
      await send(wallet, 'POST /v1/devices/revoke', code === undefined ? { deviceId } : { deviceId, challengeId, code }, signal)
      challengeId = undefined
    },
  }
}

/** The devices and the log, read together; the log is checked here, never taken on the server's word. */
export async function overview(wallet: Wallet.Wallet, signal?: AbortSignal): Promise<Overview> {
  const { email, userId } = await signedIn(wallet)
  const [{ devices }, { entries, head }] = await Promise.all([send(wallet, 'GET /v1/devices', {}, signal), send(wallet, 'GET /v1/audit', {}, signal)])
  const verdict = await AuditChain.check({ userId, entries, head: head ?? null, vaultSigningKey: wallet.options.vaultSigningKey })
  return { email, devices, entries, verdict }
}

/** This device's wallet record: the screen is only for a device signed in to a wallet. */
async function signedIn(wallet: Wallet.Wallet): Promise<Device.WalletRecord> {
  const record = await Device.wallet(wallet.options.store)
  if (!record || !wallet.device) throw Errors.unauthorized()
  return record
}

/** A signed call, its refusal as the message the screen shows. */
async function send<E extends Server.Endpoint>(wallet: Wallet.Wallet, endpoint: E, body: Contract.Body<Server.Route<E>>, signal?: AbortSignal) {
  try {
    return await wallet.server.send(endpoint, body, signal)
  } catch (error) {
    throw Wallet.toDoorwayError(error)
  }
}
