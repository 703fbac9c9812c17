/**
 * The pure parts of social sign-in (docs/embedded-wallet.md §5): each provider's answer as one profile
 * (social/profiles.ts), the configuration from the environment (social/providers.ts), the flow's decisions
 * and its notifier (social/Flow.ts), the client's loopback rule (social/client.ts) and the popup's pages.
 * social.test.ts runs them end to end against the devnet stand-in.
 */
import * as Constants from '@doorway/shared/Constants'
import * as Ids from '@doorway/shared/Ids'
import { describe, expect, test } from 'vitest'
import * as Client from './social/client.js'
import * as Flow from './social/Flow.js'
import * as Pages from './social/pages.js'
import * as Profiles from './social/profiles.js'
import * as Social from './social/providers.js'
import type { SocialFlow, SocialStatus } from './storage/Storage.js'

describe('Profiles', () => {
  test.each([
    [
      'google',
      () => Profiles.google({ sub: '1234', email: 'a@example.com', email_verified: true, name: ' Alice ', picture: 'https://lh3.example/a.png' }),
      { subject: '1234', email: 'a@example.com', emailVerified: true, username: 'Alice', avatar: 'https://lh3.example/a.png' },
    ],
    [
      'google, email_verified as a string (not Google\'s shape)',
      () => Profiles.google({ sub: '1234', email: 'a@example.com', email_verified: 'true' }),
      { subject: '1234', email: 'a@example.com', emailVerified: false, username: null, avatar: null },
    ],
    [
      'apple, the string "true"',
      () => Profiles.apple({ sub: '001.abc.1', email: 'x@privaterelay.appleid.com', email_verified: 'true', name: 'ignored' }),
      { subject: '001.abc.1', email: 'x@privaterelay.appleid.com', emailVerified: true, username: null, avatar: null },
    ],
    ['apple, the string "false"', () => Profiles.apple({ sub: 's', email: 'x@example.com', email_verified: 'false' }), { subject: 's', email: 'x@example.com', emailVerified: false, username: null, avatar: null }],
    ['apple, a boolean', () => Profiles.apple({ sub: 's', email: 'x@example.com', email_verified: true }), { subject: 's', email: 'x@example.com', emailVerified: true, username: null, avatar: null }],
    [
      "apple's first sign-in: the name from the `user` form field",
      () => Profiles.apple({ sub: 's', email: 'x@example.com', email_verified: 'true' }, JSON.stringify({ name: { firstName: ' Frank ', lastName: 'Ocean' }, email: 'other@example.com' })),
      { subject: 's', email: 'x@example.com', emailVerified: true, username: 'Frank Ocean', avatar: null },
    ],
    [
      "apple's `user` field that is no JSON, or names no one, gives no name",
      () => Profiles.apple({ sub: 's', email: 'x@example.com', email_verified: 'true' }, '{"name":'),
      { subject: 's', email: 'x@example.com', emailVerified: true, username: null, avatar: null },
    ],
    ['apple: a `user` with an empty name', () => Profiles.apple({ sub: 's', email_verified: 'true' }, '{"name":{"firstName":"","lastName":7}}'), { subject: 's', email: null, emailVerified: false, username: null, avatar: null }],
    [
      'github: the primary email of /user/emails, not the public one',
      () =>
        Profiles.github({ id: 583231, login: 'octocat', avatar_url: 'https://avatars.githubusercontent.com/u/583231', email: 'public@example.com' }, [
          { email: 'other@example.com', primary: false, verified: true },
          { email: 'octo@example.com', primary: true, verified: true },
        ]),
      { subject: '583231', email: 'octo@example.com', emailVerified: true, username: 'octocat', avatar: 'https://avatars.githubusercontent.com/u/583231' },
    ],
    [
      'github: an unverified primary email',
      () => Profiles.github({ id: 7, login: 'x' }, [{ email: 'x@example.com', primary: true, verified: false }]),
      { subject: '7', email: 'x@example.com', emailVerified: false, username: 'x', avatar: null },
    ],
    ['github: no emails answer', () => Profiles.github({ id: 7, login: 'x' }, { message: 'Not Found' }), { subject: '7', email: null, emailVerified: false, username: 'x', avatar: null }],
    [
      'x: confirmed_email is verified',
      () => Profiles.x({ data: { id: '2244994945', name: 'X Dev', username: 'XDevelopers', profile_image_url: 'https://pbs.twimg.com/a.jpg', confirmed_email: 'dev@example.com' } }),
      { subject: '2244994945', email: 'dev@example.com', emailVerified: true, username: 'XDevelopers', avatar: 'https://pbs.twimg.com/a.jpg' },
    ],
    ['x: no confirmed email', () => Profiles.x({ data: { id: '1', username: 'u' } }), { subject: '1', email: null, emailVerified: false, username: 'u', avatar: null }],
    [
      'discord: global_name, and the avatar URL from its hash',
      () => Profiles.discord({ id: '80351110224678912', username: 'nelly', global_name: 'Nelly', avatar: '8342729096ea3675442027381ff50dfe', email: 'nelly@example.com', verified: true }),
      { subject: '80351110224678912', email: 'nelly@example.com', emailVerified: true, username: 'Nelly', avatar: 'https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png' },
    ],
    [
      'discord: no global_name, no avatar, an unverified email',
      () => Profiles.discord({ id: '1', username: 'nelly', global_name: null, avatar: null, email: 'n@example.com', verified: false }),
      { subject: '1', email: 'n@example.com', emailVerified: false, username: 'nelly', avatar: null },
    ],
    ['discord: a hash that is no hash', () => Profiles.discord({ id: '1', username: 'n', avatar: '../../x' }), { subject: '1', email: null, emailVerified: false, username: 'n', avatar: null }],
    [
      'facebook: an email it returns is confirmed',
      () => Profiles.facebook({ id: '10158', name: 'Fay', email: 'fay@example.com', picture: { data: { url: 'https://platform-lookaside.fbsbx.com/p.jpg' } } }),
      { subject: '10158', email: 'fay@example.com', emailVerified: true, username: 'Fay', avatar: 'https://platform-lookaside.fbsbx.com/p.jpg' },
    ],
    ['facebook: no email', () => Profiles.facebook({ id: '10158', name: 'Fay' }), { subject: '10158', email: null, emailVerified: false, username: 'Fay', avatar: null }],
  ])('behavior: %s', (_, read, profile) => {
    expect(read()).toEqual(profile)
  })

  test.each([
    ['google without sub', () => Profiles.google({ email: 'a@example.com' })],
    ['github with a string id', () => Profiles.github({ id: '7', login: 'x' }, [])],
    ['github with a fractional id', () => Profiles.github({ id: 7.5 }, [])],
    ['x without data', () => Profiles.x({ id: '1' })],
    ['discord with an empty id', () => Profiles.discord({ id: '' })],
    ['facebook with a long id', () => Profiles.facebook({ id: '1'.repeat(256) })],
  ])('error: %s names no subject and is refused', (_, read) => {
    expect(read).toThrow(Profiles.Unreadable)
  })

  test('param: the answer to the device stays within the contract: a name of at most 100, an http(s) picture of at most 500', () => {
    const long = Profiles.google({ sub: 's', name: 'n'.repeat(300), picture: `https://example.com/${'p'.repeat(500)}` })
    expect(long.username).toHaveLength(Profiles.limits.username)
    expect(long.avatar).toBeNull()
    for (const picture of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '//example.com/a.png', 'not a url', 42])
      expect(Profiles.google({ sub: 's', picture, name: '   ' })).toMatchObject({ avatar: null, username: null })
    expect(Profiles.google({ sub: 's', email: 'x'.repeat(255), email_verified: true })).toMatchObject({ email: null, emailVerified: false })
  })
})

describe('Social.fromEnv', () => {
  const origin = 'http://127.0.0.1:5175'

  test('behavior: nothing configured is no social sign-in', () => {
    expect(Social.fromEnv({}, origin)).toBeUndefined()
    expect(Social.fromEnv({ DOORWAY_SOCIAL_GOOGLE_CLIENT_ID: 'id' }, origin)).toBeUndefined()
  })

  test('behavior: a client id and secret turn a provider on with the real endpoints; the others stay off', () => {
    const config = Social.fromEnv({ DOORWAY_SOCIAL_GITHUB_CLIENT_ID: 'gh-id', DOORWAY_SOCIAL_GITHUB_CLIENT_SECRET: 'gh-secret' }, origin)
    expect(config).toEqual({ callbackOrigin: origin, providers: { github: { ...Social.defaults.github, clientId: 'gh-id', clientSecret: 'gh-secret', emails: 'https://api.github.com/user/emails' } } })
    expect(Social.redirectUri(config!)).toBe('http://127.0.0.1:5175/oauth/callback')
  })

  test('param: each endpoint and the callback origin can be moved', () => {
    const config = Social.fromEnv(
      {
        DOORWAY_SOCIAL_X_CLIENT_ID: 'x-id',
        DOORWAY_SOCIAL_X_CLIENT_SECRET: 'x-secret',
        DOORWAY_SOCIAL_X_ISSUER: 'https://issuer.example',
        DOORWAY_SOCIAL_X_AUTHORIZATION_URL: 'https://issuer.example/auth',
        DOORWAY_SOCIAL_X_TOKEN_URL: 'https://issuer.example/token',
        DOORWAY_SOCIAL_X_USERINFO_URL: 'https://issuer.example/me',
        DOORWAY_SOCIAL_CALLBACK_ORIGIN: 'https://wallet.example/ignored/path',
      },
      origin,
    )
    expect(config).toMatchObject({
      callbackOrigin: 'https://wallet.example',
      providers: { x: { kind: 'oauth2', issuer: 'https://issuer.example/', authorization: 'https://issuer.example/auth', token: 'https://issuer.example/token', userinfo: 'https://issuer.example/me' } },
    })
  })

  test('behavior: DOORWAY_SOCIAL_DEVNET turns on all six against the stand-in, with its clients; an explicit client wins', () => {
    const config = Social.fromEnv({ DOORWAY_SOCIAL_DEVNET: 'http://127.0.0.1:8795/', DOORWAY_SOCIAL_APPLE_CLIENT_ID: 'mine', DOORWAY_SOCIAL_APPLE_CLIENT_SECRET: 'secret' }, origin)!
    expect(Object.keys(config.providers).sort()).toEqual([...Constants.socialProviders].sort())
    expect(config.providers.google).toMatchObject({ issuer: 'http://127.0.0.1:8795/google', token: 'http://127.0.0.1:8795/google/token', clientId: 'doorway-google', clientSecret: 'devnet-google-secret', issParameter: true })
    expect(config.providers.apple).toMatchObject({ clientId: 'mine', clientSecret: 'secret', responseMode: 'form_post' })
  })

  test.each([
    [{ DOORWAY_SOCIAL_DEVNET: 'not a url' }, 'DOORWAY_SOCIAL_DEVNET is not an http(s) URL'],
    [{ DOORWAY_SOCIAL_DEVNET: 'ftp://127.0.0.1' }, 'DOORWAY_SOCIAL_DEVNET is not an http(s) URL'],
    [{ DOORWAY_SOCIAL_GOOGLE_CLIENT_ID: 'a', DOORWAY_SOCIAL_GOOGLE_CLIENT_SECRET: 'b', DOORWAY_SOCIAL_GOOGLE_TOKEN_URL: '/token' }, 'DOORWAY_SOCIAL_GOOGLE_TOKEN_URL is not an http(s) URL'],
    [{ DOORWAY_SOCIAL_GOOGLE_CLIENT_ID: 'a', DOORWAY_SOCIAL_GOOGLE_CLIENT_SECRET: 'b', DOORWAY_SOCIAL_CALLBACK_ORIGIN: 'wallet.example' }, 'DOORWAY_SOCIAL_CALLBACK_ORIGIN is not an http(s) URL'],
  ])('error: %j does not start: %s', (env, message) => {
    expect(() => Social.fromEnv(env, origin)).toThrow(message)
  })
})

describe('Client', () => {
  test.each([
    ['http://127.0.0.1:8795/google/token', true],
    ['http://localhost/token', true],
    ['http://[::1]:8795/token', true],
    ['https://127.0.0.1/token', false],
    ['http://example.com/token', false],
    ['http://127.0.0.1.example.com/token', false],
    ['http://10.0.0.1/token', false],
  ])('param: plain http to %s is allowed: %s (loopback only)', (url, allowed) => {
    expect(Client.isLoopbackHttp(url)).toBe(allowed)
  })

  test('behavior: the authorization URL keeps the endpoint\'s own query and asks with PKCE S256, state and (OIDC) nonce', async () => {
    const flow = Flow.create({ id: Ids.random(), deviceId: Ids.random(), provider: 'apple', host: 'http://a.test', attested: true, now: 0 })
    const config = { ...Social.defaults.apple, authorization: 'https://appleid.apple.com/auth/authorize?locale=en', clientId: 'app', clientSecret: 's' }
    const url = new URL(await Client.authorizationUrl(config, { redirectUri: 'https://w.example/oauth/callback', flow }))
    expect(Object.fromEntries(url.searchParams)).toEqual({
      locale: 'en',
      response_type: 'code',
      client_id: 'app',
      redirect_uri: 'https://w.example/oauth/callback',
      scope: 'openid email name',
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
      response_mode: 'form_post',
    })
  })
})

describe('Flow', () => {
  const now = 1_000_000
  const flow = (status: string): SocialFlow => ({
    ...Flow.create({ id: Ids.random(), deviceId: Ids.random(), provider: 'google', host: 'http://a.test', attested: true, now }),
    status: status as SocialStatus,
  })

  test('behavior: each new flow has its own 256-bit state and nonce and a PKCE verifier, and lives socialFlowTtlMs', () => {
    const [a, b] = [flow('started'), flow('started')]
    for (const secret of [a.state, a.nonce, a.codeVerifier]) expect(secret).toMatch(/^[\w-]{43}$/)
    expect(new Set([a.state, a.nonce, b.state, b.nonce]).size).toBe(4)
    expect(a.expiresAt).toBe(now + Constants.socialFlowTtlMs)
  })

  test.each([
    ['started', 0, 'go'],
    ['authorizing', 0, 'opened'],
    ['verifying', 0, 'used'],
    ['done', 0, 'used'],
    ['failed', 0, 'used'],
    ['redeemed', 0, 'used'],
    ['cancelled', 0, 'expired'],
    ['started', Constants.socialFlowTtlMs, 'expired'],
  ])('param: /oauth/start on a %s flow, %d ms on, is %s', (status, later, verdict) => {
    expect(Flow.opening(flow(status), now + later)).toBe(verdict)
  })

  test.each([
    ['started', 0, 'wait'],
    ['authorizing', 0, 'wait'],
    ['verifying', 0, 'wait'],
    ['done', 0, 'done'],
    ['done', Constants.socialFlowTtlMs, Flow.refusals.expired],
    ['cancelled', 0, Flow.refusals.expired],
    ['authorizing', Constants.socialFlowTtlMs, Flow.refusals.expired],
    ['redeemed', Constants.socialFlowTtlMs, Flow.refusals.redeemed],
  ])('param: a redeem of a %s flow, %d ms on, is %j', (status, later, verdict) => {
    expect(Flow.redeeming(flow(status), now + later)).toEqual(verdict)
  })

  test('behavior: /oauth/start refuses a Farcaster flow in any state: it has no page to go to', () => {
    for (const status of ['started', 'authorizing']) expect(Flow.opening({ ...flow(status), provider: 'farcaster' }, now)).toBe('malformed')
  })

  const fid = { subject: '7', email: null, emailVerified: false, username: 'alice', avatar: null }
  test.each([
    ['a done Farcaster flow of this device', true, { provider: 'farcaster', profile: fid }, 0],
    ['an OAuth account whose email is not verified', true, { profile: { ...fid, email: 'a@example.com' } }, 0],
    ['an OAuth account with a verified email (its redeem signs in)', false, { profile: { ...fid, email: 'a@example.com', emailVerified: true } }, 0],
    ["another device's flow", false, { provider: 'farcaster', profile: fid, deviceId: Ids.random() }, 0],
    ['an expired flow', false, { provider: 'farcaster', profile: fid }, Constants.socialFlowTtlMs],
    ['a flow with no answer yet', false, { provider: 'farcaster', status: 'authorizing' }, 0],
    ['a redeemed flow', false, { provider: 'farcaster', profile: fid, status: 'redeemed' }, 0],
  ] as const)('param: an email code links %s: %s', (_, linkable, change, later) => {
    const done = { ...flow('done'), ...change } as SocialFlow
    expect(Flow.linkable(done, 'deviceId' in change ? Ids.random() : done.deviceId, now + later)).toBe(linkable)
  })

  test('behavior: a failed flow is refused with its reason, each time', () => {
    expect(Flow.redeeming({ ...flow('failed'), reason: 'unverifiedEmail' }, now)).toEqual({ status: 403, reason: 'unverifiedEmail', message: Flow.failures.unverifiedEmail('google') })
    expect(Flow.redeeming({ ...flow('failed'), provider: 'github', reason: 'denied' }, now)).toEqual({ status: 403, reason: 'denied', message: 'You did not allow the app to use your GitHub account' })
  })

  test('behavior: the notifier wakes every waiter of a flow, and only of that flow; a wait ends by itself or on abort', async () => {
    const notifier = Flow.notifier()
    let woken = 0
    const [a, b] = [Ids.random(), Ids.random()]
    const waiting = [notifier.wait(a, 60_000), notifier.wait(a, 60_000)].map((p) => p.then(() => woken++))
    const other = notifier.wait(b, 60_000).then(() => 'b')
    notifier.notify(a)
    await Promise.all(waiting)
    expect(woken).toBe(2)
    const aborted = new AbortController()
    const abandoned = notifier.wait(b, 60_000, aborted.signal)
    aborted.abort()
    await abandoned
    await notifier.wait(b, 1)
    notifier.notify(b)
    expect(await other).toBe('b')
  })
})

describe('Pages', () => {
  test('behavior: every value is escaped, and only a callback\'s page closes the popup', () => {
    expect(Pages.escape(`<script>"x" & 'y'</script>`)).toBe('&#60;script&#62;&#34;x&#34; &#38; &#39;y&#39;&#60;/script&#62;')
    expect(Pages.outcomes.signedIn('github').html).toContain('<script src="/oauth/done.js"></script>')
    expect(Pages.refusal('expired', { close: true }).html).toContain('/oauth/done.js')
    expect(Pages.refusal('expired', { close: false }).html).not.toContain('<script')
    expect(Pages.refusal('unknown', { close: false }).status).toBe(404)
  })
})
