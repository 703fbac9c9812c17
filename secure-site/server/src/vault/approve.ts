/**
 * The person's side of a new-device approval (docs/embedded-wallet.md §4 VERIFY_DEVICE): the link in
 * the vault's mail opens a page on the vault's origin that names the wallet, the site, the browser and
 * the time; only the form's POST decides. The token in the link is the only key to it, and the store
 * keeps just its hash.
 */
import { type Context as HonoContext, Hono } from 'hono'
import type { Context } from '../Vault.js'
import * as Approval from './approval.js'
import * as Page from './page.js'
import type * as Store from './store.js'

const pageHeaders = {
  'content-security-policy': Page.contentSecurityPolicy,
  'x-frame-options': 'DENY',
}

/** A refusal page with its status and the pages' headers. */
export function refuse(c: HonoContext, which: Page.Refusal): Response {
  return c.html(Page.refusal(which), Page.refusals[which].status, pageHeaders)
}

export function routes(vault: Context) {
  const app = new Hono()

  app.get('/approve.css', (c) => c.body(Page.stylesheet, 200, { ...pageHeaders, 'content-type': 'text/css; charset=utf-8' }))

  // Shows, never changes: mail scanners open links before the person does.
  app.get('/approve', async (c) => {
    const found = await lookup(vault, c.req.query('token'))
    if ('refusal' in found) return refuse(c, found.refusal)
    return c.html(Page.approval({ token: found.token, email: found.wallet.email, approval: found.approval }), 200, pageHeaders)
  })

  app.post('/approve', async (c) => {
    const form = new URLSearchParams(await c.req.text())
    const decision = form.get('decision')
    if (decision !== 'approve' && decision !== 'deny') return refuse(c, 'decision')
    const found = await lookup(vault, form.get('token') ?? undefined)
    if ('refusal' in found) return refuse(c, found.refusal)
    const decided = await vault.store.approvals.decide(found.approval.id, decision === 'approve' ? 'approved' : 'denied', vault.now())
    if (!decided) {
      // Decided, revoked or expired between the lookup and now: say which.
      const again = await lookup(vault, found.token)
      return refuse(c, 'refusal' in again ? again.refusal : 'used')
    }
    if (decided.state === 'approved') return c.html(Page.approved(decided), 200, pageHeaders)
    return c.html(Page.denied(), 200, pageHeaders)
  })

  return app
}

type Found = { token: string; approval: Store.Approval; wallet: Store.Wallet } | { refusal: Page.Refusal }

/** The approval a token opens, if it can still be decided; otherwise why not. */
async function lookup(vault: Context, token: string | undefined): Promise<Found> {
  // 32 random bytes as base64url: anything else was never a link of ours.
  if (token === undefined || !Approval.tokenPattern.test(token)) return { refusal: 'unknown' }
  const approval = await vault.store.approvals.byTokenHash(await Approval.tokenHash(token))
  if (!approval) return { refusal: 'unknown' }
  const [wallet, device] = await Promise.all([vault.store.wallets.get(approval.userId), vault.store.devices.get(approval.userId, approval.deviceFp)])
  if (!wallet) return { refusal: 'unknown' }
  const refusal = Approval.closed(approval, device, vault.now())
  return refusal ? { refusal } : { token, approval, wallet }
}

