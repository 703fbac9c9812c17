import { createTransport } from 'nodemailer'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as MailSink from './mailSink.js'

let sink: MailSink.start.ReturnType
beforeAll(async () => {
  sink = await MailSink.start({ smtpPort: 0, httpPort: 0 })
})
afterAll(() => sink.stop())

// As the secure-site server sends (docs/local-infra.md: no TLS on loopback).
const send = (mail: { to: string; subject: string; text: string }) =>
  createTransport({ host: sink.smtp.host, port: sink.smtp.port, secure: false, ignoreTLS: true }).sendMail({ from: 'Doorway <login@doorway.test>', ...mail })
const read = async (query: string) => {
  const response = await fetch(`${sink.url}/messages${query}`)
  return { status: response.status, body: (await response.json()) as { messages: MailSink.Message[]; message?: string } }
}

describe('start', () => {
  test('behavior: a mail sent over SMTP is read back by its recipient, case-insensitively', async () => {
    await send({ to: 'Alice@Example.test', subject: 'Your code', text: 'Your login code is 123456' })
    const { status, body } = await read('?to=alice@example.test')
    expect(status).toBe(200)
    expect(body.messages).toHaveLength(1)
    expect(body.messages[0]).toMatchObject({ from: 'login@doorway.test', to: ['alice@example.test'], subject: 'Your code' })
    expect(body.messages[0]!.text.trim()).toBe('Your login code is 123456')
    expect((await read('?to=bob@example.test')).body.messages).toEqual([])
  })

  test('behavior: mails are listed oldest first with increasing ids; DELETE empties the sink', async () => {
    await send({ to: 'order@example.test', subject: 'one', text: '1' })
    await send({ to: 'order@example.test', subject: 'two', text: '2' })
    const { messages } = (await read('?to=order@example.test')).body
    expect(messages.map((m) => m.subject)).toEqual(['one', 'two'])
    expect(messages[1]!.id).toBeGreaterThan(messages[0]!.id)
    await fetch(`${sink.url}/messages`, { method: 'DELETE' })
    expect((await read('')).body.messages).toEqual([])
  })

  test.each([['?to=not-an-address'], ['?to=a%20b@example.test'], [`?to=${'a'.repeat(250)}@x.test`]])('error: %s is refused with 400', async (query) => {
    const { status, body } = await read(query)
    expect(status).toBe(400)
    expect(body.message).toBe('Invalid to: expected an email address')
  })

  test('error: an unknown path is 404 and names the read API', async () => {
    const response = await fetch(`${sink.url}/inbox`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ message: 'Not found: GET /messages?to=ADDRESS' })
  })

  test('error: a mail above the size limit is refused and not kept', async () => {
    await expect(send({ to: 'big@example.test', subject: 'big', text: 'x'.repeat(MailSink.limits.messageBytes + 1) })).rejects.toThrow(/552|size/i)
    expect((await read('?to=big@example.test')).body.messages).toEqual([])
  })

  test('behavior: a stalled sink holds mail until resumed (for the 30 s timeout tests)', async () => {
    await fetch(`${sink.url}/stall`, { method: 'POST' })
    let delivered = false
    const sending = send({ to: 'stall@example.test', subject: 'late', text: 'late' }).then(() => (delivered = true))
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(delivered).toBe(false)
    expect((await read('?to=stall@example.test')).body.messages).toEqual([])
    await fetch(`${sink.url}/resume`, { method: 'POST' })
    await sending
    expect((await read('?to=stall@example.test')).body.messages).toHaveLength(1)
  })
})
