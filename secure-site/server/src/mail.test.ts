import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as MailSink from '../../../devnet/src/mailSink.js'
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

describe('smtp', () => {
  test('behavior: the mail reaches the devnet sink from Doorway', async () => {
    const mailer = Mail.smtp({ host: sink.smtp.host, port: sink.smtp.port })
    mailer.send(Mail.code({ to: 'reader@example.test', code: '654321', host: 'http://127.0.0.1:5173' }))
    await mailer.idle()
    mailer.close()
    const [message] = await inbox('reader@example.test')
    expect(message).toMatchObject({ from: 'login@doorway.test', subject: 'Your Doorway code is 654321' })
    expect(message!.text).toContain('asked to sign in at http://127.0.0.1:5173.')
  })

  test('behavior: send returns before the mail is delivered (a stalled sink does not hold the route)', async () => {
    await fetch(`${sink.url}/stall`, { method: 'POST' })
    const mailer = Mail.smtp({ host: sink.smtp.host, port: sink.smtp.port })
    mailer.send(Mail.code({ to: 'stalled@example.test', code: '111111', host: 'http://127.0.0.1:5173' }))
    expect(await inbox('stalled@example.test')).toEqual([])
    await fetch(`${sink.url}/resume`, { method: 'POST' })
    await mailer.idle()
    mailer.close()
    expect(await inbox('stalled@example.test')).toHaveLength(1)
  })

  test('error: an unreachable server is logged, never thrown', async () => {
    const logged: string[] = []
    // Port 1 on loopback refuses at once.
    const mailer = Mail.smtp({ host: '127.0.0.1', port: 1, log: (message) => logged.push(message) })
    expect(() => mailer.send(Mail.code({ to: 'a@example.test', code: '123456', host: 'http://a.test' }))).not.toThrow()
    await mailer.idle()
    mailer.close()
    expect(logged).toEqual(['mail not delivered'])
  })
})
