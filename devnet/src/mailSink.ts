/**
 * The devnet's mail sink (docs/architecture.md §3): an SMTP server on loopback that keeps every mail it receives,
 * and `GET /messages?to=ADDRESS` to read them as JSON, as a newcomer or a test reads a login code.
 * It never relays anything anywhere. `import * as MailSink from './mailSink.js'` → `await MailSink.start()`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Server as NetServer } from 'node:net'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** A received mail, as the read API answers it. */
export type Message = { id: number; from: string; to: string[]; subject: string; text: string; date: string }

export const limits = {
  /** Bigger mails are refused at SMTP (the SIZE extension) and cut if a client ignores it. */
  messageBytes: 256 * 1024,
  /** The oldest mails go first beyond this many. */
  messages: 1_000,
}

export function start(options: start.Options = {}): Promise<start.ReturnType> {
  const { smtpPort = 2525, httpPort = 8025, host = '127.0.0.1' } = options
  const sink: Sink = { inbox: [], nextId: 1, stalled: undefined, release: undefined }
  const smtp = smtpServer(sink)
  const http = createServer((req, res) => serveHttp(sink, req, res))

  // smtp-server's `server` is a net.Server; http's is one too.
  const listen = (server: NetServer, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => {
        server.off('error', reject)
        resolve((server.address() as AddressInfo).port)
      })
    })

  return Promise.all([listen(smtp.server, smtpPort), listen(http, httpPort)]).then(
    ([smtpBound, httpBound]) => ({
      smtp: { host, port: smtpBound },
      url: `http://${host}:${httpBound}`,
      stop: () =>
        new Promise<void>((done) => {
          sink.release?.()
          http.closeAllConnections()
          http.close(() => smtp.close(() => done()))
        }),
    }),
    (error: unknown) => {
      smtp.close()
      http.close()
      throw error
    },
  )
}
export declare namespace start {
  type Options = {
    /** 0 picks a free port; the answer says which. */
    smtpPort?: number
    httpPort?: number
    host?: string
  }
  type ReturnType = { smtp: { host: string; port: number }; url: string; stop(): Promise<void> }
}

/** What the SMTP side writes and the HTTP side reads. */
type Sink = {
  inbox: Message[]
  nextId: number
  // Set while a test stalls the sink: mail is accepted only when it ends (a stalled provider, issue 9).
  stalled: Promise<void> | undefined
  release: (() => void) | undefined
}

function smtpServer(sink: Sink): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: nothing to encrypt, and no certificate to make.
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: limits.messageBytes,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream, { skipHtmlToText: false })
        .then(async (mail) => {
          await sink.stalled
          if ((stream as { sizeExceeded?: boolean }).sizeExceeded) throw Object.assign(new Error('Message too big'), { responseCode: 552 })
          sink.inbox.push({
            id: sink.nextId++,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            date: new Date().toISOString(),
          })
          sink.inbox.splice(0, Math.max(0, sink.inbox.length - limits.messages))
          callback()
        })
        .catch((error: Error) => callback(error))
    },
  })
}

function serveHttp(sink: Sink, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://sink')
  const reply = (status: number, body: unknown) =>
    void res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body))
  if (url.pathname === '/messages' && req.method === 'GET') {
    const to = url.searchParams.get('to')
    if (to !== null && !isAddress(to)) return reply(400, { message: 'Invalid to: expected an email address' })
    const messages = to === null ? sink.inbox : sink.inbox.filter((m) => m.to.includes(to.toLowerCase()))
    return reply(200, { messages })
  }
  if (url.pathname === '/messages' && req.method === 'DELETE') {
    sink.inbox.length = 0
    return reply(200, { messages: [] })
  }
  // Tests stall the sink to prove the 30 s timeouts (issue 9): mail waits until resumed.
  if (url.pathname === '/stall' && req.method === 'POST') {
    sink.stalled ??= new Promise<void>((resolve) => (sink.release = resolve))
    return reply(200, { stalled: true })
  }
  if (url.pathname === '/resume' && req.method === 'POST') {
    sink.release?.()
    sink.stalled = sink.release = undefined
    return reply(200, { stalled: false })
  }
  reply(404, { message: 'Not found: GET /messages?to=ADDRESS' })
}

// An address as mail servers take it: something@domain, no spaces, a sane length.
function isAddress(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(value)
}
