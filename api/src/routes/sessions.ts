/**
 * Smart sessions of spec §7 (/v1/sessions/*): the permission contexts an address granted, and revoking
 * one with the address's signature over `Revoke session {pci}`.
 */
import { Hono } from 'hono'
import { getAddress, verifyMessage } from 'viem'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'

export const revokeMessage = (pci: string) => `Revoke session ${pci}`

export function routes(deps: Deps) {
  const { config, storage } = deps
  const app = new Hono()

  app.get('/v1/sessions/:address', async (c) => {
    Http.project(c, config.projects)
    const address = getAddress(Http.address(c.req.param('address')))
    return c.json({ pcis: await storage.sessions.list(address) })
  })

  app.post('/v1/sessions/:address/revoke', async (c) => {
    Http.project(c, config.projects)
    const address = getAddress(Http.address(c.req.param('address')))
    const { pci, signature } = await Http.json(c)
    if (typeof pci !== 'string' || pci.length === 0 || pci.length > 256) throw Http.badRequest('Invalid pci: expected a permission context id')
    if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]+$/.test(signature)) throw Http.badRequest('Invalid signature: expected hex')
    const session = (await storage.sessions.list(address)).find((s) => s.pci === pci && !s.revoked)
    if (!session) throw new Http.HttpError(404, `No active session ${pci} for ${address}`)
    const signed = await verifyMessage({ address, message: revokeMessage(pci), signature: signature as `0x${string}` }).catch(() => false)
    if (!signed) throw new Http.HttpError(401, 'The signature is not the address’s signature of the revoke message')
    // A concurrent revoke may have won; the session is revoked either way.
    await storage.sessions.revoke(address, pci)
    return c.json({ success: true })
  })

  return app
}
