/**
 * Social sign-in (API.md Social sign-in, docs/embedded-wallet.md §5): one more way to prove the person,
 * never a way around the approval of a new device. The device starts a flow bound to its key; the popup
 * goes through /oauth/start to the provider, whose answer comes back to /oauth/callback and is checked
 * here (social/client.ts); the device then redeems the flow, once, and it ends where POST /v1/email/verify
 * ends: a session on this device, and `create`, or `approve` with the vault's approval mail.
 *
 * Sign In With Farcaster is one more flow in the same table: no popup, the modal shows the relay's connect
 * URI, and the redeem looks at the relay for the person's signed answer (social/farcaster.ts). Farcaster
 * gives no email: an account linked to no one answers needsEmail, and the device's next email code links
 * it (routes/email.ts).
 */
import * as Constants from '@doorway/shared/Constants'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import * as Email from '@doorway/shared/Email'
import * as Ids from '@doorway/shared/Ids'
import { type Context, Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import * as Browser from '../browser.js'
import * as Http from '../http.js'
import * as Client from '../social/client.js'
import * as Farcaster from '../social/farcaster.js'
import * as Flow from '../social/Flow.js'
import * as Pages from '../social/pages.js'
import * as Social from '../social/providers.js'
import type { Device, SocialFlow, SocialProfile, User } from '../storage/Storage.js'
import * as Vaulted from '../vaulted.js'

const { table } = SecureSite

/** Flows are kept a day past their expiry (what an operator looks at), then dropped. */
const keptMs = 24 * 3_600_000

export function routes(server: Server) {
  const notifier = Flow.notifier()
  const app = new Hono()
  app.route('/', api(server, notifier, relayWatch(server, notifier)))
  app.route('/', popup(server, notifier))
  return app
}

/** The device's signed calls: start, redeem (a long poll), cancel. */
function api(server: Server, notifier: Flow.Notifier, relay: RelayWatch) {
  const { storage, social } = server
  const app = new Hono()
  let pruned = -Infinity

  Http.on(app, table.socialStart, async (c) => {
    const { device, body } = await Auth.device(c, server)
    const { provider, host, attested } = Http.body(table.socialStart, body)
    const configured = provider === 'farcaster' ? social?.farcaster : social?.providers[provider]
    if (!social || !configured) throw new Http.HttpError(404, `${Social.name(provider)} sign-in is not configured on this server`, { reason: 'providerOff' })
    const now = server.now()
    if (now - pruned >= 60_000) {
      pruned = now
      await storage.social.prune(now - keptMs)
    }
    const flow = Flow.create({ id: Ids.random(), deviceId: device.id, provider, host, attested, now })
    // One live flow per device: the one it started before is cancelled, and a redeem waiting on it hears so.
    for (const id of await storage.social.start(flow)) notifier.notify(id)
    if (provider === 'farcaster' && social.farcaster) {
      const opened = await openChannel(server, social.farcaster, flow)
      if ('status' in opened) return c.json({ message: opened.message, reason: opened.reason }, opened.status)
      return Http.answer(c, table.socialStart, { flowId: flow.id, url: opened.url, expiresAt: flow.expiresAt })
    }
    return Http.answer(c, table.socialStart, { flowId: flow.id, url: Social.startUrl(social, flow.id), expiresAt: flow.expiresAt })
  })

  Http.on(app, table.socialRedeem, async (c) => {
    const { device, body } = await Auth.device(c, server)
    const { flowId } = Http.body(table.socialRedeem, body)
    const stored = await storage.social.get(flowId)
    if (!stored) return refuse(c, Flow.refusals.unknown)
    if (stored.deviceId !== device.id) return refuse(c, Flow.refusals.otherDevice)
    const flow = await settle(server, notifier, relay, stored, c.req.raw.signal)
    const verdict = Flow.redeeming(flow, server.now())
    if (verdict === 'wait') return Http.answer(c, table.socialRedeem, { state: 'pending' })
    if (verdict !== 'done') return refuse(c, verdict)
    return signIn(server, c, device, flow)
  })

  Http.on(app, table.socialCancel, async (c) => {
    const { device, body } = await Auth.device(c, server)
    const { flowId } = Http.body(table.socialCancel, body)
    const flow = await storage.social.get(flowId)
    if (flow && flow.deviceId !== device.id) return refuse(c, Flow.refusals.otherDevice)
    if (flow && (await storage.social.cancel(flowId, device.id, server.now()))) notifier.notify(flowId)
    return Http.answer(c, table.socialCancel, {})
  })

  return app
}

/**
 * The popup's pages, unsigned: the flow's id (128 random bits, known only to the device) or its `state` is
 * what they carry. In redirect mode (spec §7 social-redirect) the top window comes through them instead
 * of a popup, and the callback sends it back to the dapp's page that `return` named.
 */
function popup(server: Server, notifier: Flow.Notifier) {
  const { storage, social } = server
  const app = new Hono()

  app.get('/oauth/done.js', (c) => c.body(Pages.doneScript, 200, { 'content-type': 'text/javascript; charset=utf-8' }))

  app.get('/oauth/start', async (c) => {
    const flowId = c.req.query('flow')
    if (!Ids.isId(flowId)) return page(c, Pages.refusal('malformed', { close: false }))
    const now = server.now()
    const flow = await storage.social.get(flowId)
    const verdict = Flow.opening(flow, now)
    // Flow.opening refuses a Farcaster flow (it has no page to go to); said again here for the types.
    if (verdict !== 'go' || !flow || flow.provider === 'farcaster') return page(c, Pages.refusal(verdict === 'go' ? 'malformed' : verdict, { close: false }))
    const config = social?.providers[flow.provider]
    if (!social || !config) return page(c, Pages.refusal('off', { close: false }))
    const returnTo = c.req.query('return')
    const back = returnTo === undefined ? undefined : Flow.returnUrl(returnTo, flow)
    if (back === null) return page(c, Pages.refusal('malformed', { close: false }))
    // Opened twice at once, one of them goes to the provider.
    if (!(await storage.social.authorize(flowId, now, { returnTo: back }))) {
      const reopened = Flow.opening(await storage.social.get(flowId), server.now())
      return page(c, Pages.refusal(reopened === 'go' ? 'opened' : reopened, { close: false }))
    }
    return c.redirect(await Client.authorizationUrl(config, { redirectUri: Social.redirectUri(social), flow }), 302)
  })

  // The provider's answer: a redirect (GET) or, for Apple, a POSTed form. Whatever it carries, the browser
  // gets a page, never a 5xx; the flow changes only for the one answer that takes it while it is live.
  app.on(['GET', 'POST'], '/oauth/callback', async (c) => {
    const params = await callbackParams(c)
    const state = params?.get('state')
    if (!params || !state || state.length > 512) return page(c, Pages.refusal('malformed', { close: true }))
    const flow = await storage.social.claim(state, server.now())
    if (!flow) return page(c, Pages.refusal(Flow.lateCallback(await storage.social.byState(state), server.now()), { close: true }))
    const outcome = await check(server, flow, params)
    const finished = await storage.social.finish(flow.id, outcome, server.now())
    notifier.notify(flow.id)
    // Cancelled while the answer was checked: nothing of it is kept.
    if (!finished) return page(c, Pages.refusal('expired', { close: true }))
    // Redirect mode: back to the dapp's page, where the modal redeems the flow and says how it went.
    if (flow.returnTo) return c.redirect(flow.returnTo, 303)
    // A Farcaster flow's state never leaves this server (its answer comes from the relay): check() refused this one.
    if (flow.provider === 'farcaster') return page(c, Pages.refusal('malformed', { close: true }))
    if ('profile' in outcome) return page(c, Pages.outcomes.signedIn(flow.provider))
    return page(c, outcome.reason === 'denied' ? Pages.outcomes.denied(flow.provider) : Pages.outcomes.invalid(flow.provider))
  })

  return app
}

const refuse = (c: Context, refusal: Flow.Refusal) => c.json({ message: refusal.message, reason: refusal.reason }, refusal.status)
const page = (c: Context, shown: Pages.Page) => c.html(shown.html, shown.status)

/** The provider's answer for the flow, checked: the profile, or why it failed (the cause logged). */
async function check(server: Server, flow: SocialFlow, params: URLSearchParams): Promise<{ profile: SocialProfile } | { reason: Flow.Failure }> {
  const { social } = server
  const config = flow.provider === 'farcaster' ? undefined : social?.providers[flow.provider]
  try {
    if (flow.provider === 'farcaster') throw new Client.Invalid('A Farcaster flow has no OAuth callback')
    if (!social || !config) throw new Client.Invalid(`${flow.provider} is no longer configured`)
    const profile = await Client.complete(config, { provider: flow.provider, redirectUri: Social.redirectUri(social), flow, params, ...(social.timeoutMs && { timeoutMs: social.timeoutMs }) })
    return { profile }
  } catch (error) {
    if (error instanceof Client.Denied) return { reason: 'denied' }
    server.log(`social sign-in with ${flow.provider} refused`, error)
    return { reason: 'invalid' }
  }
}

/**
 * The flow once it left the provider, or as it is after `pollMs`, or when the device gave up asking. A
 * Farcaster flow has no callback: while it waits on its channel, the relay is looked at every `recheckMs`.
 */
async function settle(server: Server, notifier: Flow.Notifier, relay: RelayWatch, flow: SocialFlow, signal: AbortSignal): Promise<SocialFlow> {
  // Real time, not the server's clock: this is how long one request is held, not a flow's life.
  const deadline = Date.now() + (server.social?.pollMs ?? Constants.socialPollMs)
  let current = flow
  while (Flow.waiting(current, server.now()) && !signal.aborted) {
    if (current.provider === 'farcaster' && current.status === 'authorizing') {
      await relay.look(current)
      current = (await server.storage.social.get(current.id)) ?? current
      if (!Flow.waiting(current, server.now()) || signal.aborted) break
    }
    const left = deadline - Date.now()
    if (left <= 0) break
    await notifier.wait(current.id, Math.min(left, Flow.recheckMs), signal)
    current = (await server.storage.social.get(current.id)) ?? current
  }
  return current
}

/**
 * Farcaster: opens the flow's channel on the relay, whose connect URI the modal shows as a QR code, and the
 * flow waits on it (authorizing) from now. A relay that does not answer or answers what cannot be used
 * ends the flow here, and the device hears why.
 */
async function openChannel(server: Server, config: Farcaster.FarcasterConfig, flow: SocialFlow): Promise<{ url: string } | { status: 410 | 502 | 503; message: string; reason: string }> {
  let opened: { channelToken: string; url: string }
  try {
    // Not aborted with the request: the relay call has its own timeout, and the flow is cancelled below either way.
    opened = await Farcaster.open(config, flow)
  } catch (error) {
    await server.storage.social.cancel(flow.id, flow.deviceId, server.now())
    if (error instanceof Farcaster.Unavailable) {
      server.log('the Farcaster relay did not open a channel', error)
      return { status: 503, message: 'Farcaster is not answering: try again in a moment', reason: 'providerDown' }
    }
    if (error instanceof Farcaster.Invalid) {
      server.log('the Farcaster relay answered a channel that cannot be used', error)
      return { status: 502, message: "Farcaster's answer could not be used: try again", reason: 'providerInvalid' }
    }
    throw error
  }
  // The device started another flow meanwhile (one live flow per device), which cancelled this one.
  if (!(await server.storage.social.authorize(flow.id, server.now(), { channelToken: opened.channelToken }))) return Flow.refusals.expired
  return { url: opened.url }
}

type RelayWatch = ReturnType<typeof relayWatch>

/**
 * Looks at the relay for the Farcaster flows redeems wait on, one look per flow at a time here: the relay
 * hands a completed answer out once and then forgets the channel, so a second look meanwhile would find
 * it gone and fail the flow the first is finishing. For the same reason a look is not aborted with the
 * redeem that asked for it; each of its calls has a timeout (farcaster.ts).
 */
function relayWatch(server: Server, notifier: Flow.Notifier) {
  const looking = new Map<string, Promise<void>>()
  return {
    look(flow: SocialFlow): Promise<void> {
      const running = looking.get(flow.id)
      if (running) return running
      const look = lookAtRelay(server, notifier, flow).finally(() => looking.delete(flow.id))
      looking.set(flow.id, look)
      return look
    },
  }
}

/**
 * One look at a Farcaster flow's channel. The person's signed answer, checked, or why it is refused, takes
 * the flow as a callback would (authorizing → verifying → done or failed, once); still pending, or a relay
 * or RPC that did not answer, leaves it waiting for the next look.
 */
async function lookAtRelay(server: Server, notifier: Flow.Notifier, flow: SocialFlow): Promise<void> {
  const config = server.social?.farcaster
  let outcome: { profile: SocialProfile } | { reason: Flow.Failure }
  if (!config || !flow.channelToken) {
    server.log('a Farcaster flow is waiting, but Farcaster is no longer configured')
    outcome = { reason: 'invalid' }
  } else {
    let looked: Farcaster.look.ReturnType
    try {
      looked = await Farcaster.look(config, { nonce: flow.nonce, channelToken: flow.channelToken })
    } catch (error) {
      if (!(error instanceof Farcaster.Unavailable)) throw error
      server.log('Farcaster is not answering: the redeem answers pending and the next one looks again', error)
      return
    }
    if (looked === 'pending') return
    if ('cause' in looked) server.log(`social sign-in with farcaster refused: ${looked.cause}`)
    outcome = 'profile' in looked ? { profile: looked.profile } : { reason: looked.reason }
  }
  const now = server.now()
  // Cancelled, expired, or taken by another instance's look meanwhile: this answer changes nothing.
  if (!(await server.storage.social.claim(flow.state, now))) return
  await server.storage.social.finish(flow.id, outcome, now)
  notifier.notify(flow.id)
}

/** The refusal of a flow that changed under this redeem (another redeem, a cancel, its expiry). */
async function changed(server: Server, c: Context, flowId: string) {
  const flow = await server.storage.social.get(flowId)
  const verdict = flow ? Flow.redeeming(flow, server.now()) : Flow.refusals.unknown
  return refuse(c, typeof verdict === 'string' ? Flow.refusals.redeemed : verdict)
}

/**
 * A done flow, redeemed: the provider's account signs in its linked user; else the user of its verified
 * email, new or without a wallet, gets it linked; a wallet's owner must approve this device first, so the
 * link waits for that (routes/recovery.ts). Then as POST /v1/email/verify: the session, and `create` or `approve`.
 */
async function signIn(server: Server, c: Context, device: Device, flow: SocialFlow) {
  const { storage } = server
  const { provider } = flow
  const profile = flow.profile!
  const now = server.now()
  const linked = await storage.identities.userOf(provider, profile.subject)
  let user: User | undefined
  if (linked) user = await storage.users.get(linked)
  // Farcaster gives no email and every wallet needs one: the flow stays done, and the device's next email code links it (routes/email.ts).
  else if (provider === 'farcaster') return Http.answer(c, table.socialRedeem, { state: 'needsEmail', username: profile.username, avatar: profile.avatar })
  else {
    // Every wallet needs an email: the vault mails the approval of new devices to it.
    const email = profile.emailVerified ? Email.normalize(profile.email) : undefined
    if (!email) {
      if (!(await storage.social.refuse(flow.id, 'unverifiedEmail', now))) return changed(server, c, flow.id)
      return refuse(c, { status: 403, message: Flow.failures.unverifiedEmail(provider), reason: 'unverifiedEmail' })
    }
    user = (await storage.users.ensure({ id: Ids.random(), email, now })).user
  }
  if (!user) throw new Error(`The identity ${provider} is linked to a user that does not exist`)
  if (!(await storage.social.redeem(flow.id, user.id, now))) return changed(server, c, flow.id)

  // The provider's name and picture stay with this session: a returning device shows them (spec §3 Account user.username).
  await storage.devices.startSession(device.id, user.id, now, { username: profile.username, avatar: profile.avatar })
  // What the person sees of this device in their list (GET /v1/devices), as after a code.
  const browser = Browser.describe(c.req.header('user-agent'))
  await storage.devices.describe(device.id, { origin: flow.host, attested: flow.attested, browser })
  await server.audit(user.id, Audit.kinds.socialVerified, { provider, deviceId: device.id, flowId: flow.id, host: flow.host, attested: flow.attested })
  if (device.userId !== user.id) await server.audit(user.id, Audit.kinds.deviceEnrolled, { deviceId: device.id, host: flow.host })
  if (!linked && !user.address) {
    if (await storage.identities.link({ provider, subject: profile.subject, userId: user.id, now })) await server.audit(user.id, Audit.kinds.socialLinked, { provider, deviceId: device.id })
  } else if (!linked) {
    await storage.identities.requestLink({ provider, subject: profile.subject, userId: user.id, deviceId: device.id, now })
    await server.audit(user.id, Audit.kinds.socialLinkRequested, { provider, deviceId: device.id })
  }
  const answer = { state: 'done', user: { id: user.id, email: user.email }, username: profile.username, avatar: profile.avatar } as const
  if (!user.address) return Http.answer(c, table.socialRedeem, { ...answer, next: 'create' })
  // docs/embedded-wallet.md §4 VERIFY_DEVICE: the provider proved the person; their approval of this device unlocks the recovery pair.
  await Vaulted.approve(server, { userId: user.id, device, origin: flow.host, attested: flow.attested, browser })
  return Http.answer(c, table.socialRedeem, { ...answer, next: 'approve' })
}

/** The answer's parameters: the query of a GET, the form of a POST (the body limit is app.ts's); undefined when it is neither. */
async function callbackParams(c: Context): Promise<URLSearchParams | undefined> {
  if (c.req.method === 'GET') return new URL(c.req.url).searchParams
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) return undefined
  return new URLSearchParams(await c.req.text())
}
