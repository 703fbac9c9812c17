/**
 * The six social providers the devnet plays (provider.ts), as data: what each is called, whether it is
 * OpenID Connect or plain OAuth 2, the scopes its sign-in asks for, how its consent screen words them,
 * and (OIDC faces) which claims each scope releases. docs/embedded-wallet.md §5.
 */

export type Face = 'google' | 'apple' | 'github' | 'x' | 'discord' | 'facebook'
export const faces: readonly Face[] = ['google', 'apple', 'github', 'x', 'discord', 'facebook']
export const isFace = (value: string): value is Face => (faces as readonly string[]).includes(value)

export type FaceInfo = {
  /** The provider's name on its pages. */
  label: string
  kind: 'oidc' | 'oauth2'
  /** The scopes a sign-in with the real provider asks for. */
  scopes: readonly string[]
  /** What the consent page lists for each scope the provider knows. */
  scopeWords: Readonly<Record<string, string>>
  /** OIDC faces: the claims each scope releases, in the ID token and at /me. */
  claims: Readonly<Record<string, readonly string[]>>
  /** The user-info endpoint below the face's root: OIDC's /me, or the provider-shaped one (profiles.ts). */
  userinfo: string
}

export const table: Readonly<Record<Face, FaceInfo>> = {
  google: {
    label: 'Google',
    kind: 'oidc',
    scopes: ['openid', 'email', 'profile'],
    scopeWords: {
      openid: 'Associate you with your personal info on Google',
      email: 'See your primary Google Account email address',
      profile: "See your personal info, including any personal info you've made publicly available",
    },
    claims: { email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    userinfo: '/me',
  },
  apple: {
    label: 'Apple',
    kind: 'oidc',
    scopes: ['openid', 'email', 'name'],
    scopeWords: { openid: 'Sign in with your Apple Account', email: 'Share your email address', name: 'Share your name' },
    // Apple's ID token has no name: the name comes once, in the form post's `user` (provider.ts).
    claims: { email: ['email', 'email_verified', 'is_private_email'], name: [] },
    userinfo: '/me',
  },
  github: {
    label: 'GitHub',
    kind: 'oauth2',
    scopes: ['read:user', 'user:email'],
    scopeWords: { 'read:user': 'Read all user profile data', 'user:email': 'Access user email addresses (read-only)' },
    claims: {},
    userinfo: '/api/user',
  },
  x: {
    label: 'X',
    kind: 'oauth2',
    // X API v2: GET /2/users/me needs tweet.read and users.read; confirmed_email needs users.email.
    scopes: ['tweet.read', 'users.read', 'users.email'],
    scopeWords: {
      'tweet.read': 'All the posts you can view',
      'users.read': 'Any account you can view',
      'users.email': 'Your email address',
    },
    claims: {},
    userinfo: '/2/users/me',
  },
  discord: {
    label: 'Discord',
    kind: 'oauth2',
    scopes: ['identify', 'email'],
    scopeWords: { identify: 'Access your username, avatar, and banner', email: 'Access your email address' },
    claims: {},
    userinfo: '/api/users/@me',
  },
  facebook: {
    label: 'Facebook',
    kind: 'oauth2',
    scopes: ['email', 'public_profile'],
    scopeWords: { public_profile: 'Your name and profile picture', email: 'Your email address' },
    claims: {},
    userinfo: '/me',
  },
}
