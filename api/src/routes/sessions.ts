/**
 * Smart sessions of spec §7 (/v1/sessions/*): the permission contexts an address granted, and revoking
 * one with the address's signature over `Revoke session {pci}`.
 */
import * as Api from '@doorway/shared/contracts/api'
import { Hono } from 'hono'
import { getAddress, verifyMessage } from 'viem'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'

export const revokeMessage = (pci: string) => `Revoke session ${pci}`

export function routes(deps: Deps) {
  const { config, storage } = deps
  const app = new Hono()
  const on = Http.register(app, config.projects)

  on(Api.table.sessions, async ({ params }) => ({ pcis: await storage.sessions.list(getAddress(params.address)) }))

  on(Api.table.revokeSession, async ({ params, body: { pci, signature } }) => {
    const address = getAddress(params.address)
    const session = (await storage.sessions.list(address)).find((s) => s.pci === pci && !s.revoked)
    if (!session) throw new Http.HttpError(404, `No active session ${pci} for ${address}`)
    const signed = await verifyMessage({ address, message: revokeMessage(pci), signature: signature as `0x${string}` }).catch(() => false)
    if (!signed) throw new Http.HttpError(401, 'The signature is not the address’s signature of the revoke message')
    // A concurrent revoke may have won; the session is revoked either way.
    await storage.sessions.revoke(address, pci)
    return { success: true }
  })

  return app
}
