/**
 * The people the devnet's social providers know (provider.ts): four fixed test users, and anyone whose
 * email is typed on a sign-in page. A person's subject is derived from the face and the email (or the
 * test user's name when there is no email), so signing in again gives the same subject, across restarts
 * too, and each face gives its own, in that provider's id format.
 */
import { createHash } from 'node:crypto'
import type { Face } from './faces.js'

export type TestUser = { readonly email?: string; readonly emailVerified: boolean; readonly name: string }

/** The fixed users every sign-in page offers ("Continue as Alice Example"). */
export const testUsers = {
  alice: { email: 'alice@example.com', emailVerified: true, name: 'Alice Example' },
  bob: { email: 'bob@example.com', emailVerified: true, name: 'Bob Example' },
  carol: { email: 'carol@example.com', emailVerified: false, name: 'Carol Example' },
  dave: { emailVerified: false, name: 'Dave Example' },
} as const satisfies Record<string, TestUser>
export type TestUserName = keyof typeof testUsers

export const isTestUserName = (value: string): value is TestUserName => Object.hasOwn(testUsers, value)

/** Someone signed in on a face. `username` is the handle GitHub, X and Discord show. */
export type Person = { email?: string; emailVerified: boolean; name?: string; username: string }

export function fromTestUser(id: TestUserName): Person {
  const user: TestUser = testUsers[id]
  return { ...user, username: id }
}

/** A typed sign-in: the email as given (normalized by the caller), the checkbox, the optional name. */
export function fromTyped(email: string, emailVerified: boolean, name: string | undefined): Person {
  // A handle the way the providers allow one: letters and digits, at most 15 (X's limit, the shortest).
  const username = email.slice(0, email.indexOf('@')).replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 15) || 'user'
  return { email, emailVerified, ...(name ? { name } : {}), username }
}

/** A stable subject for the person on the face, in the format that provider's ids have. */
export function subject(face: Face, person: Person): string {
  const digest = createHash('sha256').update(`${face}\n${person.email ?? `user:${person.username}`}`).digest()
  const number = BigInt(`0x${digest.subarray(0, 16).toString('hex')}`)
  const digits = (count: number) => (number % 10n ** BigInt(count)).toString().padStart(count, '0')
  switch (face) {
    case 'google':
      return `1${digits(20)}` // 21 digits
    case 'apple':
      return `00${digits(4)}.${digest.subarray(16, 32).toString('hex')}.${String(digest.readUInt16BE(30) % 10_000).padStart(4, '0')}`
    case 'github':
      return String(100_000_000 + Number(number % 900_000_000n)) // a JSON number, so within 2^53
    case 'x':
      return `1${digits(18)}`
    case 'discord':
      return `1${digits(17)}` // a snowflake
    case 'facebook':
      return `10${digits(15)}` // an app-scoped id
  }
}

/** A short hash of the subject, as Discord names an avatar image. */
export const avatarHash = (subject: string) => createHash('sha256').update(`avatar\n${subject}`).digest('hex').slice(0, 32)

/**
 * The people signed in on one face, by subject. The latest sign-in wins: typing a known email with
 * "Email verified" unchecked makes that person unverified until the next sign-in.
 */
export function directory(face: Face) {
  const people = new Map<string, Person>()
  return {
    register(person: Person): string {
      const id = subject(face, person)
      people.set(id, person)
      return id
    },
    get: (id: string) => people.get(id),
  }
}
export type Directory = ReturnType<typeof directory>
