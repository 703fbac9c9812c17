/**
 * SmartSessionList (issue 25): the smart account's sessions as the api lists them (spec §7
 * GET /v1/sessions/{address}), each with what it allows in words, its key, its state from the chain
 * (active, expired, revoked) and, while active, Revoke: one approval in the secure-site that disables the
 * delegation on chain and records it (features/embedded/smartRequests.ts `revoke`). A lazy chunk, reached
 * from the Account view when the dapp turned features.smartSessions on.
 */
import * as Address from '@doorway/shared/Address'
import type * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Format from '@doorway/shared/Format'
import { format } from '@doorway/shared/Texts'
import { sessionsText } from '@doorway/shared/texts/sessions'
import { atom, useAtom, useAtomValue, useSetAtom } from 'jotai'
import { useCallback, useEffect, useId, useState } from 'react'
import type { Session } from '../../api/client.js'
import { apiAtom } from '../../core/api.js'
import { configAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { tokensAtom } from '../../features/balances/tokens.js'
import './SmartSessionList.css'

type Load = { status: 'loading' } | { status: 'failed'; reason: string } | { status: 'ready'; sessions: Session[] }

/**
 * The revoke in progress or just done, kept outside the view: its approval replaces this view while it
 * runs (ApproveTransaction), and the view drawn again afterwards says how it ended.
 */
type Revoke = { pci: string; state: 'pending' | 'revoked' | 'failed'; message?: string }
const revokeAtom = atom<Revoke | undefined>(undefined)

export default function SmartSessionList() {
  const account = useAtomValue(accountAtom)
  const api = useAtomValue(apiAtom)
  const [load, setLoad] = useState<Load>({ status: 'loading' })
  const revoke = useAtomValue(revokeAtom)
  const setRevoke = useSetAtom(revokeAtom)
  const title = useId()
  const address = account?.address

  const refresh = useCallback(
    (signal?: AbortSignal) => {
      if (!address) return
      setLoad((l) => (l.status === 'ready' ? l : { status: 'loading' }))
      api.sessions(address, signal).then(
        (sessions) => setLoad({ status: 'ready', sessions: [...sessions].sort((a, b) => b.createdAt - a.createdAt) }),
        (error: unknown) => signal?.aborted || setLoad({ status: 'failed', reason: reasonOf(error) }),
      )
    },
    [api, address],
  )
  useEffect(() => {
    const controller = new AbortController()
    refresh(controller.signal)
    return () => controller.abort()
  }, [refresh])
  // Leaving the view forgets how the last revoke ended, unless it is still running behind its approval.
  useEffect(() => () => setRevoke((r) => (r?.state === 'pending' ? r : undefined)), [setRevoke])

  if (!account) return null
  return (
    <section className="stack sessions" aria-labelledby={title}>
      <h2 id={title} className="visually-hidden">
        {sessionsText.list}
      </h2>
      <p className="muted">{sessionsText.intro}</p>
      <p role="status" className="sessions-announce">
        {revoke?.state === 'revoked' ? sessionsText.revokedNow : undefined}
      </p>
      {load.status === 'loading' && <span className="spinner" role="progressbar" aria-label={sessionsText.loading} />}
      {load.status === 'failed' && (
        <div role="alert" className="stack">
          <p className="error">{format(sessionsText.loadFailed, { reason: load.reason })}</p>
          <button type="button" className="list-button" onClick={() => refresh()}>
            {sessionsText.retry}
          </button>
        </div>
      )}
      {load.status === 'ready' && load.sessions.length === 0 && <p>{sessionsText.empty}</p>}
      {load.status === 'ready' && load.sessions.length > 0 && (
        <ul className="sessions-list" aria-labelledby={title}>
          {load.sessions.map((session) => (
            <SessionItem key={session.pci} session={session} onRevoked={() => refresh()} />
          ))}
        </ul>
      )}
    </section>
  )
}

function SessionItem({ session, onRevoked }: { session: Session; onRevoked: () => void }) {
  const account = useAtomValue(accountAtom)
  const [revoking, setRevoking] = useAtom(revokeAtom)
  const mine = revoking?.pci === session.pci ? revoking : undefined
  const busy = revoking?.state === 'pending'
  const failed = mine?.state === 'failed' ? mine.message : undefined
  const words = useLimits(session)
  const status = statusOf(session)
  const key = delegateOf(session)
  const revoke = async () => {
    if (!account?.connector.revokeSession) return
    const { pci } = session
    setRevoking({ pci, state: 'pending' })
    try {
      await account.connector.revokeSession(session.chainId as Caip.ChainId, session.delegation)
      setRevoking({ pci, state: 'revoked' })
      onRevoked()
    } catch (error) {
      setRevoking({ pci, state: 'failed', message: format(sessionsText.revokeFailed, { reason: reasonOf(error) }) })
    }
  }
  return (
    <li className="session">
      <div className="session-head">
        <span className="session-limit">{words.limit}</span>
        <span className={`session-status session-${status}`}>{sessionsText[status]}</span>
      </div>
      {words.details.map((line) => (
        <span key={line} className="muted">
          {line}
        </span>
      ))}
      {key && <span className="muted">{format(sessionsText.sessionKey, { key: Address.truncate(key) })}</span>}
      {session.statusFrom === 'server' && <span className="muted">{sessionsText.fromServer}</span>}
      {failed && (
        <p className="error" role="alert">
          {failed}
        </p>
      )}
      {status === 'active' && session.delegation && account?.connector.revokeSession && (
        <button type="button" className="list-button" disabled={busy} aria-label={mine?.state === 'pending' ? undefined : format(sessionsText.revokeLabel, { key: key ? Address.truncate(key) : session.pci.slice(0, 10) })} onClick={() => void revoke()}>
          {mine?.state === 'pending' ? sessionsText.revoking : sessionsText.revoke}
        </button>
      )}
    </li>
  )
}

const statusOf = (session: Session): 'active' | 'expired' | 'revoked' => session.status ?? (session.revoked ? 'revoked' : session.expiry * 1000 <= Date.now() ? 'expired' : 'active')

function delegateOf(session: Session): string | undefined {
  const delegate = (session.delegation as { delegate?: unknown } | undefined)?.delegate
  return typeof delegate === 'string' ? delegate : undefined
}

const dateFormat = new Intl.DateTimeFormat(Constants.numberLocale, { dateStyle: 'medium', timeStyle: 'short' })

/** The session's limits in words, as the api decoded them from its caveats (amounts as decimal strings). */
function useLimits(session: Session): { limit: string; details: string[] } {
  const config = useAtomValue(configAtom)
  const balances = useAtomValue(tokensAtom).balances
  const network = config?.networks.find((n) => n.caipNetworkId === session.chainId)
  const limits = (session.permissions ?? {}) as { permission?: Record<string, unknown>; maxCalls?: unknown }
  const permission = limits.permission
  const details: string[] = []
  const expired = statusOf(session) === 'expired'
  details.push(format(expired ? sessionsText.expiredAt : sessionsText.expires, { date: dateFormat.format(new Date(session.expiry * 1000)) }))
  if (typeof limits.maxCalls === 'number') details.push(format(sessionsText.maxCalls, { count: Format.formatNumber(limits.maxCalls, 0) }))
  if (network) details.push(format(sessionsText.network, { network: network.name }))
  const period = permission?.period as { amount?: unknown; seconds?: unknown } | undefined
  if (permission?.type === 'native-token-periodic' && period && network) {
    const amount = exactAmount(BigInt(String(period.amount)), network.nativeCurrency.decimals)
    return { limit: format(sessionsText.spendNative, { amount, symbol: network.nativeCurrency.symbol, period: periodText(Number(period.seconds)) }), details }
  }
  if (permission?.type === 'erc20-token-periodic' && period && typeof permission.token === 'string') {
    // A balance names its token by CAIP-10 (spec §3 token balance), the caveat by its address.
    const token = balances.find((b) => b.chainId === session.chainId && b.address?.toLowerCase() === `${session.chainId}:${permission.token as string}`.toLowerCase())
    const raw = BigInt(String(period.amount))
    const every = periodText(Number(period.seconds))
    return token
      ? { limit: format(sessionsText.spendToken, { amount: exactAmount(raw, Number(token.quantity.decimals)), symbol: token.symbol, period: every }), details }
      : { limit: format(sessionsText.spendTokenUnits, { amount: raw.toString(), token: Address.truncate(permission.token), period: every }), details }
  }
  if (permission?.type === 'contract-call' && Array.isArray(permission.targets)) {
    return { limit: format(sessionsText.callOnly, { targets: (permission.targets as string[]).map((t) => Address.truncate(t)).join(', ') }), details }
  }
  return { limit: sessionsText.unreadable, details }
}

// A limit reads exactly as the secure-site showed it for approval (docs/embedded-wallet.md "Smart sessions"), not
// rounded to spec §9's 3 decimals for quantities: 0.0004 ETH a day would read as 0.000, and 0.0015 as 0.002.
const exactFormat = new Intl.NumberFormat(Constants.numberLocale, { maximumFractionDigits: 18 })
const exactAmount = (raw: bigint, decimals: number) => exactFormat.format(Format.formatUnits(raw, decimals) as Intl.StringNumericLiteral)

function periodText(seconds: number): string {
  if (seconds === 3600) return sessionsText.perHour
  if (seconds === 86_400) return sessionsText.perDay
  if (seconds === 604_800) return sessionsText.perWeek
  const [value, unit] = seconds % 86_400 === 0 ? [seconds / 86_400, 'day'] : seconds % 3600 === 0 ? [seconds / 3600, 'hour'] : seconds % 60 === 0 ? [seconds / 60, 'minute'] : [seconds, 'second']
  return format(sessionsText.every, { duration: new Intl.NumberFormat(Constants.numberLocale, { style: 'unit', unit, unitDisplay: 'long' }).format(value) })
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? ((error as { reason?: string }).reason ?? error.message) : String(error)
  return message.split('\n')[0]!.slice(0, 200)
}
