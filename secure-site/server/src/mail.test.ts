import * as MailSink from '@doorway/devnet/mailSink'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Mail from './mail.js'

let sink: MailSink.start.ReturnType
beforeAll(async () => {
  sink = await MailSink.start({ smtpPort: 0, httpPort: 0 })
})
afterAll(() => sink.stop())

const inbox = async (to: string) => ((await (await fetch(`${sink.url}/messages?to=${to}`)).json()) as { messages: MailSink.Message[] }).messages

describe('code', () => {
  test('behavior: names the code and the requesting host, and no link', () => {
    expect(Mail.code({ to: 'a@example.test', code: '012345', host: 'http://localhost:5173' })).toMatchInlineSnapshot(`
      {
        "subject": "Your Doorway code is 012345",
        "text": "Your Doorway code is 012345.

      Someone asked to sign in at http://localhost:5173. The code expires in 10 minutes. If this wasn't you, ignore this mail.
      ",
        "to": "a@example.test",
      }
    `)
  })
})

describe('exportCode', () => {
  test('behavior: names the code, the host and what it unlocks, and no link', () => {
    expect(Mail.exportCode({ to: 'a@example.test', code: '012345', host: 'http://localhost:5173' })).toMatchInlineSnapshot(`
      {
        "subject": "Your Doorway code to export your wallet is 012345",
        "text": "Your Doorway code to export your wallet is 012345.

      Someone asked to export your wallet's recovery phrase and private key at http://localhost:5173. The code expires in 10 minutes.

      If this wasn't you, do not share this code with anyone and ignore this mail.
      ",
        "to": "a@example.test",
      }
    `)
  })
})

describe('exported', () => {
  test('behavior: names the host and says what to do if it was not the owner', () => {
    expect(Mail.exported({ to: 'a@example.test', host: 'http://localhost:5173' })).toMatchInlineSnapshot(`
      {
        "subject": "Your Doorway wallet was exported",
        "text": "The recovery phrase and private key of your Doorway wallet were shown at http://localhost:5173, on a device that confirmed a code sent to this address.

      If this wasn't you, move your funds to a new wallet now.
      ",
        "to": "a@example.test",
      }
    `)
  })
})

describe('smtp', () => {
  const mail = (to: string, code = '654321') => Mail.code({ to, code, host: 'http://127.0.0.1:5173' })

  test('behavior: send resolves once the devnet sink accepted the mail from Doorway', async () => {
    const mailer = Mail.smtp({ host: sink.smtp.host, port: sink.smtp.port })
    await mailer.send(mail('reader@example.test'))
    mailer.close()
    const [message] = await inbox('reader@example.test')
    expect(message).toMatchObject({ from: 'login@doorway.test', subject: 'Your Doorway code is 654321' })
    expect(message!.text).toContain('asked to sign in at http://127.0.0.1:5173.')
  })

  test('behavior: send stays pending while the sink stalls, and resolves when it accepts', async () => {
    await fetch(`${sink.url}/stall`, { method: 'POST' })
    const mailer = Mail.smtp({ host: sink.smtp.host, port: sink.smtp.port })
    let accepted = false
    const sending = mailer.send(mail('stalled@example.test', '111111')).then(() => (accepted = true))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(accepted).toBe(false)
    await fetch(`${sink.url}/resume`, { method: 'POST' })
    await sending
    mailer.close()
    expect(await inbox('stalled@example.test')).toHaveLength(1)
  })

  test('error: a full queue refuses at once', async () => {
    await fetch(`${sink.url}/stall`, { method: 'POST' })
    const mailer = Mail.smtp({ host: sink.smtp.host, port: sink.smtp.port, maxPending: 1 })
    const first = mailer.send(mail('queued@example.test'))
    await expect(mailer.send(mail('dropped@example.test'))).rejects.toThrow('The mail queue is full (1 pending)')
    await fetch(`${sink.url}/resume`, { method: 'POST' })
    await first
    await mailer.idle()
    mailer.close()
    expect(await inbox('dropped@example.test')).toEqual([])
  })

  test('error: send rejects when nothing listens on the port', async () => {
    // Port 1 on loopback refuses at once.
    const mailer = Mail.smtp({ host: '127.0.0.1', port: 1 })
    await expect(mailer.send(mail('a@example.test'))).rejects.toThrow(/ECONNREFUSED/)
    await mailer.idle()
    mailer.close()
  })
})
