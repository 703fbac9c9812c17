/**
 * Durable data (analytics events, names, sessions) behind one interface (issue 4): an embedded
 * PGlite database by default (no server), PostgreSQL for operators running several api instances.
 * Both speak the same SQL and pass the same tests.
 */
import type { Config } from '../config.js'

export type AnalyticsEvent = {
  projectId: string
  eventId: string
  url: string
  domain: string
  timestamp: number
  props: Record<string, unknown>
}

/** A registered name-service name (spec §7 profile endpoints). */
export type NameRecord = {
  name: string
  address: string
  /** CAIP-2 chain, or coin type as the registration sent it. */
  coinType: number
  attributes: Record<string, string>
  registeredAt: number
}

/** A smart session (ERC-7715 permission) granted by an address (spec §7 sessions endpoints). */
export type SessionRecord = {
  address: string
  /** The permission context id. */
  pci: string
  chainId: string
  permissions: unknown
  expiry: number
  revoked: boolean
  createdAt: number
}

export type Storage = {
  analytics: {
    add(event: AnalyticsEvent): Promise<void>
    list(projectId: string, limit?: number): Promise<AnalyticsEvent[]>
  }
  names: {
    get(name: string): Promise<NameRecord | undefined>
    byAddress(address: string): Promise<NameRecord[]>
    /** Fails with NameTaken when the name belongs to someone else. */
    put(record: NameRecord): Promise<void>
  }
  sessions: {
    list(address: string): Promise<SessionRecord[]>
    put(record: SessionRecord): Promise<void>
    /** True when a session was revoked now. */
    revoke(address: string, pci: string): Promise<boolean>
  }
  close(): Promise<void>
}

export class NameTaken extends Error {}

export async function open(config: Config['storage']): Promise<Storage> {
  if (config.kind === 'postgres') return (await import('./postgres.js')).open(config.url)
  return (await import('./embedded.js')).open(config.dir)
}
